// SPDX-License-Identifier: LGPL-2.1-or-later
// raidtune's own diagnosis and what-if predictions for `make bench-rebuild`, on the scaled guest.
// Pure: models in, findings and predicted speeds out.
//
// The guest's figures are the real ones times the disk model's scale (diskModels.ts). The product
// compares what it measures with fixed real-world figures (the presets' limits, the kernel's
// defaults), so the diagnosis runs on the guest's samples scaled back up (sizes / scale, times as
// they were): it then sees the real disk the model stands for, proposes a fix in real units, and
// the benchmark writes that fix, and reads every prediction, scaled down again.
import { effectiveLimits, type ArrayModel, type HostModel, type IoSample } from '../../src/md/modelTypes';
import { diagnose, fixChange, membersAreHardDisks, type Diagnosis, type Finding, type FixIntent } from '../../src/md/diagnosis/findings';
import { whatIfPredictor, type WhatIfChange, type WhatIfRow } from '../../src/md/diagnosis/whatIf';
import { PRESETS, type PresetName } from '../../src/md/tuning/presets';
import { KERNEL_DEFAULT_SPEED_MAX, KERNEL_DEFAULT_SPEED_MIN, STRIPE_CACHE_DEFAULT } from '../../src/md/settings/registry';

const up = (kiBs: number | null | undefined, scale: number) =>
    (kiBs === null || kiBs === undefined ? null : kiBs / scale);

function descaledSample(s: IoSample, scale: number): IoSample {
    return {
        ...s, doneKiB: s.doneKiB / scale, minKiBs: up(s.minKiBs, scale), maxKiBs: up(s.maxKiBs, scale),
        members: s.members.map(m => ({ ...m, sectors: m.sectors / scale })),
    };
}

/** The host and array as the real disks would show them: every size and speed / scale. */
export function descaled(host: HostModel, array: ArrayModel, scale: number): { host: HostModel; array: ArrayModel } {
    const limit = (l: ArrayModel['speedMin']) => (l ? { ...l, kiBs: l.kiBs / scale } : l);
    const sync = array.sync && {
        ...array.sync,
        doneKiB: up(array.sync.doneKiB, scale),
        totalKiB: up(array.sync.totalKiB, scale),
        ioSamples: array.sync.ioSamples.map(s => descaledSample(s, scale)),
    };
    const real: ArrayModel = { ...array, speedMin: limit(array.speedMin), speedMax: limit(array.speedMax), sync };
    return {
        array: real,
        host: {
            ...host,
            global: {
                ...host.global,
                speedMinKiBs: up(host.global.speedMinKiBs, scale),
                speedMaxKiBs: up(host.global.speedMaxKiBs, scale),
            },
            arrays: host.arrays.map(a => (a.name === array.name ? real : a)),
        },
    };
}

/** A setting a benchmark row runs under (besides the kernel defaults, which every row starts from). */
export type Setting =
    | { kind: 'defaults' }
    | { kind: 'preset'; name: PresetName }
    | { kind: 'stripe-cache'; entries: number }
    /** speed_limit_min, KiB/s of the real disk. */
    | { kind: 'minimum'; kiBs: number }
    | { kind: 'sync-io-depth'; depth: number }
    | { kind: 'fix'; fix: FixIntent | null; finding: Finding['kind'] | null };

export function settingLabel(setting: Setting): string {
    switch (setting.kind) {
    case 'defaults': return 'kernel defaults';
    case 'preset': return `preset ${setting.name}`;
    case 'stripe-cache': return `stripe_cache_size ${setting.entries}`;
    case 'minimum': return `speed_limit_min ${setting.kiBs}`;
    case 'sync-io-depth': return `sync_io_depth ${setting.depth}`;
    case 'fix': return setting.fix ? `diagnosis: ${setting.finding} -> ${fixText(setting.fix)}` : 'diagnosis: none';
    }
}

/** The fix in real units, as the page would offer it. */
function fixText(fix: FixIntent): string {
    switch (fix.kind) {
    case 'speed-limits': return [fix.minKiBs !== null ? `min ${fix.minKiBs}` : '', fix.maxKiBs !== null ? `max ${fix.maxKiBs}` : ''].filter(Boolean).join(' ');
    case 'lower-max': return `max ${fix.maxKiBs}`;
    case 'stripe-cache': return `stripe cache ${fix.entries}`;
    case 'resume': return 'resume';
    case 'release-sync-max': return 'sync_max max';
    }
}

