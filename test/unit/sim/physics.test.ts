// SPDX-License-Identifier: LGPL-2.1-or-later
// Sync behaviour over simulated time: speed limits, throttling by competing I/O, the coarse
// sync_completed checkpoints, arrays waiting for each other, reshape and recovery completion.

import type { ScenarioSpec } from '../../../sim/scenario/types';
import { attr, md, oneArray, progress, read, removeTempRoots, startHost } from './simHelpers';

afterEach(removeTempRoots);

const GiB = 2 ** 30;

/** A 2 x 64 GiB RAID1 resync at 10%, disks good for `bandwidth` KiB/s. */
function raid1Resync(bandwidth: number, kernel: ScenarioSpec['kernel'], extra = {}): ScenarioSpec {
    return oneArray({ level: 'raid1', sync: { action: 'resync', donePercent: 10 }, ...extra },
        { diskSpec: { sizeBytes: 64 * GiB, bandwidthKiBs: bandwidth }, kernel });
}

function advanceOf(scenario: ScenarioSpec, seconds: number): { advanced: number; speed: number } {
    const host = startHost(scenario);
    const before = progress(host, 'md0')!.done;
    host.tick(seconds);
    const after = progress(host, 'md0')!;
    return { advanced: after.done - before, speed: Number(attr(host, md('md0', 'sync_speed'))) };
}

describe('sync speed', () => {
    test('an idle array syncs at speed_limit_max', () => {
        expect(advanceOf(raid1Resync(100_000, { speedLimitMax: 50_000 }), 30))
            .toEqual({ advanced: 1_500_000, speed: 50_000 });
    });

    test('the member disks cap it below the limit', () => {
        expect(advanceOf(raid1Resync(30_000, { speedLimitMax: 50_000 }), 30))
            .toEqual({ advanced: 900_000, speed: 30_000 });
    });

    test('competing I/O holds it at speed_limit_min', () => {
        const busy = raid1Resync(100_000, { speedLimitMin: 1000, speedLimitMax: 50_000 },
            { competingIo: { readKiBs: 5000 } });
        expect(advanceOf(busy, 30)).toEqual({ advanced: 30_000, speed: 1000 });
    });

    test('competing I/O cannot push it below the minimum unless the disks are slower', () => {
        const slow = raid1Resync(800, { speedLimitMin: 1000 }, { competingIo: { writeKiBs: 100 } });
        expect(advanceOf(slow, 30).speed).toBe(800);
    });

    test('local sync_speed_min/max override the sysctls', () => {
        const local = raid1Resync(100_000, { speedLimitMax: 50_000 }, { syncSpeedMax: 20_000 });
        expect(advanceOf(local, 30).speed).toBe(20_000);
        const busy = raid1Resync(100_000, {}, { syncSpeedMin: 7000, competingIo: { readKiBs: 1 } });
        expect(advanceOf(busy, 30).speed).toBe(7000);
    });

    test('I/O from another array on the same disks throttles too, only while it runs', () => {
        const scenario: ScenarioSpec = {
            name: 'neighbours', kernel: { speedLimitMin: 1000, speedLimitMax: 40_000 },
            disks: ['sda', 'sdb'].map(name => ({ name, sizeBytes: 64 * GiB, partitions: [{ number: 1, sizeBytes: 32 * GiB }, { number: 2 }] })),
            arrays: [
                { name: 'md0', level: 'raid1', members: [{ device: 'sda1' }, { device: 'sdb1' }], sync: { action: 'resync', donePercent: 1 } },
                { name: 'md1', level: 'raid1', members: [{ device: 'sda2' }, { device: 'sdb2' }], competingIo: { readKiBs: 2000, untilSeconds: 60 } },
            ],
        };
        const host = startHost(scenario);
        host.tick(30);
        expect(progress(host, 'md0')!.speed).toBe(1000);
        host.tick(90);
        expect(progress(host, 'md0')!.speed).toBe(40_000);
    });

    test('speed= and finish= follow the kernel formula', () => {
        const host = startHost(raid1Resync(100_000, { speedLimitMax: 50_000 }));
        host.tick(30);
        const p = progress(host, 'md0')!;
        expect(p.speed).toBe(50_000);
        expect(p.finishMin).toBeCloseTo((p.total - p.done) / 50_000 / 60, 0);
    });

    test('one long tick gives the same result as many short ones', () => {
        const scenario = raid1Resync(100_000, { speedLimitMax: 50_000 });
        const long = startHost(scenario);
        long.tick(100);
        const short = startHost(scenario);
        for (let i = 0; i < 100; i++) short.tick(1);
        expect(read(short, 'proc/mdstat')).toBe(read(long, 'proc/mdstat'));
        expect(attr(short, md('md0', 'sync_completed'))).toBe(attr(long, md('md0', 'sync_completed')));
    });

    test('jitter is deterministic for a seed', () => {
        const scenario = { ...raid1Resync(100_000, { speedLimitMax: 50_000 }), jitter: 0.05 };
        const run = (seed: number) => {
            const host = startHost(scenario, seed);
            for (let i = 0; i < 10; i++) host.tick(1);
            return read(host, 'proc/mdstat');
        };
        expect(run(7)).toBe(run(7));
        expect(run(7)).not.toBe(run(8));
    });
});

