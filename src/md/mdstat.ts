// Parser for /proc/mdstat. Pure: no I/O, never throws. (Implementation in progress.)

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
    /** Per-device 1 KiB blocks, not array blocks. */
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
}

export interface Mdstat {
    personalities: string[];
    arrays: MdstatArray[];
    problems: string[];
}

export function parseMdstat(_text: string): Mdstat {
    return { personalities: [], arrays: [], problems: ['parser not implemented yet'] };
}
