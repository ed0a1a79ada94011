// SPDX-License-Identifier: LGPL-2.1-or-later
import { etaSvg } from '../../../tools/vm/etaPlot';

describe('the ETA benchmark plot', () => {
    const points = [
        { percent: 20, trueS: 80, raidtuneS: 70, kernelS: 60 },
        { percent: 50, trueS: 50, raidtuneS: null, kernelS: 500 },
        { percent: 80, trueS: 20, raidtuneS: 22, kernelS: 12 },
    ];
    const svg = etaSvg([{ title: '6.1: a <run>', points }], 'caption');

    test('one line per estimator, broken where it gave no figure', () => {
        expect(svg.match(/<polyline [^>]*stroke="#222222"/g)).toHaveLength(1);
        // raidtune: no figure at 50%, so two pieces of one point each.
        expect(svg.match(/<polyline [^>]*stroke="#0066cc"/g)).toHaveLength(2);
        expect(svg).toContain('6.1: a &lt;run&gt;');
    });

    test('an estimate far off the chart is drawn at its top, not stretching the truth flat', () => {
        // 500 s against a real maximum of 80: the axis stops at 160 (ticks of 50 up to 200).
        expect(svg).toContain('>200</text>');
        expect(svg).not.toContain('>500</text>');
    });
});
