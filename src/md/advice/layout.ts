// SPDX-License-Identifier: LGPL-2.1-or-later
// Layout and alignment advice for one array (issue #6, after a hardware-RAID alignment guide that
// measured misaligned partitions): the stripe geometry a file system should be told about, the
// mkfs options that carry it, and whether each member's data begins on a boundary the disks below
// like.
//
// Why it matters. A parity array writes in stripes: a chunk on each data disk plus parity. A write
// that covers whole stripes lets md compute parity from the new data alone; one that covers part
// of a stripe, or straddles two, makes md first read old data or parity back (read-modify-write),
// which is where small or misplaced writes lose most of their speed (that guide measured up to 30%
// on writes). A file system that knows the chunk ("stride") and the stripe width places its blocks
// and allocation groups on those boundaries. The same reasoning applies one level down: a member
// whose data does not start on a 4 KiB boundary makes a 4 KiB-sector disk or an SSD read-modify-write
// every block, and on a device that stripes itself (a hardware RAID volume, as in that guide) a start
// off the chunk boundary splits every chunk across two of its stripes.

import { msg, N_, type Message } from '../message';
import type { ArrayModel, MemberModel } from '../modelTypes';

/** The file system block size the advice assumes (ext4's and xfs's default). */
export const FS_BLOCK_KIB = 4;
const SECTORS_PER_KIB = 2;
const ONE_MIB_SECTORS = 2048;
const FOUR_KIB_SECTORS = FS_BLOCK_KIB * SECTORS_PER_KIB;

export interface StripeGeometry {
    chunkKiB: number;
    /** Disks that hold a stripe's data (parity and mirror copies excluded). */
    dataDisks: number;
    stripeWidthKiB: number;
    /** ext4: chunk in file system blocks, and a full stripe's data in blocks. */
    ext4Stride: number;
    ext4StripeWidth: number;
    /** Where file systems go: the array, or each partition made on it. */
    devices: string[];
    /** mkfs command lines for those devices (they create new, empty file systems). */
    commands: string[];
}

export type AlignmentVerdict = 'aligned' | 'not-1mib' | 'not-chunk' | 'not-4kib' | 'unknown';

export interface MemberAlignment {
    name: string;
    startSectors: number | null;
    dataOffsetSectors: number | null;
    /** Where the array's data begins on the disk: start + data offset (start alone when md's offset is unknown). */
    dataStartSectors: number | null;
    verdict: AlignmentVerdict;
    /** Why the verdict, in words; null when aligned on every boundary checked. */
    problem: Message | null;
}

export type PartitionVerdict = 'aligned' | 'not-stripe' | 'not-chunk' | 'not-4kib' | 'unknown';

/** A partition made on the array itself: the file system shifted against the stripes (the guide's case). */
export interface PartitionAlignment {
    name: string;
    startSectors: number | null;
    verdict: PartitionVerdict;
    problem: Message | null;
}

export interface LayoutAdvice {
    stripe: StripeGeometry | null;
    /** Why there is no stripe geometry (mirror, linear, unknown shape). */
    noStripe: Message | null;
    /** Caveats about the geometry (a reshape under way). */
    notes: Message[];
    members: MemberAlignment[];
    /** Members whose data starts off a 4 KiB boundary: every disk write pays for it. */
    misaligned: string[];
    /** Members whose data starts off a chunk boundary: costly when the device below stripes too. */
    offChunk: string[];
    partitions: PartitionAlignment[];
    /** Partitions on the array that start off the 4 KiB, chunk or stripe boundary. */
    offStripe: string[];
}

type DataDisks = { count: number } | { reason: Message };

