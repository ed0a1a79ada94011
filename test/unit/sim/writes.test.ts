// SPDX-License-Identifier: LGPL-2.1-or-later
// `tee` writes into the tree (truncate + write in place) take effect on the next tick, with the
// kernel's parsing, limits and refusals; a refused write puts the old value back.

import { execFileSync } from 'node:child_process';
import { statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulatedHost, type WriteEvent } from '../../../sim';
import { renderTree } from '../../../sim/kernel/render';
import type { ScenarioSpec } from '../../../sim/scenario/types';
import { applyAttributeWrite } from '../../../sim/writes/attributes';
import { attr, md, oneArray, progress, read, removeTempRoots, startHost, tee, tempRoot } from './simHelpers';

afterEach(removeTempRoots);

const GiB = 2 ** 30;
const SPEED_MIN = 'proc/sys/dev/raid/speed_limit_min';
const SPEED_MAX = 'proc/sys/dev/raid/speed_limit_max';

/** A RAID5 of 3 x 64 GiB resyncing at 10%, disks good for 100 MB/s. */
const resyncing: ScenarioSpec = oneArray({ level: 'raid5', sync: { action: 'resync', donePercent: 10 } },
    { disks: 3, diskSpec: { sizeBytes: 64 * GiB, bandwidthKiBs: 100_000 }, kernel: { speedLimitMax: 20_000 } });

function speedAfter(host: ReturnType<typeof startHost>, seconds = 30): number {
    host.tick(seconds);
    return progress(host, 'md0')!.speed;
}

describe('global limits (/proc/sys/dev/raid)', () => {
    test('speed_limit_max applies on the next tick', () => {
        const host = startHost(resyncing);
        expect(speedAfter(host)).toBe(20_000);
        tee(host, SPEED_MAX, '60000');
        expect(attr(host, SPEED_MAX)).toBe('60000'); // as written, until the next tick
        expect(speedAfter(host)).toBe(60_000);
        expect(attr(host, SPEED_MAX)).toBe('60000');
        expect(attr(host, md('md0', 'sync_speed_max'))).toBe('60000 (system)');
    });

    test('junk is refused and the old value comes back', () => {
        const host = startHost(resyncing);
        for (const junk of ['abc', '2147483648', '12abc', '']) {
            tee(host, SPEED_MAX, junk);
            host.tick(1);
            expect([junk, attr(host, SPEED_MAX)]).toEqual([junk, '20000']);
        }
    });

    test('what the kernel accepts is accepted, as the kernel reads it', () => {
        const host = startHost(resyncing);
        for (const [written, read] of [[' 3000', '3000'], ['4000 ', '4000'], ['5000 6000', '5000'], ['-1', '-1'], ['0', '0']]) {
            tee(host, SPEED_MIN, written);
            host.tick(1);
            expect([written, attr(host, SPEED_MIN)]).toEqual([written, read]);
        }
    });
});

describe('array limits (md/sync_speed_min|max)', () => {
    test('a number sets a local limit, "system" goes back to the sysctl', () => {
        const host = startHost(resyncing);
        tee(host, md('md0', 'sync_speed_max'), '5000');
        host.tick(1);
        expect(attr(host, md('md0', 'sync_speed_max'))).toBe('5000 (local)');
        expect(speedAfter(host)).toBe(5000);
        tee(host, md('md0', 'sync_speed_max'), 'system');
        host.tick(1);
        expect(attr(host, md('md0', 'sync_speed_max'))).toBe('20000 (system)');
        expect(speedAfter(host, 60)).toBe(20_000); // speed= averages the last 30 s
    });

    test('refuses what the kernel refuses', () => {
        const host = startHost(resyncing);
        for (const junk of ['0', '-1', 'abc', 'SYSTEM', '  2000', '99999999999', '7000 (local)']) {
            tee(host, md('md0', 'sync_speed_min'), junk);
            host.tick(1);
            expect([junk, attr(host, md('md0', 'sync_speed_min'))]).toEqual([junk, '1000 (system)']);
        }
    });

    test('a local minimum holds a busy rebuild up', () => {
        const host = startHost({ ...resyncing, arrays: [{ ...resyncing.arrays![0], competingIo: { readKiBs: 500 } }] });
        expect(speedAfter(host)).toBe(1000);
        tee(host, md('md0', 'sync_speed_min'), '15000');
        expect(speedAfter(host)).toBe(15_000);
    });
});

