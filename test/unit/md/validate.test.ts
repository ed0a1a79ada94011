// SPDX-License-Identifier: LGPL-2.1-or-later
import { miBsToKiBs, parseRateMiBs, parseWholeNumber, rateTextKiBs, knownDevice, parseChoice } from '../../../src/md/validate';
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
        expect(parseRateMiBs(input).error).toBeDefined();
    });

    test('speeds are MiB/s in, KiB/s out: a round figure typed is a round kernel value', () => {
        expect(miBsToKiBs(50)).toBe(51200);
        expect(parseRateMiBs('50')).toEqual({ value: 51200 });
        expect(parseRateMiBs('10')).toEqual({ value: 10240 });
        expect(parseRateMiBs('2000')).toEqual({ value: 2048000 });
        expect(parseRateMiBs('0.5')).toEqual({ value: 512 });
        expect(parseRateMiBs('3.91')).toEqual({ value: 4004 });
        expect(parseRateMiBs('12.345').error).toBeDefined();
        // 0.09 MiB/s is 92 KiB/s: below any sane rebuild speed; the message says from what.
        expect(parseRateMiBs('0.09').error).toEqual({ message: 'Use a number of MiB/s from $0 to $1, like 50 or 50.5.', args: [0.1, 20000] });
        expect(parseRateMiBs('0.1')).toEqual({ value: 102 });
        expect(parseRateMiBs('20000')).toEqual({ value: 20480000 });
        expect(parseRateMiBs('20000.01').error).toBeDefined();
        expect(parseRateMiBs(' ').error?.message).toBe('Enter a speed in MiB/s.');
    });

    test('a speed field still reading as the value it was filled with stands for that exact value', () => {
        // The kernel's 4000 KiB/s shows as 3.91 MiB/s, which typed would be 4004.
        expect(rateTextKiBs('3.91', 4000)).toBe(4000);
        expect(parseRateMiBs(' 3.91 ', 4000)).toEqual({ value: 4000 });
        expect(parseRateMiBs('195', 200000)).toEqual({ value: 200000 });
        expect(parseRateMiBs('0.98', 1000)).toEqual({ value: 1000 });
        // Edited, it is what was typed.
        expect(rateTextKiBs('3.9', 4000)).toBe(3994);
        expect(rateTextKiBs('4', 4000)).toBe(4096);
        expect(rateTextKiBs('fast', 4000)).toBeNull();
        // Filled with a value outside the range, it is still refused.
        expect(parseRateMiBs('0.05', 50).error).toBeDefined();
    });

    test('choices and device names come from fixed lists', () => {
        expect(parseChoice('mq-deadline', ['none', 'mq-deadline'])).toEqual({ value: 'mq-deadline' });
        expect(parseChoice('bfq; reboot', ['none', 'mq-deadline']).error).toBeDefined();
        expect(knownDevice('sdb', ['sda', 'sdb'])).toEqual({ value: 'sdb' });
        expect(knownDevice('sdb/../sda', ['sda', 'sdb']).error).toBeDefined();
    });
});
