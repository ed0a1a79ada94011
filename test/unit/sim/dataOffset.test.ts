// SPDX-License-Identifier: LGPL-2.1-or-later
// Array sizes the simulator derives when a scenario gives no componentSizeKiB: mdadm's default
// data offset. Pinned to what Debian 12's mdadm 4.2 and kernel 6.1 produced in the real-kernel
// tier's guest (tools/vm, 8 x 256 MiB virtio disks; partitions made with fdisk), plus the offset
// every big member shows in `mdadm --examine` (264192 sectors).

import { dataOffsetSectors } from '../../../sim/model/build';
import type { ArraySpec, DiskSpec } from '../../../sim/scenario/types';
import { attr, read, removeTempRoots, startHost } from './simHelpers';

afterEach(removeTempRoots);

const DISKS: DiskSpec[] = ['vda', 'vdb', 'vdc', 'vdd', 'vde', 'vdf', 'vdg', 'vdh']
    .map(name => ({ name, kind: 'virtio', sizeBytes: 256 * 2 ** 20 }));

/** mdstat's "N blocks" and sysfs component_size of md0 for an array over the first `n` disks. */
function sizes(level: ArraySpec['level'], n: number, chunkKiB?: number): { blocks: number; component: string } {
    const host = startHost({
        name: 'sizes', disks: DISKS,
        arrays: [{ name: 'md0', level, chunkKiB, members: DISKS.slice(0, n).map(d => ({ device: d.name })) }],
    });
    const blocks = Number(/^md0 : .*\n\s+(\d+) blocks/m.exec(read(host, 'proc/mdstat'))![1]);
    return { blocks, component: attr(host, 'sys/block/md0/md/component_size') };
}

describe('mdadm --create on 256 MiB disks (as the real kernel reported)', () => {
    test.each([
        // level, disks, chunk KiB (undefined: mdadm's default), mdstat blocks, component_size
        ['raid1', 2, undefined, 261120, '261120'],
        ['raid1', 3, undefined, 261120, '261120'],
        ['raid5', 3, undefined, 520192, '260096'],
        ['raid5', 4, undefined, 780288, '260096'],
        ['raid5', 3, 64, 522240, '261120'],
        ['raid5', 3, 256, 522240, '261120'],
        ['raid5', 3, 1024, 518144, '259072'],
        ['raid5', 3, 2048, 512000, '256000'],
        ['raid5', 3, 4096, 499712, '249856'],
        ['raid4', 3, undefined, 520192, '260096'],
        ['raid6', 4, undefined, 520192, '260096'],
        ['raid6', 8, undefined, 1560576, '260096'],
        ['raid10', 4, undefined, 520192, '260096'],
        ['raid10', 4, 64, 522240, '261120'],
        ['raid0', 2, undefined, 520192, '0'],
        ['raid0', 2, 1024, 518144, '0'],
        ['linear', 2, undefined, 522240, '0'],
    ] as const)('%s of %i disks, chunk %s KiB: %i blocks', (level, n, chunk, blocks, component) => {
        expect(sizes(level, n, chunk)).toEqual({ blocks, component });
    });

    test('raid1 on partitions of 100 MiB: 1 MiB offset', () => {
        const host = startHost({
            name: 'parts',
            disks: DISKS.slice(0, 2).map(d =>
                ({ ...d, partitions: [{ number: 1, sizeBytes: 100 * 2 ** 20 }, { number: 2 }] })),
            arrays: [{ name: 'md0', level: 'raid1', members: [{ device: 'vda1' }, { device: 'vdb1' }] }],
        });
        expect(attr(host, 'sys/block/md0/md/component_size')).toBe('101376');
    });
});

describe('dataOffsetSectors (mdadm super1.c validate_geometry1)', () => {
    test.each([
        // device sectors, chunk KiB, data offset sectors
        [524288, 0, 2048],
        [524288, 256, 2048],
        [524288, 512, 4096],
        [524288, 1024, 6144],
        [524288, 4096, 18432],
        [204800, 0, 2048],
        // 200 GiB .. 10 TB members: "Data Offset : 264192 sectors" in mdadm --examine
        [419166208 + 264192, 512, 264192],
        [3907029168, 512, 264192],
        [19532873728, 512, 264192],
    ])('%i sectors, chunk %i KiB: %i', (sectors, chunk, offset) => {
        expect(dataOffsetSectors(sectors, chunk)).toBe(offset);
    });
});