describe('sync_action', () => {
    test('idle interrupts a resync, which resumes where it was (not from the start)', () => {
        const host = startHost(resyncing);
        host.tick(30);
        const before = progress(host, 'md0')!.done;
        tee(host, md('md0', 'sync_action'), 'idle');
        host.tick(1);
        const after = progress(host, 'md0')!;
        expect(after.done).toBeGreaterThanOrEqual(before);
        expect(after.done - before).toBeLessThanOrEqual(20_000);
        expect(attr(host, md('md0', 'sync_action'))).toBe('resync');
    });

    test('idle makes new limits apply at once: the speed window starts over', () => {
        const host = startHost(resyncing);
        host.tick(30);
        tee(host, SPEED_MAX, '80000');
        tee(host, md('md0', 'sync_action'), 'idle');
        expect(speedAfter(host, 1)).toBe(80_000);
    });

    test('frozen pauses: resync=PENDING (tab-indented) and no progress until idle', () => {
        const host = startHost(resyncing);
        tee(host, md('md0', 'sync_action'), 'frozen');
        host.tick(1);
        expect(attr(host, md('md0', 'sync_action'))).toBe('frozen');
        expect(read(host, 'proc/mdstat')).toContain('[3/3] [UUU]\n      \tresync=PENDING\n      \n');
        expect(attr(host, md('md0', 'sync_completed'))).toBe('none');
        expect(attr(host, md('md0', 'sync_speed'))).toBe('none');
        const checkpoint = Number(attr(host, md('md0', 'resync_start')));
        host.tick(600);
        expect(attr(host, md('md0', 'resync_start'))).toBe(String(checkpoint));
        tee(host, md('md0', 'sync_action'), 'idle');
        host.tick(1);
        expect(progress(host, 'md0')!.done).toBeGreaterThanOrEqual(checkpoint / 2);
    });

    test('check starts from idle, finds the scenario mismatches, and is busy while it runs', () => {
        const host = startHost(oneArray({ level: 'raid5', mismatchSectors: 800 },
            { disks: 3, diskSpec: { sizeBytes: 2 * GiB, bandwidthKiBs: 100_000 } }));
        expect(attr(host, md('md0', 'sync_action'))).toBe('idle');
        tee(host, md('md0', 'sync_action'), 'check');
        host.tick(5);
        expect(attr(host, md('md0', 'sync_action'))).toBe('check');
        expect(progress(host, 'md0')!.label).toBe('check');
        expect(Number(attr(host, md('md0', 'mismatch_cnt')))).toBeGreaterThan(0);

        tee(host, md('md0', 'sync_action'), 'repair'); // EBUSY: the file goes back to "check"
        host.tick(1);
        expect(attr(host, md('md0', 'sync_action'))).toBe('check');

        host.tick(600);
        expect(attr(host, md('md0', 'sync_action'))).toBe('idle');
        expect(attr(host, md('md0', 'mismatch_cnt'))).toBe('800');
        expect(attr(host, md('md0', 'last_sync_action'))).toBe('check');
    });

    test('idle stops a check for good', () => {
        const host = startHost(oneArray({ level: 'raid5', sync: { action: 'check', donePercent: 30 } }, { disks: 3 }));
        tee(host, md('md0', 'sync_action'), 'idle');
        host.tick(10);
        expect(attr(host, md('md0', 'sync_action'))).toBe('idle');
        expect(progress(host, 'md0')).toBeNull();
    });

    test('a check on a degraded array finds nothing', () => {
        const host = startHost(oneArray({ level: 'raid6', raidDisks: 5, mismatchSectors: 800 }, { disks: 4, diskSpec: { sizeBytes: 2 * GiB } }));
        tee(host, md('md0', 'sync_action'), 'check');
        host.tick(600);
        expect(attr(host, md('md0', 'mismatch_cnt'))).toBe('0');
        expect(attr(host, md('md0', 'last_sync_action'))).toBe('check');
    });

    test('resync and recover on a clean array do nothing; reshape is not simulated', () => {
        const host = startHost(oneArray({ level: 'raid1' }));
        for (const command of ['resync', 'recover', 'reshape', 'bogus']) {
            tee(host, md('md0', 'sync_action'), command);
            host.tick(1);
            expect([command, attr(host, md('md0', 'sync_action'))]).toEqual([command, 'idle']);
        }
    });
});

describe('raid5/6 tuning', () => {
    test('stripe_cache_size takes 17..32768 and its memory shows in /proc/meminfo', () => {
        const host = startHost(oneArray({ level: 'raid5' }, { disks: 4 }));
        const available = () => Number(/MemAvailable:\s+(\d+) kB/.exec(read(host, 'proc/meminfo'))![1]);
        const before = available();
        for (const junk of ['16', '32769', '0', 'abc', ' 512', '1024 ']) {
            tee(host, md('md0', 'stripe_cache_size'), junk);
            host.tick(1);
            expect([junk, attr(host, md('md0', 'stripe_cache_size'))]).toEqual([junk, '256']);
        }
        tee(host, md('md0', 'stripe_cache_size'), '4352');
        host.tick(1);
        expect(attr(host, md('md0', 'stripe_cache_size'))).toBe('4352');
        // page_size * nr_disks * (4352 - 256) more: 4 KiB * 4 * 4096 = 64 MiB.
        expect(before - available()).toBe(65536);
    });

    test('group_thread_cnt takes 0..8192', () => {
        const host = startHost(oneArray({ level: 'raid6' }, { disks: 4 }));
        tee(host, md('md0', 'group_thread_cnt'), '8193');
        host.tick(1);
        expect(attr(host, md('md0', 'group_thread_cnt'))).toBe('0');
        tee(host, md('md0', 'group_thread_cnt'), '4');
        host.tick(1);
        expect(attr(host, md('md0', 'group_thread_cnt'))).toBe('4');
    });
});

