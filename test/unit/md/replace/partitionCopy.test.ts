// SPDX-License-Identifier: LGPL-2.1-or-later
// The partition table a new disk gets from a working member's disk (issue #34): sfdisk's dump in
// util-linux 2.38's format, GPT and MBR, and the partition names the kernel gives.

import {
    parseSfdiskDump, partitionName, partitionNumberOn, replicaScript,
} from '../../../../src/md/replace/partitionCopy';

const GPT_DUMP = `label: gpt
label-id: 8F2A1C3E-4B5D-4E6F-9A0B-1C2D3E4F5A6B
device: /dev/sda
unit: sectors
first-lba: 2048
last-lba: 7814037134
sector-size: 512

/dev/sda1 : start=        2048, size=     2097152, type=A19D880F-05FC-4D3B-A006-743F0F84911E, uuid=3C0E2B7A-1D4F-4A8B-9E6C-5F7A8B9C0D1E, name="boot, md0"
/dev/sda2 : start=     2099200, size=   209715200, type=A19D880F-05FC-4D3B-A006-743F0F84911E, uuid=7D1F3C8B-2E5A-4B9C-8F7D-6A8B9C0D1E2F, name="root"
/dev/sda3 : start=   211814400, size=  7602221056, type=A19D880F-05FC-4D3B-A006-743F0F84911E, uuid=9E2A4D9C-3F6B-4CAD-907E-7B9C0D1E2F3A
`;

const DOS_DUMP = `label: dos
label-id: 0x5e3b2c1a
device: /dev/nvme0n1
unit: sectors
sector-size: 512

/dev/nvme0n1p1 : start=        2048, size=     2097152, type=fd, bootable
/dev/nvme0n1p2 : start=     2099200, size=   209715200, type=fd
`;

test('a GPT table: the layout, names and types copied; the disk\'s and partitions\' GUIDs and the source\'s end left out', () => {
    const table = parseSfdiskDump(GPT_DUMP);
    expect(table.label).toBe('gpt');
    expect(table.partitions.map(p => p.number)).toEqual([1, 2, 3]);
    expect(replicaScript(table)).toBe(`label: gpt
unit: sectors
first-lba: 2048
sector-size: 512

start=        2048, size=     2097152, type=A19D880F-05FC-4D3B-A006-743F0F84911E, name="boot, md0"
start=     2099200, size=   209715200, type=A19D880F-05FC-4D3B-A006-743F0F84911E, name="root"
start=   211814400, size=  7602221056, type=A19D880F-05FC-4D3B-A006-743F0F84911E
`);
});

test('an MBR table: the flags kept, the disk identifier left for sfdisk to make', () => {
    expect(replicaScript(parseSfdiskDump(DOS_DUMP))).toBe(`label: dos
unit: sectors
sector-size: 512

start=        2048, size=     2097152, type=fd, bootable
start=     2099200, size=   209715200, type=fd
`);
});

test('text that is not sfdisk\'s dump is refused, not copied', () => {
    expect(() => parseSfdiskDump('sfdisk: cannot open /dev/sdz: No such file or directory\n')).toThrow('not a line of sfdisk\'s dump');
    expect(() => parseSfdiskDump('unit: sectors\n')).toThrow('no "label:" line');
});

test('the kernel\'s partition names: a "p" where the disk\'s name ends in a digit', () => {
    expect(partitionName('sdd', 3)).toBe('sdd3');
    expect(partitionName('vdb', 1)).toBe('vdb1');
    expect(partitionName('nvme1n1', 2)).toBe('nvme1n1p2');
    expect(partitionName('mmcblk0', 1)).toBe('mmcblk0p1');
    expect(partitionNumberOn('sda', 'sda3')).toBe(3);
    expect(partitionNumberOn('nvme0n1', 'nvme0n1p2')).toBe(2);
    expect(partitionNumberOn('sda', 'sdaa1')).toBeNull();
    expect(partitionNumberOn('sda', 'sda')).toBeNull();
    expect(partitionNumberOn('nvme0n1', 'nvme0n12')).toBeNull();
});
