// SPDX-License-Identifier: LGPL-2.1-or-later
// Which of the host's block devices can take the place of an array's member (issue #34), and why each
// other one cannot, before anything is written: a device in use (mounted, swap, holding an md array,
// LVM or an encrypted volume) is refused; so is one too small for what md uses of a member, or one
// whose logical block size is larger than the array's (Linux 6.19 refuses that add with
// "incompatible logical_block_size", after the old disk is out; older kernels take it and then fail
// the array's I/O of smaller blocks). A device with signatures on it is offered only once the admin
// chooses to wipe them; a different kind of disk or a much smaller physical block is a warning.

import { formatKiB } from '../format';
import { msg, N_, type Message } from '../message';
import type { ArrayModel, HostModel } from '../modelTypes';
import { withDescendants, type BlockDevice, type Signature } from './blockDevices';

/** What a device must have to take a member's place in the array. */
export interface ReplacementNeeds {
    array: string;
    /** The array's queue/logical_block_size: no member may have a larger one. */
    logicalBlockBytes: number;
    /** The smallest device md can use for the member (minimumMemberBytes). */
    minimumBytes: number;
    /** The working members' disks: all rotating (true), all not (false), mixed or unknown (null). */
    rotational: boolean | null;
    /** The largest physical block among the working members' disks, when known. */
    physicalBlockBytes: number | null;
    /** The disks that hold the array's members now: never candidates. */
    memberDisks: string[];
}

export interface CandidateVerdict {
    device: BlockDevice;
    /** Why it cannot take the member's place; empty when it can. */
    refusals: Message[];
    /** It can, with something to know first. */
    warnings: Message[];
    /** Signatures on it or its partitions: it is offered only once the admin chooses to wipe them. */
    signatures: Signature[];
}

/**
 * The smallest device md can use for a member. With the superblock at the start (1.1, 1.2) that is
 * md's data offset plus the space the array uses of each member (md/component_size); with it at
 * the end (1.0, 0.90) mdadm also keeps room there for the superblock, and the internal bitmap or the
 * bad-block log, whose size depends on how mdadm created it: the smallest working member's size
 * is what is known to be enough.
 */
export function minimumMemberBytes(metadata: string | null, dataOffsetSectors: number | null, componentKiB: number,
    smallestMemberBytes: number | null): number {
    const used = (dataOffsetSectors ?? 0) * 512 + componentKiB * 1024;
    const superblockAtStart = metadata === '1.1' || metadata === '1.2';
    if (superblockAtStart || smallestMemberBytes === null) return used;
    return Math.max(used, smallestMemberBytes);
}

/** Devices that are never worth listing: RAM disks and devices without media (an empty card reader). */
function isCandidateKind(device: BlockDevice): boolean {
    return (device.type === 'disk' || device.type === 'part') && device.sizeBytes > 0 && !/^z?ram\d+$/.test(device.name);
}

/** What already uses the device or anything on it, said as the admin would check it. */
function usesOf(device: BlockDevice): Message[] {
    const uses: Message[] = [];
    for (const d of withDescendants(device)) {
        for (const mountpoint of d.mountpoints) {
            uses.push(mountpoint === '[SWAP]'
                ? msg(N_('$0 is in use as swap.'), d.path)
                : msg(N_('$0 is mounted at $1.'), d.path, mountpoint));
        }
        if (d === device) continue;
        if (d.type.startsWith('raid') || d.type === 'md') uses.push(msg(N_('It holds a member of $0.'), d.name));
        else if (d.type === 'lvm') uses.push(msg(N_('It holds LVM volume $0.'), d.name));
        else if (d.type === 'crypt') uses.push(msg(N_('It holds encrypted volume $0.'), d.name));
        else if (d.type !== 'part') uses.push(msg(N_('$0 ($1) uses it.'), d.name, d.type));
    }
    return uses;
}

function bytesText(bytes: number): string {
    return formatKiB(bytes / 1024);
}

