// SPDX-License-Identifier: LGPL-2.1-or-later
// sync_io_depth (kernels since 2025): read where the files exist (nothing of it elsewhere),
// validated to md.c's rules, planned with the speed limits, read back, undone, kept after reboot,
// and touched by the presets only as presets.ts says.

import { buildModel } from '../../../../src/md/model';
import type { HostModel } from '../../../../src/md/modelTypes';
import { describePlan, invertSteps } from '../../../../src/md/plan';
import { attributeValue, readBackMatches } from '../../../../src/md/readBack';
import { keepPlan, keptComparisons, liveArrayRule, liveSysctls } from '../../../../src/md/tuning/persist';
import { presetPlan } from '../../../../src/md/tuning/presets';
import { arrayLimitsPlan, globalLimitsPlan } from '../../../../src/md/tuning/speedLimits';
import { msg } from '../../../../src/md/message';
import { loadCaptureFiles } from '../../helpers/realKernelCapture';
import { BAD_TEXT_VALUES } from '../../../shared/badValues';
import { SYNC_IO_DEPTH_MAX } from '../../../../src/md/settings/registry';
import { parseUdevRules, renderUdevRules } from '../../../../src/md/tuning/keptFiles';

const DIRS = { sysctlDir: '/etc/sysctl.d', udevRulesDir: '/etc/udev/rules.d', modulesLoadDir: '/etc/modules-load.d' };

/** A real 6.1 capture (no sync_io_depth anywhere), optionally with a newer kernel's files added. */
function hostFrom(capture: string, added: Record<string, string> = {}): HostModel {
    const files = loadCaptureFiles(capture);
    files.set('/proc/meminfo', 'MemTotal:        2048000 kB\nMemAvailable:    1024000 kB\n');
    for (const [path, content] of Object.entries(added)) files.set(path, `${content}\n`);
    return buildModel({ files, pageSize: 4096, missingRoots: [], complete: true }, 0);
}

const NEWER = { '/proc/sys/dev/raid/sync_io_depth': '32', '/sys/block/md0/md/sync_io_depth': '32 (system)' };

describe('reading it', () => {
    test('a 6.1 kernel has none: null everywhere, never an error', () => {
        const host = hostFrom('raid5-recovery');
        expect(host.global.syncIoDepth).toBeNull();
        expect(host.arrays[0].syncIoDepth).toBeNull();
        expect(host.problems).toEqual([]);
    });

    test('a newer kernel: the sysctl and the array\'s "N (system)" / "N (local)"', () => {
        expect(hostFrom('raid5-recovery', NEWER).global.syncIoDepth).toBe(32);
        expect(hostFrom('raid5-recovery', NEWER).arrays[0].syncIoDepth).toEqual({ value: 32, source: 'system' });
        const local = hostFrom('raid5-recovery', { ...NEWER, '/sys/block/md0/md/sync_io_depth': '4 (local)' });
        expect(local.arrays[0].syncIoDepth).toEqual({ value: 4, source: 'local' });
    });
});

describe('the system depth', () => {
    const host = hostFrom('raid5-recovery', NEWER);

    test('a whole number is written to the sysctl, and undone', () => {
        const plan = globalLimitsPlan(host, { min: null, max: null, depth: '64' }).plan!;
        expect(describePlan(plan)).toBe('echo 64 > /proc/sys/dev/raid/sync_io_depth');
        expect(describePlan(invertSteps(msg('undo'), plan.steps))).toBe('echo 32 > /proc/sys/dev/raid/sync_io_depth');
        expect(readBackMatches('/proc/sys/dev/raid/sync_io_depth', '64', '64\n')).toBe(true);
    });

    test('left as shown (null) or as it is, nothing is written', () => {
        expect(globalLimitsPlan(host, { min: null, max: null, depth: null }).plan!.steps).toEqual([]);
        expect(globalLimitsPlan(host, { min: null, max: null, depth: '32' }).plan!.steps).toEqual([]);
    });

    // 0 and negatives: the kernel's proc_dointvec takes them, and md then waits at every look.
    test.each(['0', '-1', '16777216', '1.5', '32 64', ...BAD_TEXT_VALUES])('refuses %j with a message and plans nothing', bad => {
        const result = globalLimitsPlan(host, { min: null, max: null, depth: bad });
        expect(result.plan).toBeUndefined();
        expect(['Use a whole number from $0 to $1.', 'Enter a value.']).toContain(result.errors?.depth?.message);
    });

    test('the largest accepted is 2^24-1: depth x 128 sectors stays an int', () => {
        expect(SYNC_IO_DEPTH_MAX * 128).toBeLessThanOrEqual(2 ** 31 - 1);
        const depth = { min: null, max: null, depth: String(SYNC_IO_DEPTH_MAX) };
        expect(globalLimitsPlan(host, depth).plan!.steps).toHaveLength(1);
    });

    test('a kernel without it: an error for the field, never a write', () => {
        const old = hostFrom('raid5-recovery');
        expect(globalLimitsPlan(old, { min: null, max: null, depth: '64' }).errors?.depth?.message).toBe('This kernel has no sync I/O depth.');
    });

    test('with the speed limits: the speeds in their order, then the depth', () => {
        const plan = globalLimitsPlan(host, { min: '50', max: '200', depth: '8' }).plan!;
        expect(describePlan(plan)).toBe('echo 204800 > /proc/sys/dev/raid/speed_limit_max\n' +
            'echo 51200 > /proc/sys/dev/raid/speed_limit_min\necho 8 > /proc/sys/dev/raid/sync_io_depth');
    });
});

