// SPDX-License-Identifier: LGPL-2.1-or-later
// The write-intent bitmap: add an internal one with a chosen chunk size, or remove it, with
// `mdadm --grow`. The bitmap marks the regions being written, so after a crash (or when a disk
// that dropped out is added back) md resyncs only those regions; every write pays for the marks.
// Refusals follow mdadm 4.2's Grow_addbitmap and the kernel as checked on Linux 6.1: md refuses
// bitmap changes while ANY sync runs, waits or is paused (EBUSY even when frozen), so raidtune
// says why before mdadm has to; a lockless bitmap (llbitmap, kernels since 2025) is never changed
// by `--grow`. Chunk sizes and their cost: an admin's published measurement of sequential writes
// to a RAID with an internal bitmap of each chunk size (BITMAP_WRITE_PENALTY).

import { isRedundant } from '../levels';
import { msg, N_, type Message } from '../message';
import type { ArrayModel, SyncAction } from '../modelTypes';
import type { RunCommandStep } from '../plan';
import type { PlanResult } from './result';

export type BitmapAction = 'add' | 'remove';

const MIB = 1024;
const TIB = 1024 ** 3;

/** Chunk sizes offered, KiB: powers of two only (mdadm: "invalid bitmap chunksize: 3M", exit 2). */
export const BITMAP_CHUNKS_KIB = [4, 8, 16, 32, 64, 128, 256].map(m => m * MIB);

/** Sequential write speed with an internal bitmap of this chunk size, against none (the measurement above). */
export const BITMAP_WRITE_PENALTY: readonly { chunkKiB: number; sequentialWritePercent: number }[] = [
    { chunkKiB: 4 * MIB, sequentialWritePercent: -27 },
    { chunkKiB: 16 * MIB, sequentialWritePercent: -8.7 },
    { chunkKiB: 64 * MIB, sequentialWritePercent: -12 },
];

/** From a terabyte per member, chunks of 64 MiB or more (that measurement's advice and mdadm's own default). */
const LARGE_MEMBER_KIB = TIB;
const LARGE_MEMBER_CHUNK_KIB = 64 * MIB;
/** Smaller members: 16 MiB cost the least write speed in that measurement. */
const SMALL_MEMBER_CHUNK_KIB = 16 * MIB;

/**
 * What the bitmap spans, KiB: one member's data for raid1/4/5/6, the whole array for raid10
 * (mdadm's `bitmapsize`). Null when the size or the number of disks is unknown.
 */
export function bitmapCoverageKiB(array: ArrayModel): number | null {
    const { sizeKiB, raidDisks } = array;
    if (sizeKiB === null) return null;
    const dataDisks = (parity: number) =>
        (raidDisks !== null && raidDisks > parity ? sizeKiB / (raidDisks - parity) : null);
    switch (array.level) {
    case 'raid1':
    case 'raid10': return sizeKiB;
    case 'raid4':
    case 'raid5': return dataDisks(1);
    case 'raid6': return dataDisks(2);
    default: return null;
    }
}

/**
 * Bytes mdadm left for the bitmap between superblock and data when it created the array
 * (super1.c choose_bm_space(); 0.90 has a fixed 60 KiB). Sized from the coverage, which for
 * raid10 is more than a member: only matters for raid10 members under 200 GiB.
 */
function bitmapSpaceBytes(coverageKiB: number, metadata: string | null): number {
    if (metadata === '0.90') return 60 * 1024;
    if (coverageKiB - 64 >= 200 * 1024 * MIB) return 128 * 1024;
    if (coverageKiB - 4 > 8 * 1024 * MIB) return 64 * 1024;
    return 4 * 1024;
}

/** The bitmap's own header (bitmap_super_t) takes part of that space. */
const BITMAP_SUPER_BYTES = 256;

/**
 * The smallest chunk mdadm accepts, KiB: one bit per chunk must fit in the bitmap space
 * (add_internal_bitmap1's loop, same rounding). Smaller ones fail with "failed to create internal
 * bitmap - chunksize problem." For a 4 TB member this is 4 MiB; it doubles with the size.
 */
