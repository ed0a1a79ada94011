// SPDX-License-Identifier: LGPL-2.1-or-later
import { buildModel } from '../../../../src/md/model';
import type { HostModel } from '../../../../src/md/modelTypes';
import { describePlan } from '../../../../src/md/plan';
import { readBackMatches } from '../../../../src/md/readBack';
import { arrayLimitsPlan, globalLimitsPlan } from '../../../../src/md/tuning/speedLimits';
import { reshapeStripeCacheMin, stripeCacheCost, stripeCachePlan } from '../../../../src/md/tuning/stripeCache';
import { syncControlPlan, syncControlUnavailable } from '../../../../src/md/tuning/syncControl';
import { loadCaptureFiles } from '../../helpers/realKernelCapture';
import { BAD_TEXT_VALUES } from '../../../shared/badValues';

function hostFrom(capture: string, memAvailableKiB = 1024 * 1024, changed: Record<string, string> = {}): HostModel {
    const files = loadCaptureFiles(capture);
    files.set('/proc/meminfo', `MemTotal:        2048000 kB\nMemAvailable:    ${memAvailableKiB} kB\n`);
    for (const [path, content] of Object.entries(changed)) files.set(path, `${content}\n`);
    return buildModel({ files, pageSize: 4096, missingRoots: [], complete: true }, 0);
}

describe('global speed limits', () => {
    const host = hostFrom('raid5-recovery'); // min 1000, max 1000

    test('a valid change writes min and max, in an order the kernel accepts', () => {
        const result = globalLimitsPlan(host, { min: '50', max: '200' });
        // Round MiB/s are round KiB/s. min 51200 > current max 1000: the maximum goes first.
        expect(describePlan(result.plan!)).toBe(
            'echo 204800 > /proc/sys/dev/raid/speed_limit_max\necho 51200 > /proc/sys/dev/raid/speed_limit_min');
        expect(result.plan!.steps.map(s => s.kind === 'write-attribute' && s.from)).toEqual(['1000', '1000']);
    });

    test('a field left as the dialog showed it (null) is never written, whatever its display rounding', () => {
        // 1000 KiB/s shows as 0.98 MiB/s, which would write 1004: left alone, nothing is written.
        expect(globalLimitsPlan(host, { min: null, max: null }).plan!.steps).toEqual([]);
        expect(describePlan(globalLimitsPlan(host, { min: null, max: '2' }).plan!)).toBe('echo 2048 > /proc/sys/dev/raid/speed_limit_max');
        // A typed value that means what is there already writes nothing either.
        expect(globalLimitsPlan(host, { min: '0.976', max: null }).errors).toBeDefined(); // at most 2 decimals
        expect(globalLimitsPlan({ ...host, global: { ...host.global, speedMinKiBs: 512 } }, { min: '0.5', max: null }).plan!.steps).toEqual([]);
        // The untouched maximum (1000 KiB/s) still bounds a typed minimum.
        expect(globalLimitsPlan(host, { min: '2', max: null }).errors?.min?.message).toBe('The minimum must not be above the maximum.');
    });

    test('minimum above maximum is refused, though the kernel would take it', () => {
        expect(globalLimitsPlan(host, { min: '300', max: '200' }).errors?.min?.message).toBe('The minimum must not be above the maximum.');
    });

    test.each(BAD_TEXT_VALUES)('refuses %j and plans nothing', bad => {
        const result = globalLimitsPlan(host, { min: bad, max: '200' });
        expect(result.plan).toBeUndefined();
        expect(result.errors?.min).toBeDefined();
    });
});

