// SPDX-License-Identifier: LGPL-2.1-or-later
// The diagnosis on the simulated host: the slow-rebuilds scenario read through raidtune's gather
// script every 2 simulated seconds, as the page does, and each array's findings from that model.

import type { HostModel } from '../../../src/md/modelTypes';
import { diagnose, type Diagnosis } from '../../../src/md/diagnosis/findings';
import type { SimulatedHost } from '../../../sim';
import { removeTempRoots, startHost, tee, watchHost } from '../sim/simHelpers';

afterAll(removeTempRoots);

const byArray = (model: HostModel) => new Map(model.arrays.map(a => [a.name, diagnose(a, model)]));
const kinds = (d: Diagnosis | undefined) => d?.findings.map(f => f.kind);

describe('slow-rebuilds', () => {
    let host: SimulatedHost;
    let model: HostModel;
    beforeAll(() => {
        host = startHost('slow-rebuilds');
        model = watchHost(host, 20);
    });

    test('the first refreshes only gather data', () => {
        const fresh = startHost('slow-rebuilds');
        const early = byArray(watchHost(fresh, 4));
        // Two samples over 2 s: no verdict yet.
        expect(early.get('md0')).toMatchObject({ findings: [], gathering: { samples: 2, seconds: 2 } });
    });

    test('each array shows its own reason', () => {
        const found = byArray(model);
        // md0's disks seek and serve a backup: the stripe cache first (whatIf.ts largerCache), then the minimum.
        expect(kinds(found.get('md0'))).toEqual(['cache-bound', 'starved']);
        expect(kinds(found.get('md1'))).toEqual(['capped-by-max']);
        // The slow member also keeps the stripe cache full (stripes wait for it): no finding of its
        // own, since no larger cache is predicted to help.
        expect(kinds(found.get('md2'))).toEqual(['slow-member']);
        // md3's disks are busy all the time, its cache full as a sync at full pace keeps it: the
        // disks set the pace, and that is all there is to say.
        expect(found.get('md3')).toMatchObject({ findings: [], verdict: { pace: { kind: 'members', bound: { disk: 'sdl' } }, cacheFull: true } });
        expect(kinds(found.get('md4'))).toEqual(['frozen']);
        // md5 runs as fast as its disks go: nothing to report, while md6 waits for it.
        expect(kinds(found.get('md5'))).toEqual([]);
        expect(found.get('md6')?.findings).toEqual([{ kind: 'delayed', waitingFor: ['md5'] }]);
    });

    test('starved: the competing I/O measured from diskstats', () => {
        const starved = byArray(model).get('md0')!.findings.find(f => f.kind === 'starved');
        if (starved?.kind !== 'starved') throw new Error('no starved finding');
        // Per second: the sync reads 4000 from each of sda-sdc and writes 4000 to sdd (16000);
        // the backup's 12000 of reads spread over the 3 in-sync members and its 24000 of writes
        // become 24000 / (4 - 1) = 8000 on each of the 4 members: 44000 of other I/O, 73%.
        expect(starved.otherKiBs).toBeGreaterThan(44000 * 0.95);
        expect(starved.otherKiBs).toBeLessThan(44000 * 1.05);
        expect(starved.otherShare).toBeCloseTo(44000 / 60000, 1);
        // sda moves 16000 KiB/s busy 10% of the time: ~160000 at most, room for Fast rebuild's minimum.
        expect(starved.fix).toEqual({ kind: 'speed-limits', minKiBs: 51200, maxKiBs: null });
    });

    test('slow member: sdj named, busy all the time', () => {
        const slow = byArray(model).get('md2')!.findings.find(f => f.kind === 'slow-member');
        expect(slow).toMatchObject({ member: 'sdj', disk: 'sdj', smartArgv: ['smartctl', '-a', '/dev/sdj'] });
        if (slow?.kind !== 'slow-member') throw new Error('none');
        expect(slow.busyShare).toBeCloseTo(1, 2);
        // 900 KiB/s on 160000 KiB/s disks: they are busy 0.56% of the time.
        expect(slow.peerBusyShare).toBeCloseTo(900 / 160000, 3);
        // And the what-if says no limit can help: sdj is the bound.
        const whatIf = byArray(model).get('md2')!;
        expect(whatIf.window?.bound).toMatchObject({ disk: 'sdj' });
        expect(whatIf.whatIf.filter(r => r.change.kind !== 'now').every(r => r.outcome === 'same')).toBe(true);
    });

    test('a higher minimum on md0: the history starts over, then it runs at the new minimum', () => {
        tee(host, 'sys/block/md0/md/sync_speed_min', '51200'); // the fix: Fast rebuild's 50 MiB/s
        let after = watchHost(host, 2, model);
        expect(byArray(after).get('md0')?.gathering).toEqual({ samples: 1, seconds: 0 });
        after = watchHost(host, 12, after);
        // Still held at its minimum by the backup, but at 51200 KiB/s, and no higher minimum offered:
        // the stripe cache is the lever left.
        const [cache, starved] = byArray(after).get('md0')!.findings;
        expect(cache).toMatchObject({ kind: 'cache-bound', entries: 256, spare: null, fix: { kind: 'stripe-cache', entries: 4096 } });
        expect(starved).toMatchObject({ kind: 'starved', minKiBs: 51200, fix: null, noFix: 'fast-already' });
        expect(byArray(after).get('md0')?.window?.rateKiBs).toBeGreaterThan(51200 * 0.95);
    });

    test('the stripe cache on md0, its cache not full: the page says faster by an amount it cannot measure, and the simulated kernel is faster', () => {
        const fresh = startHost('slow-rebuilds');
        const before = byArray(watchHost(fresh, 20)).get('md0')!;
        // Under the backup md throttles the sync before its 256 entries fill: the rule is not the fullness.
        expect(before.window!.cache!.fullSamples).toBeLessThan(before.window!.cache!.samples * 0.75);
        expect(before.findings[0]).toMatchObject({ kind: 'cache-bound', fix: { kind: 'stripe-cache', entries: 4096 } });
        expect(before.whatIf.find(r => r.change.kind === 'stripe-cache')).toMatchObject({ rateKiBs: null, outcome: 'likely-faster' });
        tee(fresh, 'sys/block/md0/md/stripe_cache_size', '4096');
        const after = byArray(watchHost(fresh, 30)).get('md0')!;
        expect(after.window!.rateKiBs).toBeGreaterThan(before.window!.rateKiBs * 2);
        // At 4096 entries nothing larger is offered: the benchmark measured no more from 8192.
        expect(after.findings.map(f => f.kind)).not.toContain('cache-bound');
        expect(after.whatIf.find(r => r.change.kind === 'stripe-cache')).toBeUndefined();
    });
});