export function smallestBitmapChunkKiB(coverageKiB: number, metadata: string | null): number {
    const maxBits = (bitmapSpaceBytes(coverageKiB, metadata) - BITMAP_SUPER_BYTES) * 8;
    let chunkBytes = 4096; // mdadm: "sub-page chunks don't work yet"
    let bits = Math.floor((coverageKiB * 1024) / chunkBytes) + 1;
    while (bits > maxBits) {
        chunkBytes *= 2;
        bits = Math.floor((bits + 1) / 2);
    }
    return chunkBytes / 1024;
}

export interface BitmapChunkChoice {
    chunkKiB: number;
    recommended: boolean;
    /** Why mdadm would refuse this size for the array; null when it fits. */
    tooSmall: Message | null;
}

export interface BitmapGuidance {
    coverageKiB: number | null;
    recommendedKiB: number;
    choices: BitmapChunkChoice[];
    /** How the recommendation was chosen. */
    advice: Message;
    /** The published write measurement, and where it comes from. */
    penalty: typeof BITMAP_WRITE_PENALTY;
    penaltySource: Message;
}

/** "64 MiB": every offered chunk is a whole number of MiB. */
export function chunkLabel(chunkKiB: number): string {
    return chunkKiB % MIB === 0 ? `${chunkKiB / MIB} MiB` : `${chunkKiB} KiB`;
}

/** The chunk sizes to offer for this array, the recommended one marked, the ones mdadm would refuse explained. */
export function bitmapGuidance(array: ArrayModel): BitmapGuidance {
    const coverageKiB = bitmapCoverageKiB(array);
    const smallest = coverageKiB === null ? 0 : smallestBitmapChunkKiB(coverageKiB, array.metadata);
    // Unknown size: mdadm's own default, which fits any array up to 64 TiB per member.
    const wanted = coverageKiB === null || coverageKiB >= LARGE_MEMBER_KIB
        ? LARGE_MEMBER_CHUNK_KIB : SMALL_MEMBER_CHUNK_KIB;
    const fitting = BITMAP_CHUNKS_KIB.filter(c => c >= smallest);
    const recommendedKiB = fitting.find(c => c >= wanted) ?? fitting[fitting.length - 1] ??
        BITMAP_CHUNKS_KIB[BITMAP_CHUNKS_KIB.length - 1];
    const choices = BITMAP_CHUNKS_KIB.map(chunkKiB => ({
        chunkKiB,
        recommended: chunkKiB === recommendedKiB,
        tooSmall: chunkKiB >= smallest ? null
            : msg(N_('Too small for this array: mdadm fits one bit per chunk into the space it reserved for the bitmap, which needs chunks of $0 or more here.'),
                chunkLabel(smallest)),
    }));
    return {
        coverageKiB,
        recommendedKiB,
        choices,
        advice: msg(N_('For members of a terabyte or more, use chunks of 64 MiB or more; for smaller ones 16 MiB cost the least write speed in the measurement.')),
        penalty: BITMAP_WRITE_PENALTY,
        penaltySource: msg(N_('Sequential write speed with an internal bitmap compared to none: bonnie++ on a RAID 10 of six 500 GB SATA disks (2013).')),
    };
}

// --- Why not now ---------------------------------------------------------------------------

const SYNC_REFUSALS: Record<SyncAction, string> = {
    resync: N_('A resync is in progress or waiting to run. md refuses bitmap changes until it has finished.'),
    recover: N_('A rebuild is in progress or waiting to run. md refuses bitmap changes until it has finished.'),
    check: N_('A check is in progress. md refuses bitmap changes until it has finished or is stopped.'),
    repair: N_('A repair is in progress. md refuses bitmap changes until it has finished or is stopped.'),
    reshape: N_('A reshape is in progress. md refuses bitmap changes until it has finished.'),
};

/**
 * Any sync, even a paused or waiting one, makes md answer EBUSY (checked on Linux 6.1); so does a
 * frozen array with no sync at all (md checks its recovery flags, and "frozen" is one of them).
 */
function syncRefusal(array: ArrayModel): Message | null {
    const sync = array.sync;
    if (array.syncFrozen || sync?.runState === 'frozen') {
        return msg(N_('A sync is paused (frozen). md refuses bitmap changes even then: resume it and let it finish first.'));
    }
    if (!sync) return null;
    return msg(SYNC_REFUSALS[sync.action]);
}

