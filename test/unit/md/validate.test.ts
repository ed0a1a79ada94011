// SPDX-License-Identifier: LGPL-2.1-or-later
import { mbsToKiBs, parseRateMBs, parseWholeNumber, knownDevice, parseChoice } from '../../../src/md/validate';
import { BAD_TEXT_VALUES } from '../../shared/badValues';

describe('validation', () => {
    test('whole numbers in range', () => {
        expect(parseWholeNumber(' 4096 ', 17, 32768)).toEqual({ value: 4096 });
        expect(parseWholeNumber('16', 17, 32768).error?.message).toBe('Use a whole number from $0 to $1.');
        expect(parseWholeNumber('32769', 17, 32768).error?.args).toEqual([17, 32768]);
    });

    test.each(BAD_TEXT_VALUES)('refuses %j as a stripe cache size', input => {
        expect(parseWholeNumber(input, 17, 32768).error).toBeDefined();
    });

    test.each(BAD_TEXT_VALUES.filter(v => v !== '12.345'))('refuses %j as a speed', input => {
        // '12.345' has three decimals: refused too, tested below with its own message.
        expect(parseRateMBs(input).error).toBeDefined();
    });

    test('speeds are MB/s in, KiB/s out', () => {
        expect(parseRateMBs('50')).toEqual({ value: mbsToKiBs(50) });
        expect(mbsToKiBs(50)).toBe(48828);
        expect(parseRateMBs('1.02')).toEqual({ value: 996 });
        expect(parseRateMBs('12.345').error).toBeDefined();
        expect(parseRateMBs('0.01').error).toBeDefined(); // 10 KiB/s: below any sane rebuild speed
        expect(parseRateMBs('30000').error).toBeDefined(); // above 20 GB/s per disk
    });

    test('choices and device names come from fixed lists', () => {
        expect(parseChoice('mq-deadline', ['none', 'mq-deadline'])).toEqual({ value: 'mq-deadline' });
        expect(parseChoice('bfq; reboot', ['none', 'mq-deadline']).error).toBeDefined();
        expect(knownDevice('sdb', ['sda', 'sdb'])).toEqual({ value: 'sdb' });
        expect(knownDevice('sdb/../sda', ['sda', 'sdb']).error).toBeDefined();
    });
});
