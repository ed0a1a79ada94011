// SPDX-License-Identifier: LGPL-2.1-or-later
// What parseMdstat() (src/md/mdstat.ts) reads of /proc/mdstat: the arrays, their members, sync and bitmap.

export type MemberFlag = 'faulty' | 'spare' | 'write-mostly' | 'replacement' | 'journal';

export interface MdstatMember {
    name: string;
    /** The number in brackets: the kernel's descriptor number, NOT the slot (take slots from sysfs). */
    role: number | null;
    flags: MemberFlag[];
}

export type SyncRunState = 'running' | 'delayed' | 'pending';

export interface MdstatSync {
    /** The word mdstat prints: resync, recovery, check, reshape (a repair prints as resync). */
    action: string;
    state: SyncRunState;
    percent: number | null;
    /**
     * 1 KiB blocks per member device, not array blocks (raid1/4/5/6); raid10 counts its resync over
     * the whole array.
     */
    done: number | null;
    total: number | null;
    finishMinutes: number | null;
    speedKiBs: number | null;
}

export interface MdstatBitmap {
    pagesUsed: number | null;
    pagesTotal: number | null;
    sizeKiB: number | null;
    chunkKiB: number | null;
    file: string | null;
}

export interface MdstatArray {
    name: string;
    state: 'active' | 'inactive';
    readOnly: false | 'read-only' | 'auto-read-only';
    level: string | null;
    members: MdstatMember[];
    /** Array size in 1 KiB blocks. */
    blocks: number | null;
    super: string | null;
    disks: { total: number; active: number } | null;
    status: string | null;
    sync: MdstatSync | null;
    bitmap: MdstatBitmap | null;
    chunkKiB: number | null;
    // The layout details below are optional so that hand-built arrays (tests, simulator) need not
    // spell them out; parseMdstat always sets them.
    /** raid4/5/6 layout number (`algorithm 2`). */
    algorithm?: number | null;
    /** linear arrays print `Nk rounding` instead of a chunk size. */
    roundingKiB?: number | null;
    /** raid10 `N near-copies` / `N far-copies` / `N offset-copies`. */
    nearCopies?: number | null;
    farCopies?: number | null;
    offsetCopies?: number | null;
}

export interface Mdstat {
    personalities: string[];
    arrays: MdstatArray[];
    problems: string[];
}