describe('sync_completed', () => {
    test('moves in coarse steps (1/16 of the device) while mdstat moves smoothly, like the kernel', () => {
        // The resync-progress-timeline capture: 2 x 256 MiB RAID1 at ~4000 KiB/s, sampled every 2 s.
        const host = startHost(oneArray({ level: 'raid1', componentSizeKiB: 261120, sync: { action: 'resync', donePercent: 0 } },
            { diskSpec: { sizeBytes: 256 * 2 ** 20 }, kernel: { speedLimitMax: 4000 } }));
        const seen = new Set<string>();
        let lastDone = 0;
        for (let t = 0; t < 40; t += 2) {
            host.tick(2);
            const done = progress(host, 'md0')!.done;
            expect(done).toBeGreaterThan(lastDone);
            lastDone = done;
            const completed = attr(host, md('md0', 'sync_completed'));
            seen.add(completed);
            expect(attr(host, md('md0', 'resync_start'))).toBe(completed.split(' / ')[0]);
            const sectors = Number(completed.split(' / ')[0]);
            expect(done * 2 - sectors).toBeLessThanOrEqual(522240 / 16 + 2 * 4000 * 2);
        }
        // The capture shows exactly these checkpoints over its first 40 s.
        expect([...seen]).toEqual([0, 32768, 65536, 98304, 131072, 163840, 196608, 229376, 262144, 294912]
            .map(n => `${n} / 522240`));
    });

    test('reads none when idle and delayed while waiting', () => {
        const idle = startHost(oneArray({ level: 'raid1' }));
        expect(attr(idle, md('md0', 'sync_completed'))).toBe('none');
        expect(attr(idle, md('md0', 'sync_speed'))).toBe('none');
    });
});

describe('arrays sharing disks', () => {
    const shared: ScenarioSpec = {
        name: 'shared', kernel: { speedLimitMax: 100_000 },
        disks: ['sda', 'sdb'].map(name => ({ name, sizeBytes: 8 * GiB, partitions: [{ number: 1, sizeBytes: 2 * GiB }, { number: 2 }] })),
        arrays: [
            { name: 'md0', level: 'raid1', members: [{ device: 'sda1' }, { device: 'sdb1' }], sync: { action: 'resync', donePercent: 50 } },
            { name: 'md1', level: 'raid1', members: [{ device: 'sda2' }, { device: 'sdb2' }], sync: { action: 'resync', donePercent: 0 } },
        ],
    };

    test('sync one at a time: the other waits with resync=DELAYED, then runs', () => {
        const host = startHost(shared);
        expect(read(host, 'proc/mdstat')).toContain('[2/2] [UU]\n      \tresync=DELAYED\n      \n');
        expect(attr(host, md('md1', 'sync_action'))).toBe('resync');
        expect(attr(host, md('md1', 'sync_completed'))).toBe('delayed');
        expect(progress(host, 'md0')).not.toBeNull();

        host.tick(5);
        expect(progress(host, 'md1')).toBeNull();
        host.tick(20); // md0 had ~10 s left
        expect(attr(host, md('md0', 'sync_action'))).toBe('idle');
        expect(attr(host, md('md0', 'resync_start'))).toBe('none');
        const md1 = progress(host, 'md1')!;
        expect(md1.label).toBe('resync');
        expect(md1.done).toBeGreaterThan(0);
        expect(read(host, 'proc/mdstat')).not.toContain('DELAYED');
    });

    test('arrays on different disks sync at the same time', () => {
        const host = startHost({
            name: 'apart',
            disks: ['sda', 'sdb', 'sdc', 'sdd'].map(name => ({ name, sizeBytes: 8 * GiB })),
            arrays: [
                { name: 'md0', level: 'raid1', members: [{ device: 'sda' }, { device: 'sdb' }], sync: { action: 'resync', donePercent: 5 } },
                { name: 'md1', level: 'raid1', members: [{ device: 'sdc' }, { device: 'sdd' }], sync: { action: 'resync', donePercent: 5 } },
            ],
        });
        expect(progress(host, 'md0')).not.toBeNull();
        expect(progress(host, 'md1')).not.toBeNull();
    });
});

