// SPDX-License-Identifier: LGPL-2.1-or-later
// `mdadm /dev/mdN --add /dev/X` and `--add-spare /dev/X` as mdadm 4.2's Manage_subdevs and
// Manage_add do them, with the kernel's part: the checks in mdadm's order (the device exists, no one
// has it open exclusively, it is large enough, the array still works), then ADD_NEW_DISK, which the
// simulated kernel refuses for a device whose logical block is larger than the array's (as Linux
// 6.19+ may; see README). The device gets a superblock and joins as a spare; md puts a spare into an
// empty slot at once and rebuilds it (--add-spare differs only in never trying a re-add, which the
// simulation does not do anyway).

import { arrayBlockBytes, degradedCount } from '../model/array';
import { writeSuperblock } from '../model/build';
import { maxDegraded } from '../model/levels';
import type { HostState, MdArray, Member } from '../model/types';
import { busyReason, deviceSectors, findDevice, type HostDevice } from '../blockdev/devices';

/**
 * What mdadm's avail_size() leaves for data on a device of `sectors`: after the array's data offset
 * (1.1, 1.2), before the superblock at the end (1.0, 0.90; approximately: 4 KiB-aligned, plus 64
 * KiB of room for 0.90).
 */
function availableSectors(array: MdArray, sectors: number): number {
    switch (array.metadata) {
        case '1.0': return ((sectors - 8 * 2) & ~(4 * 2 - 1)) - (array.bitmap ? 64 * 2 : 0);
        case '0.90': return (sectors & ~127) - 128;
        default: return sectors - (array.members[0]?.dataOffset ?? 0);
    }
}

/** mdadm picks the descriptor number: the first free one from raid_disks up (mdstat's [N]). */
function freeDescriptor(array: MdArray): number {
    const used = new Set(array.members.map(m => m.desc));
    let desc = array.raidDisks;
    while (used.has(desc)) desc++;
    return desc;
}

function newMember(array: MdArray, device: HostDevice): Member {
    return {
        name: device.name,
        device: device.partition ? { kind: 'partition', partition: device.partition } : { kind: 'disk', disk: device.disk },
        disk: device.disk,
        desc: freeDescriptor(array),
        slot: null,
        inSync: false,
        faulty: false,
        flags: new Set(),
        recoveryOffset: null,
        errors: 0,
        dataOffset: array.members[0]?.dataOffset ?? 0,
    };
}

/** Add the device as a spare; mdadm's words for a refusal, or null. */
export function addMember(state: HostState, array: MdArray, path: string, arrayPath: string): string[] | null {
    const device = findDevice(state, path);
    // mdadm opens the device, then stat()s it to tell why (stat_is_blkdev).
    if (!device) return [`stat failed for ${path}: No such file or directory`];
    // Its O_EXCL open: md holds its members (this array's too), the kernel a mounted device.
    if (busyReason(state, device)) return [`Cannot open ${path}: Device or resource busy`];
    if (availableSectors(array, deviceSectors(device)) < array.componentSectors) return [`${path} not large enough to join array`];
    if (degradedCount(array) > maxDegraded(array)) {
        return [`${arrayPath} has failed so using --add cannot work and might destroy`,
            `data on ${path}.  You should stop the array and re-assemble it.`];
    }
    const member = newMember(array, device);
    if (device.disk.logicalBlockBytes > arrayBlockBytes(array).logical)
        return [`add new device failed for ${path} as ${member.desc}: Invalid argument`];
    array.members.push(member);
    writeSuperblock(array, member);
    return null;
}