function stateRefusal(array: ArrayModel): Message | null {
    if (array.health === 'inactive') return msg(N_('The array is not running.'));
    if (array.readOnly === 'auto-read-only' || array.arrayState === 'read-auto') {
        return msg(N_('The array is auto-read-only: nothing has written to it since it was started. md makes it read-write at the first write; change the bitmap after that.'));
    }
    if (array.readOnly === 'read-only' || array.arrayState === 'readonly') {
        return msg(N_('The array is read-only. The bitmap can only be changed while it runs read-write.'));
    }
    return null;
}

function layoutRefusal(array: ArrayModel): Message | null {
    if (!isRedundant(array.level)) {
        // mdadm: "Bitmaps not meaningful with level raid0"
        return msg(N_('$0 arrays keep no redundancy, so there is nothing for a bitmap to resync (mdadm: "Bitmaps not meaningful with level $0").'),
            array.level ?? '?');
    }
    if (array.metadata?.startsWith('external:')) {
        // mdadm: "Cannot add bitmaps to sub-arrays yet"
        return msg(N_('The array\'s metadata is managed outside the kernel ($0, such as Intel IMSM or DDF); mdadm cannot add or remove a bitmap on such arrays.'),
            array.metadata);
    }
    return null;
}

/**
 * mdadm writes a lockless bitmap only when it creates an array (super1.c: "lockless bitmap is only
 * supported with creating the array with 1.2 metadata"), and md switches an array's bitmap kind
 * (md/bitmap_type) only while it is stopped: `--grow` neither adds nor removes one.
 */
const LLBITMAP_REFUSAL = N_('The array has a lockless bitmap (llbitmap, experimental in md). mdadm chooses it only when it creates an array (--bitmap=lockless) and cannot add or remove it with --grow; md changes the kind of bitmap only while the array is stopped.');

function presenceRefusal(array: ArrayModel, action: BitmapAction): Message | null {
    const bitmap = array.bitmap;
    if (bitmap?.kind === 'llbitmap') return msg(LLBITMAP_REFUSAL);
    if (action === 'add') {
        if (bitmap) return msg(N_('The array already has a write-intent bitmap.'));
        // Both keep the RAID 5 write hole closed in their own way; md runs only one of them.
        if (array.consistencyPolicy === 'ppl') return msg(N_('The array uses a partial parity log (PPL); md cannot use a bitmap at the same time (mdadm: "Cannot add bitmap to array with PPL").'));
        if (array.consistencyPolicy === 'journal') return msg(N_('The array has a write journal; md cannot use it together with a bitmap.'));
        return null;
    }
    if (!bitmap) return msg(N_('The array has no write-intent bitmap.'));
    // mdadm would remove it, but raidtune could not put it back: the file's path and settings are mdadm's.
    if (bitmap.kind === 'file') return msg(N_('This bitmap is kept in a file, which raidtune does not manage and could not put back. Remove it with mdadm --grow --bitmap=none if you mean to.'));
    return null;
}

/**
 * True when the array's present state alone stops a bitmap change (a sync, a pause, a read-only
 * start): the page does not offer it until that passes.
 */
export function bitmapWaitsForState(array: ArrayModel): boolean {
    return stateRefusal(array) !== null || syncRefusal(array) !== null;
}

/** Why the bitmap cannot be added or removed now, or null when mdadm should do it. */
export function bitmapUnavailable(array: ArrayModel, action: BitmapAction): Message | null {
    return stateRefusal(array) ?? layoutRefusal(array) ?? presenceRefusal(array, action) ?? syncRefusal(array);
}

// --- Plans ---------------------------------------------------------------------------------

/** "64M": mdadm's size syntax (a number with K, M, G or T). */
function mdadmSize(chunkKiB: number): string {
    return chunkKiB % MIB === 0 ? `${chunkKiB / MIB}M` : `${chunkKiB}K`;
}

/**
 * Always with an explicit --bitmap=: mdadm 4.4 asks an interactive y/N question about bitmaps
 * otherwise, which would hang a call without a terminal.
 */
function growArgv(array: ArrayModel, bitmap: 'internal' | 'none', chunkKiB: number | null = null): string[] {
    const argv = ['mdadm', '--grow', array.device, `--bitmap=${bitmap}`];
    if (chunkKiB !== null) argv.push(`--bitmap-chunk=${mdadmSize(chunkKiB)}`);
    return argv;
}