describe('reshape (RAID5 grow 3 -> 4)', () => {
    const grow = oneArray({ level: 'raid5', raidDisks: 4, reshape: { fromRaidDisks: 3 }, sync: { action: 'reshape', donePercent: 40 } },
        { disks: 4, diskSpec: { sizeBytes: 4 * GiB, bandwidthKiBs: 100_000 }, kernel: { speedLimitMax: 40_000 } });

    test('shows real progress, then the array grows', () => {
        const host = startHost(grow);
        const component = Number(attr(host, md('md0', 'component_size')));
        const start = progress(host, 'md0')!;
        expect(start.label).toBe('reshape');
        expect(start.done).toBeGreaterThan(0);
        expect(start.total).toBe(component);
        expect(attr(host, md('md0', 'raid_disks'))).toBe('4 (3)');
        expect(attr(host, md('md0', 'sync_action'))).toBe('reshape');
        expect(read(host, 'proc/mdstat')).toContain(` ${component * 2} blocks super 1.2 level 5, 512k chunk, algorithm 2 [4/4] [UUUU]`);

        host.tick(20);
        const position = Number(attr(host, md('md0', 'reshape_position')));
        expect(position).toBeGreaterThan(0);
        expect(position % 3).toBe(0); // array sectors: per-device progress times 3 data disks
        expect(progress(host, 'md0')!.done).toBeGreaterThan(start.done);

        host.tick(3600);
        expect(progress(host, 'md0')).toBeNull();
        expect(attr(host, md('md0', 'raid_disks'))).toBe('4');
        expect(attr(host, md('md0', 'reshape_position'))).toBe('none');
        expect(attr(host, md('md0', 'sync_action'))).toBe('idle');
        expect(attr(host, md('md0', 'last_sync_action'))).toBe('reshape');
        expect(read(host, 'proc/mdstat')).toContain(` ${component * 3} blocks super 1.2`);
        expect(Number(attr(host, 'sys/block/md0/size'))).toBe(component * 3 * 2);
    });

    test('reads and rewrites every member: half the disk bandwidth', () => {
        const host = startHost({ ...grow, kernel: { speedLimitMax: 200_000 } });
        host.tick(30);
        expect(progress(host, 'md0')!.speed).toBe(50_000);
    });
});

