// SPDX-License-Identifier: LGPL-2.1-or-later
// What each md personality does differently: redundancy, which sysfs groups it has, how big the
// array is, what a sync walks over. Kept in one place so the writers and the physics agree.

import type { Level, SyncAction } from '../scenario/types';
import type { MdArray } from './types';

/** Has a sync_request (resync, recovery, check): the md "redundancy" sysfs group exists. */
export function isRedundant(level: Level): boolean {
    return level !== 'linear' && level !== 'raid0';
}

/** raid4/5/6: stripe cache, group threads, parity. */
/** md/stripe_size: DEFAULT_STRIPE_SIZE, what Linux 5.12+ uses on every page size unless set otherwise. */
export const STRIPE_SIZE_BYTES = 4096;

export function isParityLevel(level: Level): boolean {
    return level === 'raid4' || level === 'raid5' || level === 'raid6';
}

export function parityDisks(level: Level): number {
    if (level === 'raid6') return 2;
    return level === 'raid4' || level === 'raid5' ? 1 : 0;
}

/** Failed members the array survives. */
export function maxDegraded(array: Pick<MdArray, 'level' | 'raidDisks' | 'nearCopies'>): number {
    switch (array.level) {
        case 'raid1': return array.raidDisks - 1;
        case 'raid10': return array.nearCopies - 1;
        case 'linear': case 'raid0': return 0;
        default: return parityDisks(array.level);
    }
}

export function levelNumber(level: Level): number {
    return level === 'linear' ? -1 : Number(level.slice(4));
}

/** Default layout numbers as mdadm 4.2 / Linux 6.1 report them (raid0 reads -1, raid10 n2 258). */
export function defaultLayout(level: Level, nearCopies: number): number {
    if (level === 'raid0') return -1;
    if (level === 'raid10') return 0x100 + nearCopies;
    if (level === 'raid4') return 5;
    return isParityLevel(level) ? 2 : 0;
}

export function defaultChunkKiB(level: Level): number {
    return level === 'raid1' || level === 'linear' ? 0 : 512;
}

/** raid_disks the data is spread over for sizing: the old count while a grow is pending. */
export function sizingDisks(array: MdArray): number {
    return array.reshape ? array.reshape.fromRaidDisks : array.raidDisks;
}

/** Array size in sectors (what mdstat prints halved as "N blocks"). */
export function arraySectors(array: MdArray): number {
    const disks = sizingDisks(array);
    switch (array.level) {
        case 'raid1': return array.componentSectors;
        case 'raid10': return roundDown(array.componentSectors * disks / array.nearCopies, array.chunkKiB * 2);
        case 'linear': case 'raid0': return array.componentSectors * disks;
        default: return array.componentSectors * (disks - parityDisks(array.level));
    }
}

/**
 * The sector space a sync walks (md's max_sectors): per device for recovery, resync and check,
 * except raid10 whose resync/check walks the array's address space.
 */
export function syncTotalSectors(array: MdArray, action: SyncAction): number {
    if (array.level === 'raid10' && action !== 'recover' && action !== 'reshape') return arraySectors(array);
    return array.componentSectors;
}

/** Sectors the personality advances per sync request: checkpoints land on these multiples. */
export function syncGranularity(level: Level): number {
    return isParityLevel(level) ? 8 : 128;
}

/** Units mismatch_cnt moves in: a stripe for raid4/5/6, a 64 KiB resync block for raid1/10. */
export function mismatchUnit(level: Level): number {
    return isParityLevel(level) ? 8 : 128;
}

/** The read-ahead md sets on the array device: two full stripes for striped levels. */
export function defaultReadAheadKiB(array: Pick<MdArray, 'level' | 'raidDisks' | 'chunkKiB' | 'nearCopies'>): number {
    let stripeKiB = 0;
    if (isParityLevel(array.level)) stripeKiB = (array.raidDisks - parityDisks(array.level)) * array.chunkKiB;
    else if (array.level === 'raid10') stripeKiB = array.raidDisks * array.chunkKiB / array.nearCopies;
    else if (array.level === 'raid0') stripeKiB = array.raidDisks * array.chunkKiB;
    return Math.max(128, 2 * stripeKiB);
}

export function roundDown(value: number, multiple: number): number {
    return multiple > 0 ? Math.floor(value / multiple) * multiple : Math.floor(value);
}