function refusalsOf(device: BlockDevice, disk: string, needs: ReplacementNeeds): Message[] {
    if (needs.memberDisks.includes(device.name)) return [msg(N_('It holds a member of $0 now.'), needs.array)];
    // Two members on one disk: that disk failing would take both.
    if (needs.memberDisks.includes(disk)) {
        return [msg(N_('It is on $0, which holds a member of $1 now: one disk failing would take two members.'), disk, needs.array)];
    }
    const refusals = usesOf(device);
    if (device.readOnly) refusals.push(msg(N_('The kernel has it read-only.')));
    if (device.sizeBytes < needs.minimumBytes) {
        refusals.push(msg(N_('Too small: $0, and $1 needs at least $2 for a member.'),
            bytesText(device.sizeBytes), needs.array, bytesText(needs.minimumBytes)));
    }
    if (device.logicalBlockBytes !== null && device.logicalBlockBytes > needs.logicalBlockBytes) {
        refusals.push(msg(N_('Its logical block size is $0 bytes, larger than the $1 bytes of $2: md cannot use it (Linux 6.19 refuses the add; older kernels take it and then fail the array\'s smaller writes).'),
            device.logicalBlockBytes, needs.logicalBlockBytes, needs.array));
    }
    return refusals;
}

function warningsOf(device: BlockDevice, needs: ReplacementNeeds): Message[] {
    const warnings: Message[] = [];
    if (needs.rotational !== null && device.rotational !== null && device.rotational !== needs.rotational) {
        warnings.push(device.rotational
            ? msg(N_('A rotating disk among solid-state members: $0 and its rebuilds will run at its pace.'), needs.array)
            : msg(N_('A solid-state disk among rotating members: $0 gains little from it, as the array runs at its slowest member\'s pace.'), needs.array));
    }
    // A quarter or less: a 512-byte physical block among 4 KiB ones (not 4 KiB among 512).
    if (needs.physicalBlockBytes !== null && device.physicalBlockBytes !== null &&
        device.physicalBlockBytes * 4 <= needs.physicalBlockBytes) {
        warnings.push(msg(N_('Its physical block is $0 bytes where the other members\' is $1: an older kind of disk, usually slower.'),
            device.physicalBlockBytes, needs.physicalBlockBytes));
    }
    return warnings;
}

/**
 * Each device that could be considered, judged: disks and partitions, with RAM disks and empty drives
 * left out. `signatures` holds what wipefs found per device name (its partitions' under their names).
 */
export function judgeCandidates(devices: BlockDevice[], signatures: ReadonlyMap<string, Signature[]>,
    needs: ReplacementNeeds): CandidateVerdict[] {
    const onDisk = devices.flatMap(disk => withDescendants(disk).map(device => ({ device, disk: disk.name })));
    return onDisk.filter(({ device }) => isCandidateKind(device)).map(({ device, disk }) => ({
        device,
        refusals: refusalsOf(device, disk, needs),
        warnings: warningsOf(device, needs),
        signatures: withDescendants(device).flatMap(d => signatures.get(d.name) ?? []),
    }));
}

/** The devices the dialog offers: nothing refused; with signatures only when the admin chose to wipe them. */
export function offeredCandidates(verdicts: CandidateVerdict[], wipeChosen: boolean): CandidateVerdict[] {
    return verdicts.filter(v => v.refusals.length === 0 && (wipeChosen || v.signatures.length === 0));
}

/** What the page reads about the array when the dialog opens: md/component_size and queue/logical_block_size. */
export interface ArrayBlockFacts {
    componentKiB: number;
    logicalBlockBytes: number;
}

/** The devices of the tree by kernel name. */
function byName(devices: BlockDevice[]): Map<string, BlockDevice> {
    return new Map(devices.flatMap(withDescendants).map(d => [d.name, d]));
}

/** All true, all false, or null when they differ or one is unknown. */
function sameKind(kinds: (boolean | null)[]): boolean | null {
    return kinds.length > 0 && kinds.every(k => k === kinds[0]) ? kinds[0] : null;
}

/** What a device must have to take the place of a member of `array`, from its working members. */
export function replacementNeeds(array: ArrayModel, host: HostModel, facts: ArrayBlockFacts,
    devices: BlockDevice[]): ReplacementNeeds {
    const named = byName(devices);
    const working = array.members.filter(m => m.role === 'active' || m.role === 'spare');
    const sizes = working.flatMap(m => named.get(m.name)?.sizeBytes ?? []);
    const offsets = working.flatMap(m => m.dataOffsetSectors ?? []);
    const physical = working.flatMap(m => named.get(m.disk)?.physicalBlockBytes ?? []);
    return {
        array: array.name,
        logicalBlockBytes: facts.logicalBlockBytes,
        minimumBytes: minimumMemberBytes(array.metadata, offsets.length ? Math.max(...offsets) : null,
            facts.componentKiB, sizes.length ? Math.min(...sizes) : null),
        rotational: sameKind(working.map(m => host.disks.get(m.disk)?.rotational ?? null)),
        physicalBlockBytes: physical.length ? Math.max(...physical) : null,
        memberDisks: [...new Set(array.members.map(m => m.disk))],
    };
}
