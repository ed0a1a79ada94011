// SPDX-License-Identifier: LGPL-2.1-or-later
// Who reads and writes what: the member traffic of a sync and of application I/O, per level.
// It decides how fast a sync can go on its slowest disk and what /proc/diskstats counts.

import { inSyncMembers, loadActive, recoveringMembers, slottedMembers } from '../model/array';
import { parityDisks } from '../model/levels';
import type { Disk, HostState, MdArray, Member } from '../model/types';
import type { SyncAction } from '../scenario/types';

/** Rates in KiB/s, or factors per unit of progress, for one member. */
export interface MemberTraffic {
    member: Member;
    read: number;
    write: number;
}

function mirrored(array: MdArray): boolean {
    return array.level === 'raid1' || array.level === 'raid10';
}

/**
 * Per member, KiB read and written per KiB of per-device progress. Mirrors copy from one good
 * member; parity levels read every member to recompute (a resync writes only what mismatched);
 * a reshape reads and rewrites everything.
 */
export function syncTrafficFactors(array: MdArray, action: SyncAction): MemberTraffic[] {
    const good = inSyncMembers(array);
    switch (action) {
        case 'recover': {
            const sources = mirrored(array) ? good.slice(0, 1) : good;
            return [
                ...sources.map(member => ({ member, read: 1, write: 0 })),
                ...recoveringMembers(array).map(member => ({ member, read: 0, write: 1 })),
            ];
        }
        case 'resync':
            if (mirrored(array)) {
                return good.map((member, i) => ({ member, read: i === 0 ? 1 : 0, write: i === 0 ? 0 : 1 }));
            }
            return good.map(member => ({ member, read: 1, write: 0 }));
        case 'reshape':
            return slottedMembers(array).map(member => ({ member, read: 1, write: 1 }));
        default:
            return good.map(member => ({ member, read: 1, write: 0 }));
    }
}

/** Per-device KiB per KiB of the sync's own progress (raid10 resync walks array addresses). */
export function perDeviceShare(array: MdArray): number {
    const sync = array.sync;
    return sync ? array.componentSectors / sync.total : 1;
}

/** Application I/O on the array spread over its members, KiB/s. */
export function foregroundTraffic(array: MdArray, time: number): MemberTraffic[] {
    const load = array.competingIo;
    if (!loadActive(load, time)) return [];
    const readers = inSyncMembers(array);
    const writers = slottedMembers(array);
    const readShare = readers.length ? load.readKiBs / readers.length : 0;
    let writeEach: number;
    switch (array.level) {
        case 'raid1': writeEach = load.writeKiBs; break;
        case 'raid10': writeEach = load.writeKiBs * array.nearCopies / Math.max(1, writers.length); break;
        case 'linear': case 'raid0': writeEach = load.writeKiBs / Math.max(1, writers.length); break;
        // Full-stripe writes: every member takes a share of data plus parity.
        default: writeEach = load.writeKiBs / Math.max(1, writers.length - parityDisks(array.level));
    }
    return writers.map(member => ({ member, read: member.inSync ? readShare : 0, write: writeEach }));
}

/** Disks carrying non-sync I/O: md throttles any sync touching them down to its minimum speed. */
export function busyDisks(state: HostState): Set<Disk> {
    const busy = new Set<Disk>();
    for (const disk of state.disks) if (loadActive(disk.backgroundIo, state.time)) busy.add(disk);
    for (const array of state.arrays)
        for (const { member, read, write } of foregroundTraffic(array, state.time))
            if (read + write > 0) busy.add(member.disk);
    return busy;
}
