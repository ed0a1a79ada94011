// SPDX-License-Identifier: LGPL-2.1-or-later
// The simulated host's block devices as the block-device tools see them: a disk or a partition by
// its /dev path, what it holds (signatures, a mount), and whether something has it open exclusively
// (md for a member, a mount), which is what makes the kernel answer EBUSY to an O_EXCL open.

import type { Disk, HostState, MdArray, Partition, Signature } from '../model/types';
import { tableSignatures } from './signatures';

export type HostDevice =
    { kind: 'disk'; name: string; disk: Disk; partition: null } |
    { kind: 'part'; name: string; disk: Disk; partition: Partition };

/**
 * "/dev/sda1" -> the partition sda1; null when the host has no such device
 * (md arrays are not these tools' concern).
 */
export function findDevice(state: HostState, path: string): HostDevice | null {
    const name = /^\/dev\/([^/]+)$/.exec(path)?.[1];
    if (name === undefined) return null;
    for (const disk of state.disks) {
        if (disk.name === name) return { kind: 'disk', name, disk, partition: null };
        const partition = disk.partitions.find(p => p.name === name);
        if (partition) return { kind: 'part', name, disk, partition };
    }
    return null;
}

export function deviceSectors(device: HostDevice): number {
    return device.partition ? device.partition.sizeSectors : device.disk.sizeSectors;
}

/** Everything wipefs finds on the device: its own signatures, then a disk's partition table's. */
export function deviceSignatures(device: HostDevice): Signature[] {
    if (device.partition) return device.partition.signatures;
    return [...device.disk.signatures, ...tableSignatures(device.disk)];
}

/** The arrays a device is bound to (md holds it open), by its name: spares and failed members too, until removed. */
export function holdersOf(state: HostState, name: string): MdArray[] {
    return state.arrays.filter(array => array.members.some(m => m.name === name));
}

/**
 * Why an exclusive open fails: the device is an array's member or mounted, or (a whole disk) one of
 * its partitions is. Null when it is free.
 */
export function busyReason(state: HostState, device: HostDevice): string | null {
    const names = device.partition ? [device.partition] : [device.disk, ...device.disk.partitions];
    for (const d of names) {
        const holder = holdersOf(state, d.name)[0];
        if (holder) return `${d.name} is a member of ${holder.name}`;
        if (d.mountpoint) return `${d.name} is mounted at ${d.mountpoint}`;
    }
    return null;
}

/** What the partitions hold, left on the platter when the kernel drops them (table wiped or replaced). */
export function leftoversOf(disk: Disk): Disk['leftovers'] {
    return disk.partitions.filter(p => p.signatures.length)
        .map(p => ({ startSector: p.startSector, signatures: p.signatures }));
}
