// SPDX-License-Identifier: LGPL-2.1-or-later
// Block device names and numbers the way Linux hands them out, so /proc/diskstats looks real:
// sd disks get the sd driver's major/minor scheme, nvme and extra partitions the dynamic
// "blkext" major 259, virtio-blk 16 minors per disk, md arrays major 9.

import type { DiskKind } from '../scenario/types';

const SD_MAJORS = [8, 65, 66, 67, 68, 69, 70, 71, 128, 129, 130, 131, 132, 133, 134, 135];
const BLOCK_EXT_MAJOR = 259;
const VIRTIO_MAJOR = 254;
export const MD_MAJOR = 9;
/** Partitions numbered above this get blkext numbers instead of the disk's own minors. */
const MINORS_PER_DISK = 16;

/** sda -> 0, sdz -> 25, sdaa -> 26 (bijective base 26, as the sd driver names disks). */
export function letterIndex(letters: string): number {
    let index = 0;
    for (const ch of letters) index = index * 26 + (ch.charCodeAt(0) - 96);
    return index - 1;
}

export function indexLetters(index: number): string {
    let letters = '';
    for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
        letters = String.fromCharCode(97 + (n - 1) % 26) + letters;
    return letters;
}

const NAME_PATTERNS: Record<DiskKind, RegExp> = {
    sata: /^sd([a-z]+)$/,
    sas: /^sd([a-z]+)$/,
    virtio: /^vd([a-z]+)$/,
    nvme: /^nvme(\d+)n(\d+)$/,
};

export function diskNameMatchesKind(name: string, kind: DiskKind): boolean {
    return NAME_PATTERNS[kind].test(name);
}

/** "sda" + 1 -> "sda1"; names ending in a digit take a "p" ("nvme0n1p1"). */
export function partitionName(diskName: string, number: number): string {
    return /\d$/.test(diskName) ? `${diskName}p${number}` : `${diskName}${number}`;
}

/** Hands out device numbers in registration order, like the kernel does at boot. */
/** The SCSI address of the host's one SES enclosure, its name in /sys/class/enclosure. */
export const SIM_ENCLOSURE = '6:0:16:0';

/** A slot's component name as SES enclosures often give it. */
export function enclosureSlotName(number: number): string {
    return `Slot ${String(number).padStart(2, '0')}`;
}

export class DeviceNumbers {
    private nextExtMinor = 0;
    private nextSlot = 0;

    /** The next free slot of the host's one enclosure, in the order the disks are declared. */
    enclosureSlot(): number {
        return this.nextSlot++;
    }

    disk(name: string, kind: DiskKind): { major: number; minor: number } {
        const letters = NAME_PATTERNS[kind].exec(name)?.[1];
        if (kind === 'nvme' || letters === undefined) return this.ext();
        const index = letterIndex(letters);
        if (kind === 'virtio') return { major: VIRTIO_MAJOR, minor: index * MINORS_PER_DISK };
        // The sd driver's scheme: 16 disks per major, 16 minors per disk, high index bits in the minor.
        return { major: SD_MAJORS[(index >> 4) & 0xf], minor: ((index & 0xf) << 4) | (index & 0xfff00) };
    }

    partition(disk: { major: number; minor: number; kind: DiskKind },
        number: number): { major: number; minor: number } {
        if (disk.kind === 'nvme' || number >= MINORS_PER_DISK) return this.ext();
        return { major: disk.major, minor: disk.minor + number };
    }

    private ext(): { major: number; minor: number } {
        return { major: BLOCK_EXT_MAJOR, minor: this.nextExtMinor++ };
    }
}

/** nr_requests the block layer picks: the tag depth alone, or twice it (capped) with a scheduler. */
export function defaultNrRequests(scheduler: string, hwTags: number): number {
    return scheduler === 'none' ? hwTags : 2 * Math.min(hwTags, 128);
}