describe('array speed limits', () => {
    const host = hostFrom('raid5-recovery');
    const md0 = host.arrays[0];

    test('a local value or back to the system limit', () => {
        // md0 follows the system maximum already: "system" there writes nothing.
        expect(describePlan(arrayLimitsPlan(host, md0, { min: { own: '0.5' }, max: 'system' }).plan!)).toBe(
            'echo 512 > /sys/block/md0/md/sync_speed_min');
        const ownMax = { ...md0, speedMax: { kiBs: 5000, source: 'local' as const } };
        expect(describePlan(arrayLimitsPlan(host, ownMax, { min: { own: '0.5' }, max: 'system' }).plan!)).toBe(
            'echo 512 > /sys/block/md0/md/sync_speed_min\necho system > /sys/block/md0/md/sync_speed_max');
        // 10 MiB/s against the system maximum it would follow (1000 KiB/s): refused.
        expect(arrayLimitsPlan(host, md0, { min: { own: '10' }, max: 'system' }).errors?.min).toBeDefined();
    });

    test('an own limit typed as "system" is refused as a number, not taken for the other choice', () => {
        const result = arrayLimitsPlan(host, md0, { min: { own: 'system' }, max: 'system' });
        expect(result.plan).toBeUndefined();
        expect(result.errors?.min).toBeDefined();
    });

    test('a field left as the dialog showed it (null) is not written, yet bounds the other', () => {
        const own = { ...md0, speedMin: { kiBs: 1000, source: 'local' as const }, speedMax: { kiBs: 4000, source: 'local' as const } };
        expect(arrayLimitsPlan(host, own, { min: null, max: null }).plan!.steps).toEqual([]);
        expect(describePlan(arrayLimitsPlan(host, own, { min: { own: '2' }, max: null }).plan!)).toBe('echo 2048 > /sys/block/md0/md/sync_speed_min');
        // 5 MiB/s is above the untouched own maximum of 4000 KiB/s.
        expect(arrayLimitsPlan(host, own, { min: { own: '5' }, max: null }).errors?.min?.message).toBe('The minimum must not be above the maximum.');
    });

    test('an own limit chosen and left as filled writes the exact value it was filled with, not its rounding', () => {
        // md0 follows the system limits (1000 KiB/s each). "Own limit for this array" fills the
        // field with 0.98 (MiB/s), which typed would be 1004.
        expect(describePlan(arrayLimitsPlan(host, md0, { min: { own: '0.98', filledFrom: 1000 }, max: null }).plan!))
            .toBe('echo 1000 > /sys/block/md0/md/sync_speed_min');
        // A suggested 29 MiB/s, and the same field once edited.
        expect(describePlan(arrayLimitsPlan(host, md0, { min: null, max: { own: '29', filledFrom: 29696 } }).plan!))
            .toBe('echo 29696 > /sys/block/md0/md/sync_speed_max');
        expect(describePlan(arrayLimitsPlan(host, md0, { min: null, max: { own: '0.99', filledFrom: 1000 } }).plan!))
            .toBe('echo 1014 > /sys/block/md0/md/sync_speed_max');
        // An own limit already there, left as filled: nothing to write.
        const own = { ...md0, speedMin: { kiBs: 1000, source: 'local' as const } };
        expect(arrayLimitsPlan(host, own, { min: { own: '0.98', filledFrom: 1000 }, max: null }).plan!.steps).toEqual([]);
    });

    test('undo restores "system" where the array followed the system limit', () => {
        const step = arrayLimitsPlan(host, md0, { min: { own: '1' }, max: { own: '2' } }).plan!.steps[0];
        expect(step.kind === 'write-attribute' && step.from).toBe('system');
    });
});

