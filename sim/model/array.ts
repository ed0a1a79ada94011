// SPDX-License-Identifier: LGPL-2.1-or-later
// Questions about an array's state that several modules ask: is it running, how degraded is it,
// which members are rebuilding, which disks does it sit on.

import type { Disk, IoLoad, MdArray, Member } from './types';

/** A personality is running (anything but "inactive"). */
export function isStarted(array: MdArray): boolean {
    return array.baseState !== 'inactive';
}

/** md never starts a sync on a read-only or auto-read-only array. */
export function isReadOnly(array: MdArray): boolean {
    return array.baseState === 'readonly' || array.baseState === 'read-auto';
}

/** Members the personality uses: in a slot and not failed. */
export function slottedMembers(array: MdArray): Member[] {
    return array.members.filter(m => m.slot !== null && !m.faulty);
}

export function recoveringMembers(array: MdArray): Member[] {
    return slottedMembers(array).filter(m => !m.inSync);
}

export function inSyncMembers(array: MdArray): Member[] {
    return slottedMembers(array).filter(m => m.inSync);
}

export function spareMembers(array: MdArray): Member[] {
    return array.members.filter(m => m.slot === null && !m.faulty);
}

/** The member shown for a slot: the original, not a replacement rebuilding next to it. */
export function memberInSlot(array: MdArray, slot: number): Member | undefined {
    const inSlot = slottedMembers(array).filter(m => m.slot === slot);
    return inSlot.find(m => !m.flags.has('replacement')) ?? inSlot[0];
}

/** md's "degraded": slots without a working, in-sync member. */
export function degradedCount(array: MdArray): number {
    let missing = 0;
    for (let slot = 0; slot < array.raidDisks; slot++)
        if (!memberInSlot(array, slot)?.inSync) missing++;
    return missing;
}

export function physicalDisks(array: MdArray): Set<Disk> {
    return new Set(array.members.map(m => m.disk));
}

/** md lets only one of two arrays with a disk in common sync at a time. */
export function sharesDisks(a: MdArray, b: MdArray): boolean {
    const disks = physicalDisks(a);
    return b.members.some(m => disks.has(m.disk));
}

export function loadActive(load: IoLoad | null, time: number): load is IoLoad {
    return load !== null && time >= load.fromSeconds && time < load.untilSeconds &&
        (load.readKiBs > 0 || load.writeKiBs > 0);
}

/** Application writes in flight keep an array "active" instead of "clean". */
export function arrayStateName(array: MdArray, time: number): string {
    if (array.baseState === 'clean' && loadActive(array.competingIo, time) && array.competingIo.writeKiBs > 0)
        return 'active';
    return array.baseState;
}

/**
 * The array's queue/logical_block_size and physical_block_size: md stacks its members' limits, so
 * the largest of theirs (the simulated kernel refuses a member whose logical block is larger).
 */
export function arrayBlockBytes(array: MdArray): { logical: number; physical: number } {
    const disks = array.members.map(m => m.disk);
    return {
        logical: Math.max(512, ...disks.map(d => d.logicalBlockBytes)),
        physical: Math.max(512, ...disks.map(d => d.physicalBlockBytes)),
    };
}
