// SPDX-License-Identifier: LGPL-2.1-or-later
import {
    parseBitmapLocation, parseDiskstats, parseIntValue, parseMeminfo, parseMemberState, parseNumberOrNone,
    parseBitmapType, parseRaidDisks, parseScheduler, parseSpeedLimit, parseSyncCompleted,
} from '../../../src/md/sysfs';

describe('sysfs value parsers', () => {
    test('speed limits read back with their source', () => {
        expect(parseSpeedLimit('1000 (system)')).toEqual({ kiBs: 1000, source: 'system' });
        expect(parseSpeedLimit('5000 (local)')).toEqual({ kiBs: 5000, source: 'local' });
        expect(parseSpeedLimit('5000')).toBeNull();
        expect(parseSpeedLimit(null)).toBeNull();
    });

    test('sync_completed counts sectors, or says none/delayed', () => {
        expect(parseSyncCompleted('12544 / 522240')).toEqual({ doneSectors: 12544, totalSectors: 522240 });
        expect(parseSyncCompleted('none')).toBeNull();
        expect(parseSyncCompleted('delayed')).toBeNull();
    });

    test('raid_disks during a reshape', () => {
        expect(parseRaidDisks('4 (3)')).toEqual({ count: 4, previous: 3 });
        expect(parseRaidDisks('3')).toEqual({ count: 3, previous: null });
    });

    test('member state, slot, numbers', () => {
        expect(parseMemberState('faulty,blocked')).toEqual(['faulty', 'blocked']);
        expect(parseMemberState(null)).toEqual([]);
        expect(parseNumberOrNone('none')).toBeNull();
        expect(parseNumberOrNone('3')).toBe(3);
        expect(parseIntValue('12abc')).toBeNull();
        expect(parseIntValue('99999999999999999999')).toBeNull();
    });

    test('bitmap location', () => {
        expect(parseBitmapLocation('+8')).toEqual({ kind: 'internal', offsetSectors: 8 });
        expect(parseBitmapLocation('none')).toEqual({ kind: 'none', offsetSectors: null });
        expect(parseBitmapLocation('file')).toEqual({ kind: 'file', offsetSectors: null });
    });

    test('scheduler lists', () => {
        expect(parseScheduler('[none] mq-deadline')).toEqual({ current: 'none', available: ['none', 'mq-deadline'] });
        expect(parseScheduler('none')).toEqual({ current: 'none', available: ['none'] });
        // 7.3 prints the current one last and a blank after it.
        expect(parseScheduler('none [mq-deadline] ')).toEqual({ current: 'mq-deadline', available: ['none', 'mq-deadline'] });
    });

    test('bitmap_type: the bracketed kind; null where the file is absent', () => {
        expect(parseBitmapType('[none] bitmap ')).toBe('none');
        expect(parseBitmapType('none [bitmap] llbitmap ')).toBe('bitmap');
        expect(parseBitmapType('none bitmap [llbitmap] ')).toBe('llbitmap');
        expect(parseBitmapType(null)).toBeNull();
        expect(parseBitmapType('')).toBeNull();
    });

    test('meminfo and diskstats in the kernel formats', () => {
        expect(parseMeminfo('MemTotal:       16316412 kB\nMemFree:  1 kB\nMemAvailable:   12000000 kB\n'))
            .toEqual({ totalKiB: 16316412, availableKiB: 12000000 });
        const stats = parseDiskstats(' 254       0 vda 1443 0 99518 2087 12 0 36 4 0 1672 2091 0 0 0 0 0 0\n');
        expect(stats.get('vda')).toEqual({
            readsCompleted: 1443, readSectors: 99518, writesCompleted: 12, writeSectors: 36, inFlight: 0, ioMs: 1672,
        });
    });
});
