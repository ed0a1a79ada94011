// SPDX-License-Identifier: LGPL-2.1-or-later
import { addTrendSample, mergeTrend, TREND_MAX_SAMPLES, type TrendSample } from '../../../src/md/trend';

const sample = (at: number, doneKiB = at): TrendSample =>
    ({ at, doneKiB, totalKiB: 1e6, speedKiBs: 4000, minKiBs: 1000, maxKiBs: 200000 });

describe('chart samples', () => {
    test('grow by one per refresh; a repeated time is not added; progress going back starts afresh', () => {
        let trend = addTrendSample([], sample(1000));
        trend = addTrendSample(trend, sample(2000));
        expect(addTrendSample(trend, sample(2000))).toHaveLength(2);
        expect(addTrendSample(trend, sample(3000, 10))).toEqual([sample(3000, 10)]);
    });

    test('stay bounded over a long-open page, dense at the recent end, the whole span kept', () => {
        let trend: TrendSample[] = [];
        for (let i = 1; i <= 10000; i++) trend = addTrendSample(trend, sample(i * 2000));
        expect(trend.length).toBeLessThanOrEqual(TREND_MAX_SAMPLES);
        expect(trend[0].at).toBe(2000);
        expect(trend[trend.length - 1].at).toBe(20000000);
        const gaps = trend.slice(1).map((s, i) => s.at - trend[i].at);
        expect(gaps[gaps.length - 1]).toBe(2000);
        expect(gaps[0]).toBeGreaterThan(2000);
    });

    test('the host\'s history comes before the page\'s own samples, without overlap, bounded', () => {
        const host = [sample(1000), sample(5000), sample(9000), sample(13000)];
        const page = [sample(10000), sample(12000)];
        expect(mergeTrend(host, page).map(s => s.at)).toEqual([1000, 5000, 9000, 10000, 12000]);
        expect(mergeTrend([], page)).toEqual(page);
        const long = Array.from({ length: 1000 }, (_v, i) => sample(i));
        expect(mergeTrend(long, []).length).toBeLessThanOrEqual(TREND_MAX_SAMPLES);
    });
});
