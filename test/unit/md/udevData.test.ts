// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #34, finding a disk: its by-path address comes from udev's database, as the gather script
// reads it (the ID_PATH line of each bMAJOR:MINOR file, filed under /udev/bMAJOR), matched to the
// disk by its /sys/block/NAME/dev number. No database (a container) or no ID_PATH: null.

import { buildModel } from '../../../src/md/model';
import { ModelBuilder } from '../../../src/md/modelBuilder';
import { parseGatherOutput } from '../../../src/md/snapshot';
import { parseIdPaths } from '../../../src/md/udevData';

/** A gather output: two SATA disks (sdb with a partition), and udev's records as grep prints them. */
function gatherOutput(udev: string[] | null): string {
    const disk = (name: string, dev: string) =>
        [`block/${name}/dev:${dev}`, `block/${name}/queue/scheduler:none [mq-deadline] `];
    return [
        '@@root proc', 'mdstat:Personalities : [raid1] ', 'mdstat:unused devices: <none>',
        '@@root sys', '@@root sys settings', ...disk('sda', '8:0'), ...disk('sdb', '8:16'),
        'block/sdb/sdb1/partition:1', 'block/sdb/sdb1/start:2048',
        ...(udev ? ['@@root udev', ...udev] : []),
        '@@end', '',
    ].join('\n');
}

const byPaths = (output: string) =>
    Object.fromEntries([...buildModel(parseGatherOutput(output), 0).disks.values()].map(d => [d.name, d.byPath]));

describe('parseIdPaths', () => {
    test('one file per major, a line per minor; values keep their colons', () => {
        expect(parseIdPaths(new Map([
            ['/udev/b8', '0:E:ID_PATH=pci-0000:00:17.0-ata-1.0\n16:E:ID_PATH=pci-0000:00:17.0-ata-2.0\n'],
            ['/udev/b259', '0:E:ID_PATH=pci-0000:01:00.0-nvme-1\n'],
        ]))).toEqual(new Map([
            ['8:0', 'pci-0000:00:17.0-ata-1.0'], ['8:16', 'pci-0000:00:17.0-ata-2.0'], ['259:0', 'pci-0000:01:00.0-nvme-1'],
        ]));
    });

    test('nothing else: other files, other properties, empty values, lines that are no record', () => {
        expect(parseIdPaths(new Map([
            ['/udev/c189', '1:E:ID_PATH=pci-0000:00:14.0-usb-0:1\n'],
            ['/udev/b8', '0:E:ID_PATH_TAG=pci-0000_00_17_0-ata-1_0\n16:E:ID_PATH=\n32:E:ID_PATH= \nE:ID_PATH=x\n'],
            ['/sys/block/sda/dev', '8:0\n'],
        ]))).toEqual(new Map());
    });
});

describe('a disk\'s by-path address in the model', () => {
    test('each disk gets its own device number\'s, not its partition\'s', () => {
        expect(byPaths(gatherOutput([
            'b8:0:E:ID_PATH=pci-0000:00:17.0-ata-1.0',
            'b8:16:E:ID_PATH=pci-0000:00:17.0-ata-2.0',
            'b8:17:E:ID_PATH=pci-0000:00:17.0-ata-9.0',
        ]))).toEqual({ sda: 'pci-0000:00:17.0-ata-1.0', sdb: 'pci-0000:00:17.0-ata-2.0' });
    });

    test('a database without ID_PATH for a disk (udev found no path): null', () => {
        expect(byPaths(gatherOutput(['b8:16:E:ID_PATH=pci-0000:00:17.0-ata-2.0'])))
            .toEqual({ sda: null, sdb: 'pci-0000:00:17.0-ata-2.0' });
        expect(byPaths(gatherOutput([]))).toEqual({ sda: null, sdb: null });
    });

    test('no database folder (no udev: a container): null, and no problem said', () => {
        const model = buildModel(parseGatherOutput(gatherOutput(null)), 0);
        expect([...model.disks.values()].map(d => d.byPath)).toEqual([null, null]);
        expect(model.problems).toEqual([]);
    });

    test('a changed address shows though nothing under /sys changed (the disks are not reused)', () => {
        const builder = new ModelBuilder();
        const read = (udev: string[]) => builder.build(builder.parse(gatherOutput(udev)), 0);
        const before = read(['b8:0:E:ID_PATH=pci-0000:00:17.0-ata-1.0']);
        const after = read(['b8:0:E:ID_PATH=pci-0000:00:17.0-ata-4.0']);
        expect(after.disks.get('sda')?.byPath).toBe('pci-0000:00:17.0-ata-4.0');
        expect(before.disks.get('sda')?.byPath).toBe('pci-0000:00:17.0-ata-1.0');
        // The same database again: the disks are reused as they are.
        expect(read(['b8:0:E:ID_PATH=pci-0000:00:17.0-ata-4.0']).disks).toBe(after.disks);
    });
});