/** The what-if changes a setting makes against the kernel defaults (real units); [] for none. */
export function settingChanges(setting: Setting, parity: boolean): WhatIfChange[] {
    switch (setting.kind) {
    case 'defaults': return [];
    case 'preset': {
        const p = PRESETS[setting.name];
        const changes: WhatIfChange[] = [];
        if (p.speedMinKiBs !== KERNEL_DEFAULT_SPEED_MIN) changes.push({ kind: 'min', kiBs: p.speedMinKiBs });
        if (p.speedMaxKiBs !== KERNEL_DEFAULT_SPEED_MAX) changes.push({ kind: 'max', kiBs: p.speedMaxKiBs });
        if (parity && p.stripeCacheEntries !== STRIPE_CACHE_DEFAULT) changes.push({ kind: 'stripe-cache', entries: p.stripeCacheEntries });
        return changes;
    }
    case 'stripe-cache': return [{ kind: 'stripe-cache', entries: setting.entries }];
    case 'minimum': return [{ kind: 'min', kiBs: setting.kiBs }];
    // raidtune predicts nothing for a depth (whatIf.ts): no row, no change.
    case 'sync-io-depth': return [];
    case 'fix': {
        const change = setting.fix && fixChange(setting.fix);
        return change ? [change] : [];
    }
    }
}

export interface Prediction {
    /** Null where the page says faster without an amount (`likelyFaster`). */
    kiBs: number | null;
    /**
     * The page says "faster, if the member disks keep up": no member was busy enough to measure what
     * it can take (whatIf.ts 'unchecked'), so the figure is the limit's, an upper bound.
     */
    upperBound: boolean;
    /** The page says faster by an amount it cannot measure (whatIf.ts 'likely-faster'). */
    likelyFaster: boolean;
}

export interface Verdict {
    diagnosis: Diagnosis;
    /** Predicted rate per member for a setting, KiB/s scaled (the guest's units); null: no prediction. */
    predict(setting: Setting): Prediction | null;
    /** The fix the diagnosis proposes first (the finding ranked first that has one). */
    fix: Setting & { kind: 'fix' };
}

/**
 * The diagnosis of `array` on `host` (samples gathered like the page, scaled figures) and its
 * what-if predictor for the settings. A setting of several changes (a preset) is predicted as the
 * fastest of its changes' rows: the one that lifts whatever holds the sync back.
 */
export function verdict(host: HostModel, array: ArrayModel, scale: number): Verdict {
    const real = descaled(host, array, scale);
    const diagnosis = diagnose(real.array, real.host);
    const facts = diagnosis.window;
    const withFix = diagnosis.findings.find(f => 'fix' in f && f.fix);
    const fix: Setting & { kind: 'fix' } = withFix && 'fix' in withFix
        ? { kind: 'fix', fix: withFix.fix, finding: withFix.kind }
        : { kind: 'fix', fix: null, finding: null };
    const predict = (setting: Setting): Prediction | null => {
        if (!facts) return null;
        const { minKiBs, maxKiBs } = effectiveLimits(real.array, real.host);
        const predictor = whatIfPredictor(facts, minKiBs, maxKiBs, membersAreHardDisks(facts, real.host));
        const changes = settingChanges(setting, array.stripeCache !== null);
        if ((setting.kind === 'fix' || setting.kind === 'sync-io-depth') && !changes.length) return null;
        const rows = changes.map(c => predictor(c));
        // A row the model cannot predict (whatIf.ts 'unknown') leaves the setting without a prediction;
        // one faster by an amount it cannot measure makes the setting so.
        if (rows.some(r => r.outcome === 'unknown')) return null;
        if (rows.some(r => r.outcome === 'likely-faster')) return { kiBs: null, upperBound: false, likelyFaster: true };
        const fastest = rows.reduce<WhatIfRow | null>(
            (best, r) => (!best || r.rateKiBs! > best.rateKiBs! ? r : best), null);
        if (!fastest) return { kiBs: facts.rateKiBs * scale, upperBound: false, likelyFaster: false };
        return { kiBs: fastest.rateKiBs! * scale, upperBound: fastest.outcome === 'unchecked', likelyFaster: false };
    };
    return { diagnosis, predict, fix };
}