describe('recovery', () => {
    const nearlyDone = oneArray({
        level: 'raid5',
        members: ['sda', 'sdb', 'sdc'].map(device => ({ device })).concat([{ device: 'sdd', role: 'recovering' } as never]),
        sync: { action: 'recover', donePercent: 99 },
    }, { disks: 4, diskSpec: { sizeBytes: 4 * GiB } });

    test('while it runs the new member is a spare in its slot and the array is degraded', () => {
        const host = startHost(nearlyDone);
        expect(attr(host, md('md0', 'dev-sdd/state'))).toBe('spare');
        expect(attr(host, md('md0', 'dev-sdd/slot'))).toBe('3');
        expect(attr(host, md('md0', 'degraded'))).toBe('1');
        expect(attr(host, md('md0', 'sync_action'))).toBe('recover');
        expect(read(host, 'proc/mdstat')).toContain('[4/3] [UUU_]\n      [===================>.]  recovery = 98.9%');
    });

    test('when it finishes the member becomes in_sync and the array whole', () => {
        const host = startHost(nearlyDone);
        host.tick(60);
        expect(attr(host, md('md0', 'dev-sdd/state'))).toBe('in_sync');
        expect(attr(host, md('md0', 'dev-sdd/slot'))).toBe('3');
        expect(attr(host, md('md0', 'dev-sdd/recovery_start'))).toBe('none');
        expect(attr(host, md('md0', 'degraded'))).toBe('0');
        expect(attr(host, md('md0', 'sync_action'))).toBe('idle');
        expect(attr(host, md('md0', 'sync_completed'))).toBe('none');
        expect(attr(host, md('md0', 'last_sync_action'))).toBe('recovery');
        expect(read(host, 'proc/mdstat')).toContain('[4/4] [UUUU]\n      \n');
    });

    test('a spare added to a degraded array is taken into the empty slot and rebuilt', () => {
        const host = startHost(oneArray({
            level: 'raid1', raidDisks: 2, members: [{ device: 'sda' }, { device: 'sdb', role: 'spare', desc: 2 }],
        }));
        expect(attr(host, md('md0', 'dev-sdb/slot'))).toBe('1');
        expect(progress(host, 'md0')!.label).toBe('recovery');
        expect(read(host, 'proc/mdstat')).toContain('md0 : active raid1 sdb[2] sda[0]');
    });

    test('a finished replacement takes over its slot and the original is failed', () => {
        const host = startHost(oneArray({
            level: 'raid1',
            members: [
                { device: 'sda' }, { device: 'sdb', flags: ['want_replacement'] },
                { device: 'sdc', slot: 1, role: 'recovering', flags: ['replacement'] },
            ],
            sync: { action: 'recover', donePercent: 50 },
        }, { disks: 3, diskSpec: { sizeBytes: 2 * GiB } }));
        expect(read(host, 'proc/mdstat')).toContain('sdc[2](R) sdb[1] sda[0]');
        expect(attr(host, md('md0', 'dev-sdb/state'))).toBe('in_sync,want_replacement');
        expect(attr(host, md('md0', 'dev-sdc/state'))).toBe('spare,replacement');
        host.tick(3600);
        expect(attr(host, md('md0', 'dev-sdc/state'))).toBe('in_sync');
        expect(attr(host, md('md0', 'dev-sdb/state'))).toBe('faulty,want_replacement');
        expect(read(host, 'proc/mdstat')).toContain('sdc[2] sdb[1](F) sda[0]\n');
    });
});

describe('check', () => {
    test('counts the scenario mismatches as it goes, in stripe units', () => {
        const host = startHost(oneArray({ level: 'raid5', mismatchSectors: 8000, sync: { action: 'check', donePercent: 50 } },
            { disks: 3, diskSpec: { sizeBytes: 4 * GiB } }));
        expect(Number(attr(host, md('md0', 'mismatch_cnt')))).toBe(4000);
        host.tick(3600);
        expect(attr(host, md('md0', 'mismatch_cnt'))).toBe('8000');
        expect(attr(host, md('md0', 'sync_action'))).toBe('idle');
        expect(attr(host, md('md0', 'last_sync_action'))).toBe('check');
    });
});

describe('diskstats', () => {
    const sectors = (host: ReturnType<typeof startHost>, name: string) => {
        const line = read(host, 'proc/diskstats').split('\n').find(l => l.split(/\s+/)[3] === name)!;
        const fields = line.trim().split(/\s+/).map(Number);
        return { read: fields[5], written: fields[9], busyMs: fields[12] };
    };

    test('member disks grow with sync I/O: sources read, the rebuilt member is written', () => {
        const host = startHost(oneArray({
            level: 'raid1', members: [{ device: 'sda' }, { device: 'sdb', role: 'recovering' }],
            sync: { action: 'recover', donePercent: 10 },
        }, { kernel: { speedLimitMax: 10_000 }, diskSpec: { sizeBytes: 64 * GiB, bandwidthKiBs: 100_000 } }));
        host.tick(10);
        expect(sectors(host, 'sda')).toEqual({ read: 200_000, written: 0, busyMs: 1000 });
        expect(sectors(host, 'sdb')).toEqual({ read: 0, written: 200_000, busyMs: 1000 });
        expect(sectors(host, 'md0')).toEqual({ read: 0, written: 0, busyMs: 0 });
    });

    test('competing I/O shows on the array and its members', () => {
        const host = startHost(oneArray({ level: 'raid1', competingIo: { readKiBs: 1000, writeKiBs: 500 } }));
        host.tick(10);
        expect(sectors(host, 'md0')).toMatchObject({ read: 20_000, written: 10_000 });
        // Reads are spread over the mirrors, writes go to both.
        expect(sectors(host, 'sda')).toMatchObject({ read: 10_000, written: 10_000 });
        expect(sectors(host, 'sdb')).toMatchObject({ read: 10_000, written: 10_000 });
    });
});

