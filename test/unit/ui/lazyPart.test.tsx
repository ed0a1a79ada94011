/**
 * @jest-environment jsdom
 */
// SPDX-License-Identifier: LGPL-2.1-or-later
// A lazily loaded part (src/ui/common/lazyPart.tsx) whose chunk is already in renders at its first
// mount: the sync panel's chart and diagnosis, loaded before the first view, must not show their
// fallback for a frame and then grow. One whose chunk is not in shows the fallback until it is.

import { act } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { lazyModule } from '../../../src/ui/common/lazyPart';

function Greeting({ name }: { name: string }) {
    return <p>hello {name}</p>;
}

function mount(element: React.ReactElement): HTMLElement {
    const container = document.createElement('div');
    flushSync(() => createRoot(container).render(element));
    return container;
}

test('a part whose module was preloaded renders at once', async () => {
    const parts = lazyModule(() => Promise.resolve({ Greeting }));
    const Part = parts.part('Greeting');
    await parts.preload();
    expect(parts.isLoaded()).toBe(true);
    expect(mount(<Part name="md0" />).textContent).toBe('hello md0');
});

test('a part whose module is not in yet shows nothing, then the part', async () => {
    let resolve: (module: { Greeting: typeof Greeting }) => void = () => undefined;
    const parts = lazyModule(() => new Promise<{ Greeting: typeof Greeting }>(r => { resolve = r; }));
    const Part = parts.part('Greeting');
    const container = mount(<Part name="md1" />);
    expect(container.textContent).toBe('');
    expect(parts.isLoaded()).toBe(false);
    // act(): React retries the suspended part once the chunk is in, and settles before it returns.
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    await act(async () => {
        resolve({ Greeting });
        await parts.preload();
    });
    expect(container.textContent).toBe('hello md1');
});