export function bitmapPlanTitle(array: ArrayModel, action: BitmapAction): Message {
    return action === 'add'
        ? msg(N_('Add a write-intent bitmap to $0'), array.name)
        : msg(N_('Remove the write-intent bitmap of $0'), array.name);
}

function growStep(array: ArrayModel, argv: string[], undoArgv: string[]): RunCommandStep {
    return { kind: 'run', setting: msg(N_('write-intent bitmap of $0'), array.name), argv, undoArgv };
}

export type BitmapPlanResult = PlanResult<'bitmap' | 'chunk'>;

/** `mdadm --grow /dev/mdX --bitmap=internal --bitmap-chunk=64M`, undone by removing it again. */
export function bitmapAddPlan(array: ArrayModel, chunkKiB: number): BitmapPlanResult {
    const unavailable = bitmapUnavailable(array, 'add');
    if (unavailable) return { errors: { bitmap: unavailable } };
    const choice = bitmapGuidance(array).choices.find(c => c.chunkKiB === chunkKiB);
    if (!choice) return { errors: { chunk: msg(N_('Choose one of the offered chunk sizes.')) } };
    if (choice.tooSmall) return { errors: { chunk: choice.tooSmall } };
    return {
        plan: {
            title: bitmapPlanTitle(array, 'add'),
            steps: [growStep(array, growArgv(array, 'internal', chunkKiB), growArgv(array, 'none'))],
        },
        warnings: [],
    };
}

/** `mdadm --grow /dev/mdX --bitmap=none`, undone by adding one with the chunk size it had. */
export function bitmapRemovePlan(array: ArrayModel): BitmapPlanResult {
    const unavailable = bitmapUnavailable(array, 'remove');
    if (unavailable) return { errors: { bitmap: unavailable } };
    // Chunk size unknown (no sysfs, no mdstat line): the undo lets mdadm choose, as at creation.
    const undo = growArgv(array, 'internal', array.bitmap!.chunkKiB);
    const warnings = array.health === 'degraded'
        ? [msg(N_('The array is degraded: without the bitmap, a missing disk that comes back is rebuilt completely instead of only where it missed writes.'))]
        : [];
    return {
        plan: { title: bitmapPlanTitle(array, 'remove'), steps: [growStep(array, growArgv(array, 'none'), undo)] },
        warnings,
    };
}

// --- When mdadm still says no --------------------------------------------------------------

// mdadm 4.2's own words (Grow_addbitmap). The executor keeps the text after the last colon of its
// last line, so "Cannot add bitmap while array is resyncing..." arrives as "failed to set internal bitmap.".
const FAILURE_HINTS: [RegExp, string][] = [
    [/resyncing or reshaping|failed to (set|remove) internal bitmap/i,
        N_('md refuses bitmap changes while the array syncs, even when the sync is paused. Wait until it has finished, then try again.')],
    [/already present|already has a bitmap/i,
        N_('The array has a bitmap already: it was probably added meanwhile. Close this dialog; the page shows the current state at its next refresh.')],
    [/no bitmap found/i,
        N_('The array has no bitmap any more: it was probably removed meanwhile. Close this dialog; the page shows the current state at its next refresh.')],
    [/chunksize problem/i,
        N_('The space mdadm reserved for the bitmap when the array was created holds too few chunks of this size: choose a larger chunk.')],
    [/invalid bitmap chunksize/i, N_('mdadm takes only powers of two as chunk sizes.')],
    [/not meaningful with level/i, N_('Arrays without redundancy (RAID 0, linear) cannot have a bitmap.')],
    [/with PPL/i, N_('The array uses a partial parity log (PPL) instead of a bitmap.')],
    [/sub-arrays/i, N_('The array\'s metadata is managed outside the kernel (IMSM, DDF): mdadm cannot change its bitmap.')],
    [/not-found|No such file or directory/i, N_('mdadm or the array was not found: is the mdadm package installed, and is the array still running?')],
];

/** What to do about a failure mdadm reported for a bitmap change; null when there is nothing to add. */
export function bitmapFailureHint(reason: string): Message | null {
    const hint = FAILURE_HINTS.find(([pattern]) => pattern.test(reason));
    return hint ? msg(hint[1]) : null;
}
