// SPDX-License-Identifier: LGPL-2.1-or-later
import { formatDuration, formatKiB, formatRate, formatRateWithRaw } from '../../../src/md/format';

describe('formatting', () => {
    test('sizes in binary units', () => {
        expect(formatKiB(520192)).toBe('508 MiB');
        expect(formatKiB(5855836800)).toBe('5.45 TiB');
        expect(formatKiB(null)).toBe('—');
    });

    test('rates as MB/s with the raw kernel value', () => {
        expect(formatRate(4000)).toBe('4.10 MB/s');
        expect(formatRateWithRaw(200000)).toBe('205 MB/s (200000 KiB/s)');
    });

    test('durations', () => {
        expect(formatDuration(22 * 3600 + 5 * 60)).toBe('22 h 5 min');
        expect(formatDuration(200)).toBe('3 min 20 s');
        expect(formatDuration(3 * 86400 + 7200)).toBe('3 d 2 h');
        expect(formatDuration(null)).toBe('—');
    });
});
