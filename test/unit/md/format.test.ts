// SPDX-License-Identifier: LGPL-2.1-or-later
import { formatDuration, formatKiB, formatMiBs, formatRate, formatRateWithRaw } from '../../../src/md/format';

describe('formatting', () => {
    test('sizes in binary units', () => {
        expect(formatKiB(520192)).toBe('508 MiB');
        expect(formatKiB(5855836800)).toBe('5.45 TiB');
        expect(formatKiB(null)).toBe('—');
    });

    test('rates as MiB/s, the family of the sizes, with the raw kernel value', () => {
        expect(formatRate(4000)).toBe('3.91 MiB/s');
        expect(formatRateWithRaw(200000)).toBe('195 MiB/s (200000 KiB/s)');
        expect(formatRateWithRaw(1000)).toBe('0.98 MiB/s (1000 KiB/s)');
        expect(formatRate(null)).toBe('—');
    });

    test('a rate those digits hold exactly drops its trailing zeros; a rounded one keeps them', () => {
        expect([51200, 10240, 2048000, 512, 0].map(formatRate)).toEqual(['50 MiB/s', '10 MiB/s', '2000 MiB/s', '0.5 MiB/s', '0 MiB/s']);
        // 10245 KiB/s is 10.005 MiB/s: "10.0", not quite 10.
        expect(formatMiBs(10245)).toBe('10.0');
        expect(formatMiBs(100000)).toBe('97.7');
    });

    test('durations', () => {
        expect(formatDuration(22 * 3600 + 5 * 60)).toBe('22 h 5 min');
        expect(formatDuration(200)).toBe('3 min 20 s');
        expect(formatDuration(3 * 86400 + 7200)).toBe('3 d 2 h');
        expect(formatDuration(null)).toBe('—');
    });
});
