// SPDX-License-Identifier: LGPL-2.1-or-later
// raidtune's own finish estimate. The kernel's finish= uses a ~30 s window and swings with every
// burst of other I/O; an admin planning a maintenance window needs a steadier number, so we
// average the progress actually made over the samples taken in a longer window.

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

export const ETA_WINDOW_MS = 5 * 60 * 1000;
/** Below this the estimate is noise: progress arrives in steps, not smoothly. */
export const ETA_MIN_WINDOW_S = 10;
const MAX_SAMPLES = 300;

/**
 * Add a sample to a history: keeps samples of the same running sync only (progress that goes
 * backwards means the sync restarted) and within the window.
 */
export function addSample(history: readonly ProgressSample[], sample: ProgressSample): ProgressSample[] {
    const last = history[history.length - 1];
    if (last && (sample.doneKiB < last.doneKiB || sample.at <= last.at)) {
        return sample.doneKiB < last.doneKiB ? [sample] : [...history];
    }
    const kept = history.filter(s => sample.at - s.at <= ETA_WINDOW_MS);
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
