// SPDX-License-Identifier: LGPL-2.1-or-later
// Remembered derivations (src/md/memo.ts), and the keep-after-reboot view built on them on the
// page's own refreshes of a syncing array: the same result while its settings stay, a new one
// as soon as one of them changes.

import { memoLast, memoPerReading } from '../../../src/md/memo';
import type { HostModel } from '../../../src/md/modelTypes';
import { ModelBuilder } from '../../../src/md/modelBuilder';
import { keptComparisons, wantedRules } from '../../../src/md/tuning/persist';
import { gatherOutput, md, removeTempRoots, startHost, tee } from '../sim/simHelpers';

afterEach(removeTempRoots);

interface Item { name: string; setting: number; counter: number }

describe('memoPerReading', () => {
    const derived = () => {
        const calls: string[] = [];
        const derive = memoPerReading((context: { inputs: object }) => [context.inputs],
            (item: Item) => [item.name, item.setting],
            (_context, item) => {
                calls.push(item.name);
                return { name: item.name, setting: item.setting };
            });
        return { calls, derive };
    };

    test('a new object reading the same gives the remembered result; a different reading, a new one', () => {
        const { calls, derive } = derived();
        const context = { inputs: {} };
        const first = derive(context, { name: 'md0', setting: 1, counter: 1 });
        expect(derive(context, { name: 'md0', setting: 1, counter: 2 })).toBe(first);
        expect(derive(context, { name: 'md0', setting: 2, counter: 3 })).toEqual({ name: 'md0', setting: 2 });
        expect(derive(context, { name: 'md1', setting: 2, counter: 3 })).toEqual({ name: 'md1', setting: 2 });
        expect(calls).toEqual(['md0', 'md0', 'md1']);
    });

    test('other inputs forget everything', () => {
        const { calls, derive } = derived();
        derive({ inputs: {} }, { name: 'md0', setting: 1, counter: 1 });
        derive({ inputs: {} }, { name: 'md0', setting: 1, counter: 1 });
        expect(calls).toEqual(['md0', 'md0']);
    });
});

test('memoLast keeps one result while its inputs are the same values', () => {
    let calls = 0;
    const sum = memoLast((values: number[]) => values, values => {
        calls++;
        return { total: values.reduce((a, b) => a + b, 0) };
    });
    const first = sum([1, 2]);
    expect(sum([1, 2])).toBe(first);
    expect(sum([1, 3]).total).toBe(4);
    expect(sum([1, 2, 0]).total).toBe(3);
    expect(calls).toBe(3);
});

describe('keep after reboot on a syncing array\'s refreshes', () => {
    function refreshes() {
        const host = startHost('raid6-recovery');
        const name = host.state.arrays[0].name;
        const builder = new ModelBuilder();
        let at = 0;
        const refresh = (): HostModel => {
            host.tick(2);
            at += 2000;
            return builder.build(builder.parse(gatherOutput(host)), at);
        };
        return { host, name, refresh };
    }

    test('the same comparisons and rules while only the progress moves', () => {
        const { name, refresh } = refreshes();
        const first = refresh();
        const second = refresh();
        expect(second.arrays[0]).not.toBe(first.arrays[0]);
        expect(second.arrays[0].sync?.doneKiB).not.toBe(first.arrays[0].sync?.doneKiB);
        expect(keptComparisons(second)).toBe(keptComparisons(first));
        expect(wantedRules(second)).toBe(wantedRules(first));
        expect(name).toBe(first.arrays[0].name);
    });

    test('a changed setting of the syncing array shows in them at once', () => {
        const { host, name, refresh } = refreshes();
        const first = refresh();
        expect(wantedRules(first).find(r => r.match.by === 'uuid' || r.match.by === 'name')).toBeUndefined();
        tee(host, md(name, 'sync_speed_max'), '12345');
        const changed = refresh();
        const rule = wantedRules(changed).find(r => r.match.by === 'uuid' || r.match.by === 'name');
        expect(rule?.attributes).toEqual([['md/sync_speed_max', '12345']]);
        expect(keptComparisons(changed).map(c => [c.live, c.state])).toContainEqual(['12345', 'not-kept']);
    });
});
