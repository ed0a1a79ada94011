// SPDX-License-Identifier: LGPL-2.1-or-later
// The samples behind the speed and progress chart: one per refresh while a sync runs, since the
// page opened, merged with the history the host-side waiter keeps while an automatic restore is
// armed (so a reload does not start the chart from nothing). Bounded: when there are too many, the
// older half is thinned to every other sample, so a page left open for days keeps a few hundred
// points, dense where it is recent.

export interface TrendSample {
    /** Milliseconds of host uptime (the clock of model.takenAt when /proc/uptime was read). */
    at: number;
    doneKiB: number | null;
    totalKiB: number | null;
    speedKiBs: number | null;
    /** The effective limits at that moment (the array's own or the system's). */
    minKiBs: number | null;
    maxKiBs: number | null;
}

export const TREND_MAX_SAMPLES = 240;

function thinned(samples: TrendSample[]): TrendSample[] {
    if (samples.length <= TREND_MAX_SAMPLES) return samples;
    const half = Math.floor(samples.length / 2);
    return [...samples.slice(0, half).filter((_s, i) => i % 2 === 0), ...samples.slice(half)];
}

/** The trend with one more sample; progress going backwards means a new sync, which starts afresh. */
export function addTrendSample(trend: readonly TrendSample[], sample: TrendSample): TrendSample[] {
    const last = trend[trend.length - 1];
    if (last && sample.at <= last.at) return [...trend];
    if (last && sample.doneKiB !== null && last.doneKiB !== null && sample.doneKiB < last.doneKiB) return [sample];
    return thinned([...trend, sample]);
}

/** The host's history before the page's first sample, then the page's own samples. */
export function mergeTrend(host: readonly TrendSample[], page: readonly TrendSample[]): TrendSample[] {
    const first = page[0]?.at ?? Infinity;
    let merged = [...host.filter(s => s.at < first), ...page];
    while (merged.length > TREND_MAX_SAMPLES) merged = thinned(merged);
    return merged;
}

function numberOrNull(word: string | undefined): number | null {
    if (word === undefined || word === '-' || word === '') return null;
    const n = Number(word);
    return Number.isFinite(n) && n >= 0 ? n : null;
}

/** One line of the waiter's history: "uptime done total speed min max" (seconds, KiB, KiB/s; "-" unknown). */
export function parseTrendLine(line: string): TrendSample | null {
    const words = line.trim().split(/\s+/);
    const up = numberOrNull(words[0]);
    if (words.length < 6 || up === null) return null;
    const [doneKiB, totalKiB, speedKiBs, minKiBs, maxKiBs] = words.slice(1, 6).map(numberOrNull);
    return { at: up * 1000, doneKiB, totalKiB, speedKiBs, minKiBs, maxKiBs };
}
