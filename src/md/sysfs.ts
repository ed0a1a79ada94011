// SPDX-License-Identifier: LGPL-2.1-or-later
// Parsers for single md sysfs / procfs values. Each takes the raw (trimmed) text or null and
// returns a typed value or null: a missing or odd attribute must never break a refresh.

export type LimitSource = 'local' | 'system';

export interface SpeedLimit {
    kiBs: number;
    source: LimitSource;
}

export function parseIntValue(text: string | null): number | null {
    if (text === null || !/^-?\d+$/.test(text)) return null;
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : null;
}

/**
 * A per-array attribute that follows a system-wide one unless the array has its own value, read
 * as "N (system)" or "N (local)" (md.c's sync_min_show, sync_max_show, sync_io_depth_show print
 * the int with "%d", so a value stored past INT_MAX reads negative).
 */
export interface LocalOrSystem {
    value: number;
    source: LimitSource;
}

export function parseLocalOrSystem(text: string | null): LocalOrSystem | null {
    const m = text?.match(/^(-?\d+)\s*\((local|system)\)$/);
    return m ? { value: Number(m[1]), source: m[2] as LimitSource } : null;
}

/** `sync_speed_min|max`: "1000 (system)" or "5000 (local)". */
export function parseSpeedLimit(text: string | null): SpeedLimit | null {
    const parsed = parseLocalOrSystem(text);
    return parsed && { kiBs: parsed.value, source: parsed.source };
}

/** How a LocalOrSystem value is written back: "system" or the array's own number. */
export function localOrSystemText(
    setting: { source: LimitSource } & ({ value: number } | { kiBs: number }) | null,
): string | null {
    if (setting === null) return null;
    if (setting.source === 'system') return 'system';
    return String('value' in setting ? setting.value : setting.kiBs);
}

/** `sync_completed`: "done / total" in 512-byte sectors; "none" or "delayed" otherwise. */
export function parseSyncCompleted(text: string | null): { doneSectors: number; totalSectors: number } | null {
    const m = text?.match(/^(\d+)\s*\/\s*(\d+)$/);
    return m ? { doneSectors: Number(m[1]), totalSectors: Number(m[2]) } : null;
}

/** `raid_disks`: "4", or "4 (3)" while a reshape changes the count from 3 to 4. */
export function parseRaidDisks(text: string | null): { count: number; previous: number | null } | null {
    const m = text?.match(/^(\d+)(?:\s*\((\d+)\))?$/);
    return m ? { count: Number(m[1]), previous: m[2] === undefined ? null : Number(m[2]) } : null;
}

/** `chunk_size`: bytes, or "new (old)" while a reshape changes the chunk (md.c chunk_size_show). */
export function parseChunkSize(text: string | null): { bytes: number; previousBytes: number | null } | null {
    const both = parseRaidDisks(text); // the same "N (M)" form
    return both && { bytes: both.count, previousBytes: both.previous };
}

/** Member `state`: comma list such as "in_sync,writemostly" or "faulty,blocked". */
export function parseMemberState(text: string | null): string[] {
    return text ? text.split(',').map(s => s.trim()).filter(Boolean) : [];
}

/** Member `slot` and `recovery_start`: a number or "none". */
export function parseNumberOrNone(text: string | null): number | null {
    return text === 'none' ? null : parseIntValue(text);
}

/** `bitmap/location`: "none", "file", or "+8" / "-16" (sectors from the superblock). */
export function parseBitmapLocation(text: string | null): { kind: 'none' | 'internal' | 'file'; offsetSectors: number | null } | null {
    if (text === null) return null;
    if (text === 'none') return { kind: 'none', offsetSectors: null };
    if (text === 'file') return { kind: 'file', offsetSectors: null };
    const offset = text.match(/^([+-]\d+)$/);
    return offset ? { kind: 'internal', offsetSectors: Number(offset[1]) } : null;
}