describe('an array\'s depth', () => {
    const host = hostFrom('raid5-recovery', NEWER);
    const md0 = host.arrays[0];
    const local = { ...md0, syncIoDepth: { value: 4, source: 'local' as const } };

    test('its own value, then back to "system"; undo puts back what it was', () => {
        const own = arrayLimitsPlan(host, md0, { min: null, max: null, depth: { own: '4' } }).plan!;
        expect(describePlan(own)).toBe('echo 4 > /sys/block/md0/md/sync_io_depth');
        expect(describePlan(invertSteps(msg('undo'), own.steps))).toBe('echo system > /sys/block/md0/md/sync_io_depth');
        const back = arrayLimitsPlan(host, local, { min: null, max: null, depth: 'system' }).plan!;
        expect(describePlan(back)).toBe('echo system > /sys/block/md0/md/sync_io_depth');
        expect(describePlan(invertSteps(msg('undo'), back.steps))).toBe('echo 4 > /sys/block/md0/md/sync_io_depth');
    });

    test('read back in the kernel\'s form', () => {
        expect(readBackMatches('/sys/block/md0/md/sync_io_depth', '4', '4 (local)\n')).toBe(true);
        expect(readBackMatches('/sys/block/md0/md/sync_io_depth', 'system', '32 (system)\n')).toBe(true);
        expect(readBackMatches('/sys/block/md0/md/sync_io_depth', '4', '32 (system)\n')).toBe(false);
        expect(attributeValue('/sys/block/md0/md/sync_io_depth', '-1294967296 (local)')).toBe('-1294967296');
    });

    test.each(['0', '-4', 'system', '16777216', ...BAD_TEXT_VALUES])('refuses own %j with a message', bad => {
        const result = arrayLimitsPlan(host, md0, { min: null, max: null, depth: { own: bad } });
        expect(result.plan).toBeUndefined();
        expect(result.errors?.depth).toBeDefined();
    });

    test('an array without the file: an error, never a write', () => {
        const old = hostFrom('raid5-recovery');
        expect(arrayLimitsPlan(old, old.arrays[0], { min: null, max: null, depth: 'system' }).errors?.depth?.message)
            .toBe('This kernel has no sync I/O depth.');
    });
});

describe('keep after reboot', () => {
    test('dev.raid.sync_io_depth is kept when it differs from the kernel\'s 32, on its own; absent kernels leave it out', () => {
        // The capture's speed limits (1000, 1000) differ from the defaults: both are kept.
        const newer = hostFrom('raid5-recovery', { ...NEWER, '/proc/sys/dev/raid/sync_io_depth': '64' });
        expect(liveSysctls(newer)).toEqual(new Map([
            ['dev.raid.speed_limit_min', '1000'], ['dev.raid.speed_limit_max', '1000'], ['dev.raid.sync_io_depth', '64'],
        ]));
        expect([...liveSysctls(hostFrom('raid5-recovery', NEWER))!.keys()]).toEqual(['dev.raid.speed_limit_min', 'dev.raid.speed_limit_max']);
        expect([...liveSysctls(hostFrom('raid5-recovery'))!.keys()]).toEqual(['dev.raid.speed_limit_min', 'dev.raid.speed_limit_max']);
        const defaults = hostFrom('raid5-recovery', {
            ...NEWER, '/proc/sys/dev/raid/sync_io_depth': '8', '/proc/sys/dev/raid/speed_limit_max': '200000',
        });
        expect(liveSysctls(defaults)).toEqual(new Map([['dev.raid.sync_io_depth', '8']]));
    });

    test('an array\'s own depth goes into its udev rule, round-trips, and compares like the others', () => {
        const host = hostFrom('raid5-recovery', { ...NEWER, '/sys/block/md0/md/sync_io_depth': '4 (local)' });
        const rule = liveArrayRule(host, host.arrays[0])!;
        expect(rule.attributes).toContainEqual(['md/sync_io_depth', '4']);
        const text = renderUdevRules([rule]);
        expect(text).toContain('TEST=="md/sync_io_depth", ATTR{md/sync_io_depth}="4"');
        expect(parseUdevRules(text)).toEqual([rule]);
        const plan = keepPlan(host, DIRS).plan!;
        expect(describePlan(plan)).toContain('ATTR{md/sync_io_depth}="4"');
        const notKept = keptComparisons(host).find(c => c.setting.message === 'sync I/O depth of $0')!;
        expect(notKept).toMatchObject({ live: '4', atBoot: 'system', state: 'not-kept' });
        const kept = { ...host, persisted: { ...host.persisted, udev: { text, rules: parseUdevRules(text) } } };
        expect(keptComparisons(kept).find(c => c.setting.message === 'sync I/O depth of $0')).toMatchObject({ state: 'kept' });
    });
});

describe('presets', () => {
    const host = hostFrom('raid5-recovery', { '/proc/sys/dev/raid/sync_io_depth': '8', '/sys/block/md0/md/sync_io_depth': '4 (local)' });

    test('Low impact puts the kernel default back, every array to "system"', () => {
        const text = describePlan(presetPlan(host, 'low-impact').plan!);
        expect(text).toContain('echo 32 > /proc/sys/dev/raid/sync_io_depth');
        expect(text).toContain('echo system > /sys/block/md0/md/sync_io_depth');
    });

    test('Balanced and Fast rebuild leave it alone (md applies it where they do not act)', () => {
        for (const name of ['balanced', 'fast-rebuild'] as const) expect(describePlan(presetPlan(host, name).plan!)).not.toContain('sync_io_depth');
    });

    test('on a kernel without it, no preset mentions it', () => {
        expect(describePlan(presetPlan(hostFrom('raid5-recovery'), 'low-impact').plan!)).not.toContain('sync_io_depth');
    });
});