/** How many disks carry a stripe's data: what stride and stripe width are multiplied by. */
export function dataDisks(level: string | null, raidDisks: number | null, layout: number | null): DataDisks {
    switch (level) {
    case 'raid1':
        return { reason: msg(N_('RAID 1 keeps a full copy on every disk and has no stripes: a file system needs no stripe options here.')) };
    case 'linear':
        return { reason: msg(N_('A linear array appends its disks one after another and has no stripes: a file system needs no stripe options here.')) };
    case 'raid0': case 'raid4': case 'raid5': case 'raid6': case 'raid10':
        break;
    default:
        return { reason: msg(N_('No stripe advice for level $0.'), level ?? '?') };
    }
    if (raidDisks === null) return { reason: msg(N_('The number of disks is not known yet.')) };
    if (level === 'raid10') return raid10DataDisks(raidDisks, layout);
    const parity = level === 'raid6' ? 2 : level === 'raid0' ? 0 : 1;
    const count = raidDisks - parity;
    return count >= 1 ? { count } : { reason: msg(N_('Too few disks for a stripe.')) };
}

/**
 * raid10 "near" layouts put the copies of a chunk on neighbouring disks, so a stripe row carries
 * disks / copies different chunks. Far and offset layouts spread the second copy elsewhere and an
 * uneven disk count shifts the rows: no single stripe width describes those, so none is advised.
 */
function raid10DataDisks(raidDisks: number, layout: number | null): DataDisks {
    const near = layout === null ? 2 : layout & 0xff;
    const far = layout === null ? 1 : (layout >> 8) & 0xff;
    if (far > 1) return { reason: msg(N_('This RAID 10 uses a far or offset layout: its copies do not form plain stripes, so no stripe width is advised.')) };
    if (near < 1 || raidDisks % near !== 0) {
        return { reason: msg(N_('This RAID 10 has $0 disks for $1 copies: its rows shift from stripe to stripe, so no stripe width is advised.'), raidDisks, near) };
    }
    return { count: raidDisks / near };
}

/** Chunk x data disks, ext4 stride/stripe_width in 4 KiB blocks, xfs su/sw, and the mkfs lines. */
export function stripeGeometry(devices: string[], chunkKiB: number, count: number): StripeGeometry {
    const stride = chunkKiB / FS_BLOCK_KIB;
    const stripeWidth = stride * count;
    return {
        chunkKiB,
        dataDisks: count,
        stripeWidthKiB: chunkKiB * count,
        ext4Stride: stride,
        ext4StripeWidth: stripeWidth,
        devices,
        commands: devices.flatMap(device => [
            `mkfs.ext4 -E stride=${stride},stripe_width=${stripeWidth} ${device}`,
            `mkfs.xfs -d su=${chunkKiB}k,sw=${count} ${device}`,
        ]),
    };
}

export function layoutAdvice(array: ArrayModel): LayoutAdvice {
    const { stripe, noStripe } = arrayStripe(array);
    const notes: Message[] = [];
    const reshape = array.sync?.reshape;
    if (stripe && reshape) {
        notes.push(msg(N_('A reshape from $0 to $1 disks is running: these values are for $1 disks, once it ends.'),
            reshape.fromDisks, reshape.toDisks));
    }
    const members = array.members.map(m => memberAlignment(m, stripe?.chunkKiB ?? null));
    const named = (verdict: AlignmentVerdict) => members.filter(m => m.verdict === verdict).map(m => m.name);
    const partitions = array.partitions.map(p => partitionAlignment(p.name, p.startSectors, stripe));
    return {
        stripe, noStripe, notes, members, misaligned: named('not-4kib'), offChunk: named('not-chunk'),
        partitions, offStripe: partitions.filter(p => p.verdict !== 'aligned' && p.verdict !== 'unknown').map(p => p.name),
    };
}