/**
 * A list of choices with the current one in brackets, as `queue/scheduler` and `md/bitmap_type`
 * print them ("none [mq-deadline] ", "[none] bitmap llbitmap "): current and available, in order.
 */
function parseBracketedChoice(text: string): { current: string | null; available: string[] } {
    const available: string[] = [];
    let current: string | null = null;
    // No regular expression per word: 2048 disks are parsed at every refresh.
    for (const word of text.split(/\s+/)) {
        if (!word) continue;
        const bracketed = word.length > 2 && word.startsWith('[') && word.endsWith(']');
        const name = bracketed ? word.slice(1, -1) : word;
        if (bracketed) current = name;
        available.push(name);
    }
    return { current, available };
}

/** `queue/scheduler`: "[none] mq-deadline kyber" -> current and available. */
export function parseScheduler(text: string | null): { current: string | null; available: string[] } | null {
    if (!text) return null;
    const parsed = parseBracketedChoice(text);
    // Devices without a scheduler list print just "none".
    if (parsed.current === null && parsed.available.length === 1) parsed.current = parsed.available[0];
    return parsed;
}

/**
 * `md/bitmap_type` (kernels since 2025): the bitmap kinds this kernel has, the array's in brackets
 * ("[none] bitmap", "none bitmap [llbitmap]"). Null where the kernel has no such file or names none.
 */
export function parseBitmapType(text: string | null): string | null {
    return text ? parseBracketedChoice(text).current : null;
}

/** The bitmap kinds `md/bitmap_type` lists (this kernel's); none where it has no such file. */
export function bitmapTypesOffered(text: string | null): string[] {
    return text ? parseBracketedChoice(text).available : [];
}

export interface MemInfo {
    totalKiB: number | null;
    availableKiB: number | null;
}

/** /proc/meminfo: "MemTotal:       16316412 kB" lines. */
export function parseMeminfo(text: string | null): MemInfo | null {
    if (text === null) return null;
    const field = (name: string) => {
        const m = text.match(new RegExp(`^${name}:\\s+(\\d+)\\s*kB`, 'm'));
        return m ? Number(m[1]) : null;
    };
    return { totalKiB: field('MemTotal'), availableKiB: field('MemAvailable') };
}

export interface DiskStats {
    readsCompleted: number;
    readSectors: number;
    writesCompleted: number;
    writeSectors: number;
    inFlight: number;
    ioMs: number;
}

/** /proc/diskstats: "major minor name reads merged sectors ms writes merged sectors ms inflight io_ms ...". */
export function parseDiskstats(text: string | null): Map<string, DiskStats> {
    return parseDiskstatsReusing(text, new Map()).stats;
}

/** Each /proc/diskstats line, as read, with the disk it names and its counters. */
export type DiskstatsLines = Map<string, [name: string, stats: DiskStats]>;

/**
 * parseDiskstats(), reusing the counters of every line that reads as it did last time (an idle
 * disk's): the same objects, not parsed again (2048 disks at every refresh at 128 arrays).
 */
export function parseDiskstatsReusing(text: string | null, known: ReadonlyMap<string, [string, DiskStats]>):
    { stats: Map<string, DiskStats>; lines: DiskstatsLines } {
    const stats = new Map<string, DiskStats>();
    const lines: DiskstatsLines = new Map();
    for (const line of text?.split('\n') ?? []) {
        const parsed = known.get(line) ?? parseDiskstatsLine(line);
        if (!parsed) continue;
        stats.set(parsed[0], parsed[1]);
        lines.set(line, parsed);
    }
    return { stats, lines };
}

function parseDiskstatsLine(line: string): [string, DiskStats] | null {
    const f = line.trim().split(/\s+/);
    if (f.length < 14) return null;
    // Only the fields the model holds are converted.
    return [f[2], {
        readsCompleted: Number(f[3]), readSectors: Number(f[5]), writesCompleted: Number(f[7]),
        writeSectors: Number(f[9]), inFlight: Number(f[11]), ioMs: Number(f[12]),
    }];
}