describe('block queue and device settings', () => {
    test('queue_depth is clamped to the device maximum; 0 is refused', () => {
        const host = startHost(oneArray({ level: 'raid1' }, { diskSpec: { kind: 'sas', sizeBytes: 8 * GiB } }));
        const depth = 'sys/block/sda/device/queue_depth';
        expect(attr(host, depth)).toBe('128');
        for (const [written, read] of [['1', '1'], ['256', '128'], ['0', '128'], ['1024', '128'], ['abc', '128'], ['32', '32']]) {
            tee(host, depth, written);
            host.tick(1);
            expect([written, attr(host, depth)]).toEqual([written, read]);
        }
    });

    test('scheduler switches and brackets the one in use; unknown ones are refused', () => {
        const host = startHost(oneArray({ level: 'raid1' }, { diskSpec: { kind: 'sas', scheduler: 'none', sizeBytes: 8 * GiB } }));
        const scheduler = 'sys/block/sda/queue/scheduler';
        expect(read(host, scheduler)).toBe('[none] mq-deadline \n');
        tee(host, scheduler, 'mq-deadline');
        host.tick(1);
        expect(read(host, scheduler)).toBe('none [mq-deadline] \n');
        expect(attr(host, 'sys/block/sda/queue/nr_requests')).toBe('256');
        tee(host, scheduler, 'bfq');
        host.tick(1);
        expect(read(host, scheduler)).toBe('none [mq-deadline] \n');
        expect(read(host, 'sys/block/md0/queue/scheduler')).toBe('none\n');
    });

    test('read_ahead_kb is kept in pages; nr_requests has a floor of 4', () => {
        const host = startHost(oneArray({ level: 'raid1' }));
        tee(host, 'sys/block/md0/queue/read_ahead_kb', '1023');
        tee(host, 'sys/block/sda/queue/nr_requests', '1');
        tee(host, 'sys/block/md0/queue/nr_requests', '64'); // md has no request queue to size
        host.tick(1);
        expect(attr(host, 'sys/block/md0/queue/read_ahead_kb')).toBe('1020');
        expect(attr(host, 'sys/block/sda/queue/nr_requests')).toBe('4');
        expect(attr(host, 'sys/block/md0/queue/nr_requests')).toBe('128');
    });
});

describe('detecting writes', () => {
    test('every file marked writable (mode 0644) has a store function, and only those', () => {
        const host = startHost({ ...resyncing, kernel: { syncIoDepth: 32 } });
        const writable = [...renderTree(host.state)].filter(([, file]) => file.writable).map(([path]) => path);
        expect(writable).toEqual(expect.arrayContaining([SPEED_MIN, 'proc/sys/dev/raid/sync_io_depth',
            md('md0', 'sync_action'), md('md0', 'stripe_cache_size'), 'sys/block/sda/device/queue_depth', 'sys/block/md0/queue/read_ahead_kb']));
        for (const path of writable) {
            expect([path, applyAttributeWrite(host.state, path, 'x') !== null]).toEqual([path, true]);
            expect([path, statSync(join(host.root, path)).mode & 0o777]).toEqual([path, 0o644]);
        }
        expect(statSync(join(host.root, md('md0', 'level'))).mode & 0o777).toBe(0o444);
    });

    test('the real tee works', () => {
        const host = startHost(resyncing);
        execFileSync('sh', ['-c', 'echo 7000 | tee "$1" >/dev/null', 'sh', join(host.root, md('md0', 'sync_speed_max'))]);
        host.tick(1);
        expect(attr(host, md('md0', 'sync_speed_max'))).toBe('7000 (local)');
    });

    test('every write is reported with its outcome', () => {
        const events: WriteEvent[] = [];
        const host = createSimulatedHost(resyncing, tempRoot(), { onWrite: event => events.push(event) });
        tee(host, SPEED_MAX, '30000');
        tee(host, md('md0', 'stripe_cache_size'), '8');
        host.tick(1);
        expect(events).toEqual(expect.arrayContaining([
            { path: SPEED_MAX, value: '30000\n', outcome: { applied: true } },
            { path: md('md0', 'stripe_cache_size'), value: '8\n', outcome: { applied: false, error: 'EINVAL' } },
        ]));
        expect(events).toHaveLength(2);
    });

    test('a file tee has truncated but not written yet is left alone for a tick', () => {
        const host = startHost(resyncing);
        truncateSync(join(host.root, SPEED_MAX), 0);
        host.tick(1);
        expect(read(host, SPEED_MAX)).toBe('');
        tee(host, SPEED_MAX, '30000');
        host.tick(1);
        expect(attr(host, SPEED_MAX)).toBe('30000');
    });

    test('writes land with the kernel-style value on disk, not the raw text', () => {
        const host = startHost(resyncing);
        tee(host, md('md0', 'sync_speed_min'), 'system   ');
        host.tick(1);
        expect(read(host, md('md0', 'sync_speed_min'))).toBe('1000 (system)\n');
    });
});
