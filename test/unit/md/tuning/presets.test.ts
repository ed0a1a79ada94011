// SPDX-License-Identifier: LGPL-2.1-or-later
import { recordOriginals, restorePlan } from '../../../../src/md/journal';
import { buildModel } from '../../../../src/md/model';
import type { HostModel } from '../../../../src/md/modelTypes';
import { describePlan, invertSteps, type Plan, type WriteAttributeStep } from '../../../../src/md/plan';
import { ARRAY_SETTINGS, GLOBAL_SETTINGS } from '../../../../src/md/settings/registry';
import { PRESET_NAMES, PRESETS, presetPlan } from '../../../../src/md/tuning/presets';
import { loadCaptureFiles } from '../../helpers/realKernelCapture';

const MiB = 1024;

/** A real-kernel capture as a model, with the memory and changed files a test needs. */
function hostFrom(capture: string, {
    availableKiB = 4096 * MiB as number | null, pageSize = 4096 as number | null, files = {} as Record<string, string>,
    without = [] as string[],
} = {}): HostModel {
    const all = loadCaptureFiles(capture);
    for (const path of without) all.delete(path);
    if (availableKiB !== null) all.set('/proc/meminfo', `MemTotal:        8192000 kB\nMemAvailable:    ${availableKiB} kB\n`);
    for (const [path, content] of Object.entries(files)) all.set(path, `${content}\n`);
    return buildModel({ files: all, pageSize, missingRoots: [], complete: true }, 0);
}

function planOf(host: HostModel, name: Parameters<typeof presetPlan>[1]): { plan: Plan; warnings: string[] } {
    const result = presetPlan(host, name);
    if (!result.plan) throw new Error(`no plan: ${JSON.stringify(result.errors)}`);
    return { plan: result.plan, warnings: result.warnings.map(w => `${w.message} ${JSON.stringify(w.args)}`) };
}

/** raid5-recovery after someone tuned it: the host a preset usually meets. */
const TUNED = {
    '/proc/sys/dev/raid/speed_limit_min': '51200',
    '/proc/sys/dev/raid/speed_limit_max': '2048000',
    '/sys/block/md0/md/sync_speed_max': '5000 (local)',
    '/sys/block/md0/md/stripe_cache_size': '4096',
};

describe('the presets', () => {
    test('are ordered from gentle to fast and never ask for a minimum above the maximum', () => {
        expect(PRESET_NAMES).toEqual(['low-impact', 'balanced', 'fast-rebuild']);
        const mins = PRESET_NAMES.map(n => PRESETS[n].speedMinKiBs);
        expect(mins).toEqual([...mins].sort((a, b) => a - b));
        for (const n of PRESET_NAMES) expect(PRESETS[n].speedMinKiBs).toBeLessThanOrEqual(PRESETS[n].speedMaxKiBs);
    });

    test('"Low impact" is the kernel default', () => {
        expect(PRESETS['low-impact']).toMatchObject({ speedMinKiBs: 1000, speedMaxKiBs: 200000, stripeCacheEntries: 256 });
    });

    test('the others are round figures in the MiB/s the page shows: 10, 50 and 2000 MiB/s', () => {
        expect(PRESETS.balanced).toMatchObject({ speedMinKiBs: 10 * MiB, speedMaxKiBs: 200000 });
        expect(PRESETS['fast-rebuild']).toMatchObject({ speedMinKiBs: 50 * MiB, speedMaxKiBs: 2000 * MiB });
    });
});

describe('the settings registry', () => {
    test('says which settings the presets write, and they write no other', () => {
        const host = hostFrom('raid5-recovery', { files: { ...TUNED, '/sys/block/md0/md/sync_speed_min': '3000 (local)' } });
        const written = PRESET_NAMES.flatMap(name =>
            planOf(host, name).plan.steps.map(s => (s as WriteAttributeStep).path));
        const settings = [...Object.values(GLOBAL_SETTINGS).map(s => ({ path: s.path, preset: s.preset })),
            ...Object.values(ARRAY_SETTINGS).map(s => ({ path: `/sys/block/md0/${s.attribute}`, preset: s.preset }))];
        expect(new Set(written.map(path => settings.find(s => s.path === path)?.preset))).toEqual(new Set([true]));
        expect(settings.filter(s => !s.preset).map(s => s.path)).toEqual(['/sys/block/md0/md/group_thread_cnt', '/sys/block/md0/queue/read_ahead_kb']);
    });
});

