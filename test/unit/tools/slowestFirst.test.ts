// SPDX-License-Identifier: LGPL-2.1-or-later
// The tiers' test order (test/order/slowestFirst.js): recorded durations, slowest first; files never
// recorded before all of them; ties by path, so every machine runs the same order.
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const SlowestFirst = require('../../order/slowestFirst.js');

const ROOT = join(__dirname, '..', '..', '..');
const file = (path: string) => ({ path: join(ROOT, path) });

test('recorded files run slowest first, unrecorded ones before them, equal ones by path', () => {
    const sequencer = new SlowestFirst();
    sequencer.seconds = {
        'test/browser/quick.test.ts': 5,
        'test/browser/slow.test.ts': 300,
        'test/browser/b-middle.test.ts': 40,
        'test/browser/a-middle.test.ts': 40,
    };
    const order = sequencer.sort([
        file('test/browser/quick.test.ts'), file('test/browser/new-two.test.ts'), file('test/browser/b-middle.test.ts'),
        file('test/browser/slow.test.ts'), file('test/browser/a-middle.test.ts'), file('test/browser/new-one.test.ts'),
    ]).map((t: { path: string }) => t.path.slice(ROOT.length + 1));
    expect(order).toEqual([
        'test/browser/new-one.test.ts', 'test/browser/new-two.test.ts', 'test/browser/slow.test.ts',
        'test/browser/a-middle.test.ts', 'test/browser/b-middle.test.ts', 'test/browser/quick.test.ts',
    ]);
});

test('the committed durations name only files that exist, each with a positive duration', () => {
    const { existsSync } = jest.requireActual('node:fs');
    const recorded: Record<string, number> = new SlowestFirst().seconds;
    expect(Object.keys(recorded).length).toBeGreaterThan(100);
    for (const [path, seconds] of Object.entries(recorded)) {
        expect([path, existsSync(join(ROOT, path))]).toEqual([path, true]);
        expect(seconds).toBeGreaterThan(0);
    }
});
