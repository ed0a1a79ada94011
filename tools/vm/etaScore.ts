// SPDX-License-Identifier: LGPL-2.1-or-later
// How far an estimate of the time left was from the truth, over a rebuild's checkpoints: shared by
// `make bench-eta` (the page's estimate and the kernel's finish=, measured) and its replay (the
// same samples through other windows, tools/vm/etaReplay.ts).
import type { EtaPoint } from './etaPlot';

/** The goal is judged from this much progress on (before, every estimator has little to go on). */
export const JUDGED_FROM_PERCENT = 20;

export interface Checkpoint extends EtaPoint {
    /** Seconds since the --add. */
    atS: number;
}

export interface Summary {
    /** Checkpoints from JUDGED_FROM_PERCENT on where the estimator had a figure. */
    points: number;
    meanErrorMin: number | null;
    worstErrorMin: number | null;
    /** |error| / real time left. */
    meanShare: number | null;
    worstShare: number | null;
}

export interface EtaRunResult {
    kernel: string;
    run: string;
    what: string;
    memberMiB: number;
    /** md's KiB to rebuild per device. */
    totalKiB: number;
    scale: number;
    totalS: number;
    checkpoints: Checkpoint[];
    raidtune: Summary;
    kernelFinish: Summary;
    /** Checkpoints from JUDGED_FROM_PERCENT on where raidtune showed no estimate. */
    raidtuneMissing: number;
    /** Runs with a change: the same from the first checkpoint after it (nothing could foresee it). */
    afterChange: { raidtune: Summary; kernelFinish: Summary } | null;
    /** Every refresh: seconds since the --add, KiB done per device, both estimates (replays of other estimators). */
    samples: { atS: number; doneKiB: number; raidtuneS: number | null; kernelS: number | null }[];
    /**
     * The host's 1-minute load average over the run's refreshes: the guests are emulated (TCG), so a
     * busy host slows them too. Not in the runs of 2026-11-26 10:05 (bench/eta.json).
     */
    hostLoad?: { mean: number; max: number };
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

export function summarise(points: Checkpoint[], key: 'raidtuneS' | 'kernelS', from = JUDGED_FROM_PERCENT): Summary {
    const judged = points.filter(p => p.percent >= from && p[key] !== null && p.trueS > 0);
    const errors = judged.map(p => Math.abs(p[key]! - p.trueS));
    const shares = judged.map((p, i) => errors[i] / p.trueS);
    const mean = (list: number[]) => (list.length ? list.reduce((a, b) => a + b, 0) / list.length : null);
    const worst = (list: number[]) => (list.length ? Math.max(...list) : null);
    const minutes = (s: number | null) => (s === null ? null : round(s / 60, 3));
    return {
        points: judged.length,
        meanErrorMin: minutes(mean(errors)), worstErrorMin: minutes(worst(errors)),
        meanShare: mean(shares) === null ? null : round(mean(shares)!, 3),
        worstShare: worst(shares) === null ? null : round(worst(shares)!, 3),
    };
}
