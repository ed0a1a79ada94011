// SPDX-License-Identifier: LGPL-2.1-or-later
// Defaults that depend on other parts of a scenario: where partitions lie and which slot each
// member takes. Shared by validation and the model builder so both agree.

import type { DiskSpec, MemberSpec } from './types';

/** GPT-style alignment: the first partition starts at 1 MiB. */
const FIRST_PARTITION_SECTOR = 2048;

/** Each partition's start and size in sectors: after the previous one, up to the end of the disk by default. */
export function partitionLayout(disk: DiskSpec): { number: number; startSector: number; sizeSectors: number }[] {
    const diskSectors = Math.floor(disk.sizeBytes / 512);
    let end = FIRST_PARTITION_SECTOR;
    return (disk.partitions ?? []).map(p => {
        const startSector = p.startSector ?? end;
        const sizeSectors = p.sizeBytes !== undefined ? Math.floor(p.sizeBytes / 512) : diskSectors - startSector;
        end = startSector + sizeSectors;
        return { number: p.number, startSector, sizeSectors };
    });
}

/** Slot per member (null for spares and faulty members), and raid_disks when not given. */
export function memberSlots(members: MemberSpec[]): { slots: (number | null)[]; slotCount: number } {
    let next = 0;
    const slots = members.map(m => {
        const role = m.role ?? 'in_sync';
        if (role === 'spare' || role === 'faulty') return null;
        const slot = m.slot ?? next;
        next = Math.max(next, slot + 1);
        return slot;
    });
    return { slots, slotCount: next };
}