function arrayStripe(array: ArrayModel): { stripe: StripeGeometry | null; noStripe: Message | null } {
    const disks = dataDisks(array.level, array.raidDisks, array.layout);
    if ('reason' in disks) return { stripe: null, noStripe: disks.reason };
    if (!array.chunkKiB || array.chunkKiB < FS_BLOCK_KIB) return { stripe: null, noStripe: msg(N_('The chunk size is not known.')) };
    // With partitions on the array the file systems go there, not on the whole device.
    const devices = array.partitions.length ? array.partitions.map(p => `/dev/${p.name}`) : [array.device];
    return { stripe: stripeGeometry(devices, array.chunkKiB, disks.count), noStripe: null };
}

/**
 * A partition on the array moves everything in it against md's stripes (the old DOS 63-sector
 * partition on a striped volume). The file system counts stride and stripe width from the
 * partition's start, so that start must sit on the chunk for chunk-sized writes to fill chunks,
 * and on a full stripe for stripe-sized writes to fill stripes; otherwise each such write covers
 * the ends of two and md reads back to complete both.
 */
export function partitionAlignment(name: string, startSectors: number | null,
    stripe: StripeGeometry | null): PartitionAlignment {
    const base = { name, startSectors };
    if (startSectors === null) return { ...base, verdict: 'unknown', problem: null };
    if (startSectors % FOUR_KIB_SECTORS !== 0) {
        return { ...base, verdict: 'not-4kib', problem: msg(N_('Not a multiple of 4 KiB: the file system\'s blocks straddle the disks\' 4 KiB sectors, so every write becomes a read-modify-write.')) };
    }
    if (stripe && startSectors % (stripe.chunkKiB * SECTORS_PER_KIB) !== 0) {
        return { ...base, verdict: 'not-chunk', problem: msg(N_('Not on a $0 KiB chunk boundary: every chunk the file system lines up lands across two chunks of the array.'), stripe.chunkKiB) };
    }
    if (stripe && startSectors % (stripe.stripeWidthKiB * SECTORS_PER_KIB) !== 0) {
        return { ...base, verdict: 'not-stripe', problem: msg(N_('On a chunk boundary but not on a full $0 KiB stripe: a write the file system means as one full stripe covers parts of two, and md reads back to complete both.'), stripe.stripeWidthKiB) };
    }
    return { ...base, verdict: 'aligned', problem: null };
}

/**
 * The boundaries checked, worst first. 4 KiB: the physical sector of current disks and the page of
 * SSDs. The chunk (striped levels only): a device below that stripes too keeps each chunk whole.
 * 1 MiB: what partitioning tools use by default, a multiple of every smaller boundary and of most
 * SSD erase blocks, so a start there is right whatever lies below.
 */
export function memberAlignment(member: MemberModel, chunkKiB: number | null): MemberAlignment {
    const start = member.startSectors;
    const offset = member.dataOffsetSectors;
    const dataStart = start === null ? null : start + (offset ?? 0);
    const base = { name: member.name, startSectors: start, dataOffsetSectors: offset, dataStartSectors: dataStart };
    if (dataStart === null) return { ...base, verdict: 'unknown', problem: msg(N_('Where this member starts on its disk is not known.')) };
    if (dataStart % FOUR_KIB_SECTORS !== 0) {
        return { ...base, verdict: 'not-4kib', problem: msg(N_('Not a multiple of 4 KiB: every 4 KiB block written spans two physical sectors, which the disk must read, merge and write back.')) };
    }
    if (chunkKiB !== null && dataStart % (chunkKiB * SECTORS_PER_KIB) !== 0) {
        return { ...base, verdict: 'not-chunk', problem: msg(N_('Not a multiple of the $0 KiB chunk: on a device that stripes itself (a hardware RAID volume) each chunk straddles two of its stripes and is written with a read-modify-write.'), chunkKiB) };
    }
    if (dataStart % ONE_MIB_SECTORS !== 0) {
        return { ...base, verdict: 'not-1mib', problem: msg(N_('Not a multiple of 1 MiB, the boundary partitioning tools use: fine for the disk itself, but SSD erase blocks or a larger stripe below may not line up.')) };
    }
    return { ...base, verdict: 'aligned', problem: null };
}
