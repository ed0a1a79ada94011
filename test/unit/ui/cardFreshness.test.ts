// SPDX-License-Identifier: LGPL-2.1-or-later
// Which model an array's card shows (src/ui/arrays/cardFreshness.ts), on models the page's own
// refresh builds from the simulated host: a card far off screen may show a sync's progress a few
// refreshes late, never a change of anything else.

import type { HostModel } from '../../../src/md/modelTypes';
import { ModelBuilder } from '../../../src/md/modelBuilder';
import { firstCardView, nextCardView, OFFSCREEN_REFRESH_EVERY, type CardView } from '../../../src/ui/arrays/cardFreshness';
import type { SimulatedHost } from '../../../sim';
import { gatherOutput, md, removeTempRoots, startHost, tee } from '../sim/simHelpers';

afterEach(removeTempRoots);

/** A simulated host (by default one recovering RAID6), read as the page reads it, refresh after refresh. */
function recoveringHost(scenario = 'raid6-recovery') {
    const host = startHost(scenario);
    const name = host.state.arrays[0].name;
    const builder = new ModelBuilder();
    let at = 0;
    const refresh = (seconds = 2): HostModel => {
        host.tick(seconds);
        at += seconds * 1000;
        return builder.build(builder.parse(gatherOutput(host)), at);
    };
    return { host, name, refresh };
}

const arrayOf = (model: HostModel, name: string) => model.arrays.find(a => a.name === name)!;

/** Feeds one refresh to the view of `name`'s card. */
function follow(view: CardView, model: HostModel, name: string, near = false): CardView {
    return nextCardView(view, arrayOf(model, name), model, near);
}

/** A card far off screen whose view is up to date with `model` and whose next lag starts now. */
function offScreenView(model: HostModel, name: string): CardView {
    return firstCardView(arrayOf(model, name), model, 0);
}

describe('an array card far off screen', () => {
    test('shows a running sync\'s progress at most OFFSCREEN_REFRESH_EVERY refreshes late', () => {
        const { name, refresh } = recoveringHost();
        const first = refresh();
        expect(arrayOf(first, name).sync?.runState).toBe('running');
        let view = offScreenView(first, name);
        let latest = first;
        for (let i = 1; i < OFFSCREEN_REFRESH_EVERY; i++) {
            latest = refresh();
            expect(arrayOf(latest, name).sync?.doneKiB).toBeGreaterThan(arrayOf(first, name).sync!.doneKiB!);
            view = follow(view, latest, name);
            expect(view.array).toBe(arrayOf(first, name));
        }
        latest = refresh();
        view = follow(view, latest, name);
        expect(view.array).toBe(arrayOf(latest, name));
        expect(view.host).toBe(latest);
    });

    test('an idle array\'s card has nothing to catch up: its view stands, refresh after refresh', () => {
        const { refresh } = recoveringHost('degraded-failed');
        const first = refresh();
        const idle = first.arrays[0];
        expect(idle.sync).toBeNull();
        const view = offScreenView(first, idle.name);
        let latest = first;
        for (let i = 0; i < OFFSCREEN_REFRESH_EVERY + 1; i++) {
            latest = refresh();
            expect(arrayOf(latest, idle.name)).toBe(idle);
            expect(follow(view, latest, idle.name)).toBe(view);
            expect(follow(view, latest, idle.name, true)).toBe(view);
        }
    });

    test('a render without a new refresh does not count as one', () => {
        const { name, refresh } = recoveringHost();
        const first = refresh();
        const second = refresh();
        const view = follow(offScreenView(first, name), second, name);
        expect(follow(view, second, name)).toBe(view);
        expect(view.skipped).toBe(1);
    });

    test('cards catch up at different refreshes, by their position', () => {
        const { name, refresh } = recoveringHost();
        const first = refresh();
        const caughtUpAt = [0, 1, 2, 3, 4].map(position => {
            let view = firstCardView(arrayOf(first, name), first, position);
            for (let n = 1; ; n++) {
                const model = refresh(1);
                view = follow(view, model, name);
                if (view.host === model) return n;
            }
        });
        expect(new Set(caughtUpAt).size).toBe(OFFSCREEN_REFRESH_EVERY);
        expect(Math.max(...caughtUpAt)).toBe(OFFSCREEN_REFRESH_EVERY);
    });

    test('shows the latest model as soon as it comes near the screen', () => {
        const { name, refresh } = recoveringHost();
        const first = refresh();
        const second = refresh();
        const lagging = follow(offScreenView(first, name), second, name);
        expect(lagging.array).toBe(arrayOf(first, name));
        const near = nextCardView(lagging, arrayOf(second, name), second, true);
        expect(near.array).toBe(arrayOf(second, name));
    });

    test.each<[string, (host: SimulatedHost, name: string) => void]>([
        ['the array\'s own maximum speed', (host, name) => tee(host, md(name, 'sync_speed_max'), '12345')],
        ['the system-wide minimum speed', host => tee(host, 'proc/sys/dev/raid/speed_limit_min', '7000')],
        ['the sync frozen', (host, name) => tee(host, md(name, 'sync_action'), 'frozen')],
        ['the stripe cache size', (host, name) => tee(host, md(name, 'stripe_cache_size'), '4096')],
        ['a member disk\'s scheduler', (host, name) => {
            const disk = host.state.arrays.find(a => a.name === name)!.members[0].disk.name;
            tee(host, `sys/block/${disk}/queue/scheduler`, 'none');
        }],
    ])('shows a change of %s at the next refresh', (_what, change) => {
        const { host, name, refresh } = recoveringHost();
        const first = refresh();
        const view = offScreenView(first, name);
        change(host, name);
        const changed = refresh();
        expect(arrayOf(changed, name)).not.toBe(arrayOf(first, name));
        expect(follow(view, changed, name).host).toBe(changed);
    });

    test('any array field outside a sync\'s moving counters counts as a change, one added later too', () => {
        const { name, refresh } = recoveringHost();
        const first = refresh();
        const second = refresh();
        const array = arrayOf(second, name);
        const view = offScreenView(first, name);
        expect(nextCardView(view, array, second, false).array).toBe(arrayOf(first, name));
        const withField = { ...array, addedLater: 1 } as typeof array;
        expect(nextCardView(view, withField, second, false).array).toBe(withField);
        const readAhead = { ...array, readAheadKiB: (array.readAheadKiB ?? 0) + 4 };
        expect(nextCardView(view, readAhead, second, false).array).toBe(readAhead);
    });
});
