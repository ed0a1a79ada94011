// SPDX-License-Identifier: LGPL-2.1-or-later
// raidtune's own finish estimate. The kernel's finish= uses a ~30 s window and swings with every
// burst of other I/O; an admin planning a maintenance window needs a steadier number, so we
// average the progress actually made over the samples taken in a longer window: 15 minutes, chosen
// on `make bench-eta`'s rebuilds of 12-20 minutes under loads that come and go for a minute or two
// (doc/benchmarks.md "ETA benchmark": replayed through 5, 10, 15 and 30 minutes, 15 gave the smallest error;
// 5 was half again as far off). A change of the limits starts the window over (Relearning below),
// so the long window does not hold the old limits' speed.

export interface ProgressSample {
    /** Milliseconds (monotonic) when the sample was taken. */
    at: number;
    /** Per-device KiB done. */
    doneKiB: number;
}

export interface SmoothedEta {
    seconds: number;
    rateKiBs: number;
    windowSeconds: number;
    samples: number;
}

export const ETA_WINDOW_MS = 15 * 60 * 1000;
/** Below this the estimate is noise: progress arrives in steps, not smoothly. */
export const ETA_MIN_WINDOW_S = 10;
/**
 * Samples older than the newest are kept this far apart at least: the estimate reads only the
 * window's first and last, so a window of 15 minutes needs no 450 samples of 2 s (the page stays
 * open for days, with up to hundreds of arrays).
 */
const SAMPLE_SPACING_MS = 5000;
const MAX_SAMPLES = 300;

/**
 * Add a sample to a history: keeps samples of the same running sync only (progress that goes
 * backwards means the sync restarted) and within the window (`windowMs`: the page's; `make
 * bench-eta`'s replay tries others).
 */
export function addSample(history: readonly ProgressSample[], sample: ProgressSample,
    windowMs = ETA_WINDOW_MS): ProgressSample[] {
    const last = history[history.length - 1];
    if (last && (sample.doneKiB < last.doneKiB || sample.at <= last.at)) {
        return sample.doneKiB < last.doneKiB ? [sample] : [...history];
    }
    const kept = history.filter(s => sample.at - s.at <= windowMs);
    const beforeLast = kept[kept.length - 2];
    if (beforeLast && kept[kept.length - 1].at - beforeLast.at < SAMPLE_SPACING_MS) kept.pop();
    kept.push(sample);
    return kept.length > MAX_SAMPLES ? kept.slice(kept.length - MAX_SAMPLES) : kept;
}

/** Average rate over the window; null until samples span ETA_MIN_WINDOW_S with progress. */
export function smoothedEta(history: readonly ProgressSample[], totalKiB: number): SmoothedEta | null {
    if (history.length < 2) return null;
    const first = history[0];
    const last = history[history.length - 1];
    const elapsed = (last.at - first.at) / 1000;
    const progressed = last.doneKiB - first.doneKiB;
    if (elapsed < ETA_MIN_WINDOW_S || progressed <= 0) return null;
    const rateKiBs = progressed / elapsed;
    return {
        seconds: Math.max(0, (totalKiB - last.doneKiB) / rateKiBs),
        rateKiBs,
        windowSeconds: elapsed,
        samples: history.length,
    };
}

/** The sync's effective minimum and maximum, KiB/s, when its samples were taken. */
export interface SyncLimits {
    minKiBs: number | null;
    maxKiBs: number | null;
}

/**
 * A change of the limits during a sync: the samples before it tell the speed under the old limits
 * only, so the estimate learns again from the change on (`make bench-eta`, run max-halved: the
 * average over the window still held the old speed for minutes). Until it has a window of its own
 * (src/md/modelSync.ts RELEARN_S), the what-if prediction of the new limits' speed stands in.
 */
export interface Relearning {
    /** When the change was seen (ms, the samples' clock). */
    since: number;
    /** The speed the what-if predicts under the new limits, KiB/s; null when it cannot tell. */
    predictedKiBs: number | null;
}

export function sameLimits(a: SyncLimits, b: SyncLimits): boolean {
    return a.minKiBs === b.minKiBs && a.maxKiBs === b.maxKiBs;
}

export type ShownEstimate =
    | { basis: 'measured'; seconds: number }
    | { basis: 'predicted'; seconds: number }
    | { basis: 'bitmap'; seconds: number };

/**
 * What the page shows as raidtune's estimate: while re-learning the what-if's, else the measured one.
 * On a lockless bitmap (`scope`), md's position skips what it does not sync, so the progress over
 * time says little: what is left to sync over md's speed of sync I/O (`speedKiBs`) says more.
 */
export function shownEstimate(sync: {
    eta: SmoothedEta | null; relearning: Relearning | null; doneKiB: number | null; totalKiB: number | null;
    speedKiBs: number | null; scope: { remainingKiB: number } | null;
}): ShownEstimate | null {
    const rate = sync.relearning?.predictedKiBs;
    const left = sync.scope ? sync.scope.remainingKiB
        : sync.doneKiB !== null && sync.totalKiB !== null ? Math.max(0, sync.totalKiB - sync.doneKiB) : null;
    if (rate && left !== null) return { basis: 'predicted', seconds: left / rate };
    if (sync.scope) return sync.speedKiBs ? { basis: 'bitmap', seconds: sync.scope.remainingKiB / sync.speedKiBs } : null;
    return sync.eta ? { basis: 'measured', seconds: sync.eta.seconds } : null;
}