describe('the lockless bitmap (llbitmap)', () => {
    const LLBITMAP_KERNEL = { bitmapTypes: ['bitmap' as const, 'llbitmap' as const], speedLimitMax: 10_000 };
    const bits = (host: ReturnType<typeof startHost>) => Object.fromEntries(attr(host, md('md0', 'llbitmap/bits'))
        .trim().split('\n').map(line => [line.replace(/ \d+$/, ''), Number(line.replace(/^.* /, ''))]));

    test('a rebuild reads only the written chunks: the position passes the rest, speed= counts the sync I/O', () => {
        const host = startHost(oneArray({
            level: 'raid1', members: [{ device: 'sda' }, { device: 'sdb', role: 'recovering' }],
            bitmap: { kind: 'llbitmap', chunkKiB: 65536, writtenPercent: 25 }, sync: { action: 'recover', donePercent: 10 },
        }, { kernel: LLBITMAP_KERNEL, diskSpec: { sizeBytes: 64 * GiB, bandwidthKiBs: 100_000 } }));
        const before = progress(host, 'md0')!.done;
        host.tick(10);
        // 10 s at 10000 KiB/s of sync I/O moves the position over four times as much of the device.
        expect(progress(host, 'md0')!.done - before).toBe(400_000);
        expect(attr(host, md('md0', 'sync_speed'))).toBe('10000');
        // 1023 chunks of 64 MiB (the superblock and data offset take the rest of 64 GiB), a quarter written.
        expect(attr(host, md('md0', 'llbitmap/metadata'))).toMatch(/^chunksize 131072\nchunkshift 17\nchunks 1023\n/);
        expect(bits(host)).toEqual({ 'unwritten': 767, 'clean': 256, 'dirty': 0, 'need sync': 0, 'syncing': 0 });
    });

    test('a resync syncs the chunks marked "need sync": they turn clean as it passes, and none are left at the end', () => {
        const host = startHost(oneArray({
            level: 'raid1', bitmap: { kind: 'llbitmap', chunkKiB: 65536, writtenPercent: 50, needSyncPercent: 10 },
            sync: { action: 'resync', donePercent: 0 },
        }, { kernel: LLBITMAP_KERNEL, diskSpec: { sizeBytes: 64 * GiB, bandwidthKiBs: 100_000 } }));
        // Of 1023 chunks, 512 written, 102 of them marked.
        expect(bits(host)).toEqual({ 'unwritten': 511, 'clean': 410, 'dirty': 0, 'need sync': 101, 'syncing': 1 });
        host.tick(60);
        // 600 MB of sync I/O, ten times as far along the device: 6 GB, 9% of it, and of the marks.
        expect(progress(host, 'md0')!.done).toBe(6_000_000);
        expect(bits(host)).toMatchObject({ 'clean': 419, 'need sync': 92, 'syncing': 1 });
        host.tick(3600);
        expect(attr(host, md('md0', 'sync_action'))).toBe('idle');
        expect(bits(host)).toEqual({ 'unwritten': 511, 'clean': 512, 'dirty': 0, 'need sync': 0, 'syncing': 0 });
    });

    test('a scenario gives the written and marked shares to the lockless bitmap only, and marks only written chunks', () => {
        const invalid = (bitmap: object) => () => startHost(oneArray({ level: 'raid1', bitmap: bitmap as never }, { kernel: LLBITMAP_KERNEL }));
        expect(invalid({ kind: 'bitmap', chunkKiB: 65536, writtenPercent: 20 })).toThrow(/the lockless bitmap's/);
        expect(invalid({ kind: 'llbitmap', chunkKiB: 65536, writtenPercent: 20, needSyncPercent: 30 })).toThrow(/more than writtenPercent/);
    });
});
