// SPDX-License-Identifier: LGPL-2.1-or-later
import { CHART_HEIGHT, CHART_WIDTH, chartGeometry, MIN_CHART_WIDTH, PLOT } from '../../../src/md/chartGeometry';
import { formatRate } from '../../../src/md/format';
import type { TrendSample } from '../../../src/md/trend';

const BOTTOM = CHART_HEIGHT - PLOT.bottom;

function samples(...rows: [number, number | null, number, number, number][]): TrendSample[] {
    return rows.map(([s, speed, done, min, max]) =>
        ({ at: s * 1000, doneKiB: done, totalKiB: 1000, speedKiBs: speed, minKiBs: min, maxKiBs: max }));
}

/** The points of an "M x y L x y" path. */
const points = (path: string) => [...path.matchAll(/[ML] ([\d.]+) ([\d.]+)/g)].map(m => [Number(m[1]), Number(m[2])]);

describe('sync chart geometry', () => {
    test('time runs across the plot, speed up from the bottom, progress on its own 0-100 % scale', () => {
        const g = chartGeometry(
            samples([0, 1000, 0, 1000, 2000], [60, 2000, 500, 1000, 2000], [120, 1000, 1000, 1000, 2000]));
        const speed = points(g.speedPath);
        expect(speed.map(p => p[0])).toEqual([g.box.x0, (g.box.x0 + g.box.x1) / 2, g.box.x1]);
        expect(speed[1][1]).toBeLessThan(speed[0][1]);
        expect(speed[0][1]).toBeCloseTo(speed[2][1]);
        expect(points(g.progressPath).map(p => p[1])).toEqual([BOTTOM, (BOTTOM + PLOT.top) / 2, PLOT.top]);
        expect(g.speedTop).toBeCloseTo(2000 * 1.15);
        expect(g.summary).toEqual({
            spanSeconds: 120, slowestKiBs: 1000, fastestKiBs: 2000, minKiBs: 1000, maxKiBs: 2000,
            maxAboveChart: false, firstPercent: 0, lastPercent: 100,
        });
    });

    test('drawn at the width it has on screen: the plot fills it, the labels keep their room; never narrower than the minimum', () => {
        const rows = samples([0, 1000, 0, 1000, 2000], [60, 2000, 500, 1000, 2000]);
        expect(chartGeometry(rows).width).toBe(CHART_WIDTH);
        const narrow = chartGeometry(rows, 400.4);
        expect(narrow.width).toBe(400);
        expect(narrow.box).toEqual({ x0: PLOT.left, x1: 400 - PLOT.right, y0: PLOT.top, y1: BOTTOM });
        expect(points(narrow.speedPath).map(p => p[0])).toEqual([PLOT.left, 400 - PLOT.right]);
        expect(chartGeometry(rows, 120).width).toBe(MIN_CHART_WIDTH);
    });

    test('a limit is a step line: it holds until it changes', () => {
        const g = chartGeometry(samples([0, 500, 0, 1000, 2000], [10, 500, 1, 1000, 2000], [20, 1500, 2, 1800, 2000]));
        const min = points(g.minLimitPath);
        expect(min).toHaveLength(4);
        expect(min[2]).toEqual([min[3][0], min[1][1]]);
        expect(min[3][1]).toBeLessThan(min[2][1]);
    });

    test('a maximum far above the speeds is not drawn and flattens nothing; the summary says so', () => {
        const g = chartGeometry(samples([0, 4000, 0, 4000, 200000], [30, 4100, 1, 4000, 200000]));
        expect(g.maxLimitPath).toBe('');
        expect(g.summary.maxAboveChart).toBe(true);
        expect(g.speedTop).toBeLessThan(5000);
        // Round in the MiB/s the labels show: 0, 2, 4 MiB/s, whole KiB/s too.
        expect(g.speedTicks.map(t => t.value)).toEqual([0, 2048, 4096]);
        expect(g.speedTicks.map(t => formatRate(t.value))).toEqual(['0 MiB/s', '2 MiB/s', '4 MiB/s']);
        expect(g.speedTicks[0].y).toBe(BOTTOM);
    });

    test('an unknown value breaks the line instead of drawing it at zero', () => {
        const g = chartGeometry(samples([0, 100, 0, 1, 2], [1, null, 0, 1, 2], [2, 100, 0, 1, 2]));
        expect(g.speedPath.match(/M/g)).toHaveLength(2);
        expect(g.speedPath).not.toContain('L');
    });
});