describe('stripe cache', () => {
    test('cost is page size x disks x entries, against available memory', () => {
        const host = hostFrom('raid5-recovery');
        const cost = stripeCacheCost(host, host.arrays[0], 4096)!;
        expect(cost.bytes).toBe(4096 * 3 * 4096);
        expect(cost.extraBytes).toBe(4096 * 3 * (4096 - 256));
    });

    test('64 KiB pages: a page per member without md/stripe_size, shared pages with 4 KiB stripes', () => {
        const onBigPages = (without: string[]) => {
            const files = loadCaptureFiles('raid5-recovery');
            for (const path of without) files.delete(path);
            const host = buildModel({ files, pageSize: 65536, missingRoots: [], complete: true }, 0);
            return stripeCacheCost(host, host.arrays[0], 4096)!.bytes;
        };
        expect(onBigPages(['/sys/block/md0/md/stripe_size'])).toBe(65536 * 3 * 4096);
        // stripe_size 4096 (the capture's): the 3 members' 4 KiB buffers fit in one 64 KiB page.
        expect(onBigPages([])).toBe(65536 * 1 * 4096);
    });

    test('refuses more than a safe share of available memory', () => {
        const host = hostFrom('raid5-recovery', 200 * 1024); // 200 MiB available
        expect(stripeCachePlan(host, host.arrays[0], '32768').errors?.entries?.message).toMatch(/available memory/);
        const ok = stripeCachePlan(host, host.arrays[0], '1024');
        expect(describePlan(ok.plan!)).toBe('echo 1024 > /sys/block/md0/md/stripe_cache_size');
    });

    test('only parity levels have one', () => {
        const host = hostFrom('raid1-with-spare');
        expect(stripeCachePlan(host, host.arrays[0], '1024').errors?.entries?.message).toMatch(/RAID 4, 5 and 6/);
    });

    test.each(['16', '32769', '0', '-1', '4096.5', '1; reboot'])('refuses %j', bad => {
        const host = hostFrom('raid5-recovery');
        expect(stripeCachePlan(host, host.arrays[0], bad).plan).toBeUndefined();
    });

    // The capture's RAID5 (512 KiB chunks) as if it were growing from 3 to 4 disks.
    const reshaping = (changed: Record<string, string> = {}) => hostFrom('raid5-recovery', 1024 * 1024,
        { '/sys/block/md0/md/sync_action': 'reshape', '/sys/block/md0/md/raid_disks': '4 (3)', ...changed });

    test('a reshape needs four chunks of 4 KiB stripes: below that is refused with the reason', () => {
        const host = reshaping();
        expect(reshapeStripeCacheMin(host.arrays[0])).toBe(512);
        const refused = stripeCachePlan(host, host.arrays[0], '511');
        expect(refused.plan).toBeUndefined();
        expect(refused.errors?.entries).toEqual({
            message: 'The running reshape needs at least $0 entries: four stripes per $2 of its $1 chunk. With fewer it stalls.',
            args: [512, '512 KiB', '4 KiB'],
        });
        expect(describePlan(stripeCachePlan(host, host.arrays[0], '512').plan!)).toBe('echo 512 > /sys/block/md0/md/stripe_cache_size');
        // Without a reshape only the kernel's own range counts.
        expect(reshapeStripeCacheMin(hostFrom('raid5-recovery').arrays[0])).toBeNull();
        expect(stripeCachePlan(hostFrom('raid5-recovery'), hostFrom('raid5-recovery').arrays[0], '17').plan).toBeDefined();
    });

    test('a reshape that changes the chunk needs the larger one ("new (old)" in chunk_size)', () => {
        const host = reshaping({ '/sys/block/md0/md/chunk_size': '1048576 (524288)' });
        expect(host.arrays[0]).toMatchObject({ chunkKiB: 1024, previousChunkKiB: 512 });
        expect(reshapeStripeCacheMin(host.arrays[0])).toBe(1024);
        const shrinking = reshaping({ '/sys/block/md0/md/chunk_size': '65536 (524288)' });
        expect(reshapeStripeCacheMin(shrinking.arrays[0])).toBe(512);
    });

    test('md/stripe_size sets the stripe unit: 64 KiB stripes (a 64 KiB-page kernel set so) need 16 times fewer', () => {
        const host = reshaping({ '/sys/block/md0/md/stripe_size': '65536' });
        expect(host.arrays[0].stripeSizeBytes).toBe(65536);
        expect(reshapeStripeCacheMin(host.arrays[0])).toBe(32);
        expect(stripeCachePlan(host, host.arrays[0], '31').errors?.entries?.args).toEqual([32, '512 KiB', '64 KiB']);
    });
});

describe('sync control', () => {
    test('a degraded array gets no check: there is nothing to compare against', () => {
        const md0 = hostFrom('raid5-member-failed').arrays[0];
        expect(syncControlUnavailable(md0, 'check')?.message).toMatch(/degraded/);
    });

    test('a clean idle array can be checked; a running recovery can be paused and restarted', () => {
        expect(describePlan(syncControlPlan(hostFrom('raid5-assume-clean-idle').arrays[0], 'check').plan!))
            .toBe('echo check > /sys/block/md0/md/sync_action');
        const recovering = hostFrom('raid5-recovery').arrays[0];
        expect(syncControlUnavailable(recovering, 'pause')).toBeNull();
        expect(syncControlUnavailable(recovering, 'restart')).toBeNull();
        expect(syncControlUnavailable(recovering, 'resume')?.message).toBe('The sync is not paused.');
    });

    test('never plans a reshape', () => {
        const md0 = hostFrom('raid5-recovery').arrays[0];
        for (const control of ['pause', 'resume', 'restart', 'stop', 'check', 'repair'] as const) {
            const result = syncControlPlan(md0, control);
            if (result.plan) expect(describePlan(result.plan)).not.toMatch(/reshape/);
        }
    });
});

describe('read-back', () => {
    test.each([
        ['/sys/block/md0/md/sync_speed_max', '5000', '5000 (local)', true],
        ['/sys/block/md0/md/sync_speed_max', 'system', '200000 (system)', true],
        ['/sys/block/md0/md/stripe_cache_size', '32768', '16384', false],
        ['/sys/block/sda/device/queue_depth', '1024', '128', false],
        ['/sys/block/sda/queue/scheduler', 'mq-deadline', 'none [mq-deadline] ', true],
        ['/sys/block/md0/md/sync_action', 'idle', 'recover', true],
    ])('%s: wrote %j, read %j', (path, written, read, same) => {
        expect(readBackMatches(path, written, read)).toBe(same);
    });
});