describe('Fast rebuild', () => {
    test('on a RAID5 recovery held at 1000 KiB/s: maximum first (the minimum would exceed it), then the cache', () => {
        const { plan, warnings } = planOf(hostFrom('raid5-recovery'), 'fast-rebuild');
        expect(describePlan(plan)).toBe([
            'echo 2048000 > /proc/sys/dev/raid/speed_limit_max',
            'echo 51200 > /proc/sys/dev/raid/speed_limit_min',
            'echo 8192 > /sys/block/md0/md/stripe_cache_size',
        ].join('\n'));
        // The array followed the system limits already: no write for them.
        expect(plan.steps.map(s => (s as WriteAttributeStep).from)).toEqual(['1000', '1000', '256']);
        expect(warnings).toEqual([]);
        expect(plan.title.message).toBe('Apply the preset “Fast rebuild”');
    });

    test('puts an array with its own limit back on the system limits', () => {
        const { plan } = planOf(hostFrom('raid5-recovery', { files: { '/sys/block/md0/md/sync_speed_min': '3000 (local)' } }), 'fast-rebuild');
        expect(describePlan(plan)).toContain('echo system > /sys/block/md0/md/sync_speed_min');
        expect(plan.steps.find(s => s.kind === 'write-attribute' && s.path.endsWith('sync_speed_min'))).toMatchObject({ from: '3000' });
    });

    test('on a RAID6 resync sizes the cache of its 4 disks', () => {
        const { plan } = planOf(hostFrom('raid6-resync'), 'fast-rebuild');
        expect(describePlan(plan)).toContain('echo 8192 > /sys/block/md0/md/stripe_cache_size');
    });

    test('leaves stripe caches out on mirrors', () => {
        const { plan } = planOf(hostFrom('raid1-with-spare'), 'fast-rebuild');
        expect(plan.steps.map(s => (s as WriteAttributeStep).path)).toEqual([
            '/proc/sys/dev/raid/speed_limit_min', '/proc/sys/dev/raid/speed_limit_max',
        ]);
    });
});

