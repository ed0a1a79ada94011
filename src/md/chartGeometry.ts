// SPDX-License-Identifier: LGPL-2.1-or-later
// Geometry of the sync chart (plain SVG, drawn by src/ui/sync/SyncChart.tsx): speed over time on
// the left scale, progress (0-100 %) on the right, the effective minimum and maximum speed limits
// as step lines (they change when someone changes them). Pure numbers and path strings, so the
// drawing is unit-tested without a browser.
//
// The speed scale fits the speeds and the minimum limit. The maximum (195 MiB/s per disk by default)
// is often far above a throttled rebuild (4 MiB/s): drawing it would flatten everything else, so it
// is drawn only when it is within MAX_LIMIT_REACH of the other values, else the summary says where
// it is.

import { KIB_PER_MIB } from './format';
import type { TrendSample } from './trend';

/** The width drawn before the page knows the chart's own (SyncChart measures it), and the narrowest drawn. */
export const CHART_WIDTH = 600;
export const MIN_CHART_WIDTH = 320;
export const CHART_HEIGHT = 180;
/** Room for the speed labels (left), the percent labels (right), the time labels (bottom). */
export const PLOT = { left: 64, right: 44, top: 10, bottom: 22 };
const MAX_LIMIT_REACH = 4;
const HEADROOM = 1.15;

export interface ChartTick {
    y: number;
    value: number;
}

export interface ChartGeometry {
    speedPath: string;
    progressPath: string;
    minLimitPath: string;
    maxLimitPath: string;
    /** KiB/s at the top of the plot. */
    speedTop: number;
    speedTicks: ChartTick[];
    percentTicks: ChartTick[];
    /** Plot box, for the frame and the time labels. */
    box: { x0: number; x1: number; y0: number; y1: number };
    /** The width drawn (the viewBox's). */
    width: number;
    summary: ChartSummary;
}

export interface ChartSummary {
    spanSeconds: number;
    slowestKiBs: number | null;
    fastestKiBs: number | null;
    /** The latest effective limits. */
    minKiBs: number | null;
    maxKiBs: number | null;
    maxAboveChart: boolean;
    firstPercent: number | null;
    lastPercent: number | null;
}

const values = (samples: readonly TrendSample[], pick: (s: TrendSample) => number | null) =>
    samples.map(pick).filter((v): v is number => v !== null);

function percentOf(s: TrendSample): number | null {
    return s.doneKiB !== null && s.totalKiB ? (100 * s.doneKiB) / s.totalKiB : null;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** "M x y L x y ...", a new M after a gap (an unknown value breaks the line). */
function linePath(points: ([number, number] | null)[]): string {
    let path = '';
    let pen = false;
    for (const point of points) {
        if (!point) {
            pen = false;
            continue;
        }
        path += `${path ? ' ' : ''}${pen ? 'L' : 'M'} ${round(point[0])} ${round(point[1])}`;
        pen = true;
    }
    return path;
}

/** A limit as a step line: it holds its value until the next sample says otherwise. */
function stepPath(points: ([number, number] | null)[]): string {
    const stepped: ([number, number] | null)[] = [];
    points.forEach((point, i) => {
        const previous = points[i - 1];
        if (point && previous && previous[1] !== point[1]) stepped.push([point[0], previous[1]]);
        stepped.push(point);
    });
    return linePath(stepped);
}

/** Round numbers of KiB/s for the scale: 1, 2, 5 x 10^n. */
function niceStep(top: number, count: number): number {
    const raw = top / count;
    const power = 10 ** Math.floor(Math.log10(raw));
    return [1, 2, 5, 10].map(m => m * power).find(step => step >= raw) ?? raw;
}

/**
 * `width`: the chart's width on screen in CSS pixels, drawn at that width so that its labels keep
 * their size in a narrow window (a 600-unit drawing shrunk to 400 px made 11 px labels 7 px).
 */
export function chartGeometry(samples: readonly TrendSample[], width = CHART_WIDTH): ChartGeometry {
    width = Math.max(MIN_CHART_WIDTH, Math.round(width));
    const box = { x0: PLOT.left, x1: width - PLOT.right, y0: PLOT.top, y1: CHART_HEIGHT - PLOT.bottom };
    const speeds = values(samples, s => s.speedKiBs);
    const mins = values(samples, s => s.minKiBs);
    const maxes = values(samples, s => s.maxKiBs);
    const reach = Math.max(1, ...speeds, ...mins);
    const maxAboveChart = maxes.length > 0 && Math.max(...maxes) > reach * MAX_LIMIT_REACH;
    const speedTop = Math.max(reach, ...(maxAboveChart ? [] : maxes)) * HEADROOM;

    const first = samples[0]?.at ?? 0;
    const span = Math.max(1, (samples[samples.length - 1]?.at ?? 0) - first);
    const x = (s: TrendSample) => box.x0 + ((s.at - first) / span) * (box.x1 - box.x0);
    const y = (value: number, top: number) => box.y1 - (Math.min(value, top) / top) * (box.y1 - box.y0);
    const series = (pick: (s: TrendSample) => number | null, top: number) => samples.map(s => {
        const v = pick(s);
        return v === null ? null : [x(s), y(v, top)] as [number, number];
    });

    // Round numbers in the unit shown (MiB/s), converted back to the kernel's KiB/s.
    const step = niceStep(speedTop / KIB_PER_MIB, 4) * KIB_PER_MIB;
    const speedTicks = Array.from({ length: Math.floor(speedTop / step + 1e-9) + 1 },
        (_v, i) => ({ value: i * step, y: round(y(i * step, speedTop)) }));
    const percentTicks = [0, 50, 100].map(value => ({ value, y: round(y(value, 100)) }));
    const percents = values(samples, percentOf);
    const last = samples[samples.length - 1];

    return {
        speedPath: linePath(series(s => s.speedKiBs, speedTop)),
        progressPath: linePath(series(percentOf, 100)),
        minLimitPath: stepPath(series(s => s.minKiBs, speedTop)),
        maxLimitPath: maxAboveChart ? '' : stepPath(series(s => s.maxKiBs, speedTop)),
        speedTop,
        speedTicks,
        percentTicks,
        box,
        width,
        summary: {
            spanSeconds: samples.length > 1 ? span / 1000 : 0,
            slowestKiBs: speeds.length ? Math.min(...speeds) : null,
            fastestKiBs: speeds.length ? Math.max(...speeds) : null,
            minKiBs: last?.minKiBs ?? null,
            maxKiBs: last?.maxKiBs ?? null,
            maxAboveChart,
            firstPercent: percents[0] ?? null,
            lastPercent: percents[percents.length - 1] ?? null,
        },
    };
}
