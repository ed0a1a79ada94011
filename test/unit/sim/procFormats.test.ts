// SPDX-License-Identifier: LGPL-2.1-or-later
// /proc/meminfo and /proc/diskstats in the kernel's formats, with real device numbers, and
// counters that move with the I/O.

import type { ScenarioSpec } from '../../../sim/scenario/types';
import { read, removeTempRoots, startHost } from './simHelpers';

afterEach(removeTempRoots);

describe('/proc/meminfo', () => {
    test('uses the kernel columns: label, value right-aligned to column 24, kB', () => {
        const host = startHost({ name: 'mem', memory: { totalKiB: 8029352 } });
        const meminfo = read(host, 'proc/meminfo');
        const lines = meminfo.split('\n');
        for (const line of ['MemTotal:        8029352 kB', 'HugePages_Total:       0', 'HardwareCorrupted:     0 kB',
            'VmallocTotal:   34359738367 kB', 'Hugepagesize:       2048 kB', 'SwapTotal:             0 kB'])
            expect(lines).toContain(line);
        expect(lines[0]).toBe('MemTotal:        8029352 kB');
        for (const line of lines.slice(0, -1)) expect(line).toMatch(/^[A-Za-z_0-9()]+: +\d+( kB)?$/);
        expect(meminfo.endsWith(' kB\n')).toBe(true);
    });
});

describe('/proc/diskstats', () => {
    const devices: ScenarioSpec = {
        name: 'numbers',
        disks: [
            { name: 'sda', sizeBytes: 2 ** 33 },
            { name: 'sdb', sizeBytes: 2 ** 33, partitions: [{ number: 1, sizeBytes: 2 ** 32 }, { number: 2 }] },
            { name: 'sdq', sizeBytes: 2 ** 33 },
            { name: 'sdaa', sizeBytes: 2 ** 33 },
            { name: 'nvme0n1', kind: 'nvme', sizeBytes: 2 ** 33, partitions: [{ number: 1 }] },
            { name: 'vda', kind: 'virtio', sizeBytes: 2 ** 33 },
        ],
        arrays: [
            { name: 'md0', level: 'raid1', members: [{ device: 'sda' }, { device: 'sdb2' }], competingIo: { readKiBs: 100, writeKiBs: 50 } },
            { name: 'md127', level: 'raid0', members: [{ device: 'sdq' }, { device: 'sdaa' }] },
        ],
    };

    test('one line per device in registration order, with the kernel numbering and 17 counters', () => {
        const host = startHost(devices);
        const lines = read(host, 'proc/diskstats').trimEnd().split('\n');
        expect(lines.map(line => line.slice(0, 13) + line.slice(13).split(' ')[0])).toEqual([
            '   8       0 sda', '   8      16 sdb', '   8      17 sdb1', '   8      18 sdb2', '  65       0 sdq',
            '  65     160 sdaa', ' 259       0 nvme0n1', ' 259       1 nvme0n1p1', ' 254       0 vda',
            '   9       0 md0', '   9     127 md127',
        ]);
        for (const line of lines) expect(line).toMatch(/^ {0,3}\d{1,4} {1,7}\d+ \w+( \d+){17}$/);
    });

    test('counters only grow, partitions count toward their disk', () => {
        const host = startHost(devices);
        const counters = () => new Map(read(host, 'proc/diskstats').trimEnd().split('\n').map(line => {
            const fields = line.trim().split(/\s+/);
            return [fields[2], fields.slice(3).map(Number)] as const;
        }));
        host.tick(10);
        const first = counters();
        host.tick(10);
        const second = counters();
        for (const [name, values] of second) {
            values.forEach((value, i) => {
                if (i !== 8) expect([name, i, value >= first.get(name)![i]]).toEqual([name, i, true]); // 8 = in flight
            });
        }
        const written = (name: string) => second.get(name)![6] - first.get(name)![6];
        expect(written('sdb2')).toBe(1000); // 50 KiB/s of writes mirrored, 10 s
        expect(written('sdb')).toBe(written('sdb2'));
        expect(written('md0')).toBe(1000);
        expect(written('sdq')).toBe(0);
    });
});