/**
 * Each what-if row of `array` after `seconds`, beside the speed the simulated kernel gives once
 * that change is made on a fresh host of the same seed (measured over the 30 s after it).
 */
function whatIfAgainstSim(scenario: string, array: string, seconds: number) {
    const before = byArray(watchHost(startHost(scenario), seconds)).get(array)!;
    return before.whatIf.slice(1).map(row => {
        const host = startHost(scenario);
        let model = watchHost(host, seconds);
        const change = row.change;
        if (change.kind === 'min') tee(host, `sys/block/${array}/md/sync_speed_min`, String(change.kiBs));
        if (change.kind === 'max') tee(host, `sys/block/${array}/md/sync_speed_max`, String(change.kiBs));
        if (change.kind === 'stripe-cache') tee(host, `sys/block/${array}/md/stripe_cache_size`, String(change.entries));
        model = watchHost(host, 30, model);
        return { row, nowKiBs: before.window!.rateKiBs, simKiBs: byArray(model).get(array)!.window!.rateKiBs };
    });
}

describe('the what-if against the simulated kernel', () => {
    test('newer-kernel-rebuild: no "no faster" for a change that makes the rebuild faster', () => {
        // md0 runs above its minimum under other I/O (its sync_io_depth holds it back): a minimum
        // above its speed takes it there, as on any kernel (md throttles only a sync above its minimum).
        const faster = whatIfAgainstSim('newer-kernel-rebuild', 'md0', 20).filter(r => r.simKiBs > r.nowKiBs * 1.05);
        expect(faster.map(r => r.row.change)).toContainEqual({ kind: 'min', kiBs: 51200 });
        expect(faster.filter(r => r.row.outcome === 'same').map(r => r.row.change)).toEqual([]);
        // And what they predict is what the host does (an unpredictable row would say so instead).
        for (const { row, simKiBs } of faster) expect(simKiBs).toBeGreaterThan((row.rateKiBs ?? 0) * 0.95);
    });
});

describe('seeking-rebuild: a full stripe cache on disks that wait for it', () => {
    test('the finding, its fix predicted at what the disks can move, and the simulated kernel agrees', () => {
        const found = byArray(watchHost(startHost('seeking-rebuild'), 20)).get('md0')!;
        // 90000 KiB/s disks at 57% of it: busy 57%, the cache full in every sample.
        expect(found.findings).toEqual([expect.objectContaining({ kind: 'cache-bound', entries: 256, fullShare: 1, fix: { kind: 'stripe-cache', entries: 4096 } })]);
        expect(found.window?.bound?.kiBs).toBeGreaterThan(90000 * 0.95);
        const rows = whatIfAgainstSim('seeking-rebuild', 'md0', 20);
        const cache = rows.find(r => r.row.change.kind === 'stripe-cache')!;
        expect(cache.row.outcome).toBe('faster');
        // Predicted within 10% of what the host then does.
        expect(Math.abs(cache.row.rateKiBs! - cache.simKiBs) / cache.simKiBs).toBeLessThan(0.1);
        // Nothing else would help an idle rebuild held by its cache: the limits rows say so.
        expect(rows.filter(r => r.row.change.kind !== 'stripe-cache').map(r => r.row.outcome)).toEqual(rows.filter(r => r.row.change.kind !== 'stripe-cache').map(() => 'same'));
    });
});
