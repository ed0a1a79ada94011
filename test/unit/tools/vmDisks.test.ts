// SPDX-License-Identifier: LGPL-2.1-or-later
// The test guest's disks (tools/vm/vm.ts): the uniform ones keep the QEMU options they always had,
// extra ones add their block sizes, and what QEMU would refuse is refused before QEMU starts.
import { blockSizeDeviceOptions, diskSpecs, guestDiskName } from '../../../tools/vm/vm';

describe('blockSizeDeviceOptions', () => {
    test('a disk that sets no block size gets no option: its -device is a uniform disk\'s', () => {
        expect(blockSizeDeviceOptions({ miB: 64 })).toBe('');
    });

    test('a 4Kn disk: both sizes 4096 (QEMU refuses a physical size below the logical one)', () => {
        expect(blockSizeDeviceOptions({ miB: 64, logicalBlockBytes: 4096 }))
            .toBe(',logical_block_size=4096,physical_block_size=4096');
    });

    test('a 512e disk: 512-byte logical, 4096-byte physical blocks', () => {
        expect(blockSizeDeviceOptions({ miB: 64, logicalBlockBytes: 512, physicalBlockBytes: 4096 }))
            .toBe(',logical_block_size=512,physical_block_size=4096');
        expect(blockSizeDeviceOptions({ miB: 64, physicalBlockBytes: 4096 })).toBe(',physical_block_size=4096');
    });

    test('sizes QEMU or a real disk would not have are refused', () => {
        expect(() => blockSizeDeviceOptions({ miB: 64, logicalBlockBytes: 1024 as never })).toThrow(/512 or 4096/);
        expect(() => blockSizeDeviceOptions({ miB: 64, physicalBlockBytes: 4069 })).toThrow(/power of two/);
        expect(() => blockSizeDeviceOptions({ miB: 64, physicalBlockBytes: 65536 })).toThrow(/power of two/);
        expect(() => blockSizeDeviceOptions({ miB: 64, logicalBlockBytes: 4096, physicalBlockBytes: 512 }))
            .toThrow(/below the logical block size 4096/);
    });
});

describe('diskSpecs', () => {
    test('without extra disks: the uniform ones only, with no device options', () => {
        expect(diskSpecs(2, 256)).toEqual([{ miB: 256, deviceOptions: '' }, { miB: 256, deviceOptions: '' }]);
        expect(diskSpecs(2, 256, [])).toEqual(diskSpecs(2, 256));
    });

    test('extra disks come after the uniform ones, each with its own size and block sizes', () => {
        expect(diskSpecs(1, 256, [{ miB: 64, logicalBlockBytes: 4096 }, { miB: 32 }])).toEqual([
            { miB: 256, deviceOptions: '' },
            { miB: 64, deviceOptions: ',logical_block_size=4096,physical_block_size=4096' },
            { miB: 32, deviceOptions: '' },
        ]);
    });

    test('an extra disk\'s size is a whole number of MiB', () => {
        expect(() => diskSpecs(1, 256, [{ miB: 0 }])).toThrow(/whole number/);
        expect(() => diskSpecs(1, 256, [{ miB: 1.5 }])).toThrow(/whole number/);
    });
});

test('guestDiskName: the kernel\'s names, going on past the uniform disks', () => {
    expect([0, 7, 8, 25, 26, 27].map(i => guestDiskName(i, false))).toEqual(['vda', 'vdh', 'vdi', 'vdz', 'vdaa', 'vdab']);
    expect(guestDiskName(8, true)).toBe('sdi');
});