describe('the memory budget of the stripe caches', () => {
    // raid5-recovery: 3 disks, 4 KiB pages, cache at 256. 8192 entries take 93 MiB more.
    const entriesWith = (options: Parameters<typeof hostFrom>[1]) => {
        const result = planOf(hostFrom('raid5-recovery', options), 'fast-rebuild');
        const step = result.plan.steps.find(s => s.kind === 'write-attribute' && s.path.endsWith('stripe_cache_size')) as WriteAttributeStep | undefined;
        return { entries: step?.to ?? null, warnings: result.warnings };
    };

    test('is 10% of the available memory: 8192 entries fit in 1 GiB', () => {
        expect(entriesWith({ availableKiB: 1024 * MiB })).toEqual({ entries: '8192', warnings: [] });
    });

    test('halves the size until it fits, and says so', () => {
        const { entries, warnings } = entriesWith({ availableKiB: 512 * MiB });
        expect(entries).toBe('4096');
        expect(warnings).toEqual([
            'Stripe caches of $0 entries instead of $1: $1 would take $2 more memory, over $3% of the available $4. ' +
            '[4096,8192,"93.0 MiB",10,"512 MiB"]',
        ]);
        expect(entriesWith({ availableKiB: 100 * MiB }).entries).toBe('1024');
    });

    test('refuses any growth when even 512 entries do not fit: the cache stays at the default', () => {
        const { entries, warnings } = entriesWith({ availableKiB: 20 * MiB });
        expect(entries).toBeNull(); // 256 -> 256 is no write at all
        expect(warnings[0]).toMatch(/^Stripe caches of \$0 entries instead of \$1.* \[256,8192,/);
    });

    test('counts the page size: 64 KiB pages take 16 times the memory where the stripe is a page (no md/stripe_size, before 5.12)', () => {
        expect(entriesWith({ availableKiB: 1024 * MiB, pageSize: 65536, without: ['/sys/block/md0/md/stripe_size'] }).entries).toBe('512');
    });

    test('md/stripe_size 4096 on 64 KiB pages: the three members share one page per stripe', () => {
        // 8192 entries x 64 KiB = 512 MiB, over 10% of 1 GiB; 1024 x 64 KiB = 64 MiB fits.
        expect(entriesWith({ availableKiB: 1024 * MiB, pageSize: 65536 }).entries).toBe('1024');
    });

    test('grows nothing when the memory or the page size is unknown', () => {
        for (const options of [{ availableKiB: null }, { pageSize: null }]) {
            const { entries, warnings } = entriesWith(options);
            expect(entries).toBeNull();
            expect(warnings).toEqual([expect.stringMatching(/^The stripe caches stay as they are/)]);
        }
    });

    test('needs no memory to shrink: Low impact works without meminfo', () => {
        const { plan, warnings } = planOf(hostFrom('raid5-recovery', { availableKiB: null, files: TUNED }), 'low-impact');
        expect(describePlan(plan)).toContain('echo 256 > /sys/block/md0/md/stripe_cache_size');
        expect(warnings).toEqual([]);
    });
});

describe('Low impact and Balanced', () => {
    test('Low impact takes a tuned host back to the kernel defaults, minimum first (it is lowered)', () => {
        const { plan } = planOf(hostFrom('raid5-recovery', { files: TUNED }), 'low-impact');
        expect(describePlan(plan)).toBe([
            'echo 1000 > /proc/sys/dev/raid/speed_limit_min',
            'echo 200000 > /proc/sys/dev/raid/speed_limit_max',
            'echo system > /sys/block/md0/md/sync_speed_max',
            'echo 256 > /sys/block/md0/md/stripe_cache_size',
        ].join('\n'));
        expect(plan.steps.map(s => (s as WriteAttributeStep).from)).toEqual(['51200', '2048000', '5000', '4096']);
    });

    test('Balanced', () => {
        const { plan } = planOf(hostFrom('raid5-recovery', { files: TUNED }), 'balanced');
        expect(describePlan(plan)).toBe([
            'echo 10240 > /proc/sys/dev/raid/speed_limit_min',
            'echo 200000 > /proc/sys/dev/raid/speed_limit_max',
            'echo system > /sys/block/md0/md/sync_speed_max',
        ].join('\n')); // the cache is at 4096 already
    });

    test('Low impact keeps the stripe cache a running reshape needs (512 entries for 512 KiB chunks), and says so', () => {
        const host = hostFrom('raid5-recovery', { files: { ...TUNED, '/sys/block/md0/md/sync_action': 'reshape', '/sys/block/md0/md/raid_disks': '4 (3)' } });
        const { plan, warnings } = planOf(host, 'low-impact');
        expect(describePlan(plan)).toMatch(/\necho 512 > \/sys\/block\/md0\/md\/stripe_cache_size$/);
        expect(warnings).toEqual(['$0 gets $1 stripe cache entries: its running reshape needs at least that many. ["md0",512]']);
    });

    test('a preset already in place writes nothing', () => {
        const defaults = hostFrom('raid5-recovery', { files: { '/proc/sys/dev/raid/speed_limit_max': '200000' } });
        expect(planOf(defaults, 'low-impact').plan.steps).toEqual([]);
    });
});

describe('undo and restore', () => {
    test('every step knows the value it replaces: the inverse plan writes the originals back', () => {
        const host = hostFrom('raid5-recovery', { files: TUNED });
        const { plan } = planOf(host, 'fast-rebuild');
        expect(describePlan(invertSteps(plan.title, plan.steps))).toBe([
            'echo 4096 > /sys/block/md0/md/stripe_cache_size',
            'echo 5000 > /sys/block/md0/md/sync_speed_max',
        ].join('\n'));
        const low = planOf(host, 'low-impact').plan;
        expect(describePlan(invertSteps(low.title, low.steps))).toBe([
            'echo 4096 > /sys/block/md0/md/stripe_cache_size',
            'echo 5000 > /sys/block/md0/md/sync_speed_max',
            'echo 2048000 > /proc/sys/dev/raid/speed_limit_max',
            'echo 51200 > /proc/sys/dev/raid/speed_limit_min',
        ].join('\n'));
    });

    test('the journal records every original, so "Restore previous settings" brings them back', () => {
        const { plan } = planOf(hostFrom('raid5-recovery'), 'fast-rebuild');
        const journal = recordOriginals(null, plan.steps, '2025-01-01T00:00:00Z');
        // Newest record first, like an undo: the cache, then the limits in reverse of how they rose.
        expect(describePlan(restorePlan(journal))).toBe([
            'echo 256 > /sys/block/md0/md/stripe_cache_size',
            'echo 1000 > /proc/sys/dev/raid/speed_limit_min',
            'echo 1000 > /proc/sys/dev/raid/speed_limit_max',
        ].join('\n'));
    });
});

test('refuses when the system limits are unknown (md driver not loaded)', () => {
    const host = hostFrom('raid5-recovery');
    const blind = { ...host, global: { speedMinKiBs: null, speedMaxKiBs: null, syncIoDepth: null } };
    expect(presetPlan(blind, 'balanced').errors?.preset?.message).toMatch(/md driver loaded/);
});
