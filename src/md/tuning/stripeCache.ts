// SPDX-License-Identifier: LGPL-2.1-or-later
// RAID4/5/6 stripe cache: more entries speed up rebuilds where md, not the disks, sets the pace (an
// admin measured a SATA RAID5 rebuild at 50 MB/s with 256 entries and 120 with 16384; `make
// bench-rebuild`'s seeking disks +50% idle, several times faster under other I/O) at a memory cost
// of page_size x member disks x entries (md(4)).

import { formatKiB } from '../format';
import type { ArrayModel, HostModel } from '../modelTypes';
import { hasStripeCache } from '../levels';
import { msg, N_, type Message } from '../message';
import { attributePlan } from '../plan';
import { ARRAY_SETTINGS, STRIPE_CACHE_DEFAULT } from '../settings/registry';
import { deviceStep, parseSetting } from '../settings/steps';
import { fieldError, type FieldError } from '../validate';
import type { PlanResult } from './result';

/**
 * The one memory policy for stripe caches, as shares of MemAvailable that a growth may take: past
 * `refuse` a change is refused (the machine must keep working), past `warn` it is allowed with a
 * warning. A preset stays within `warn` for all caches together, so it never needs a warning.
 */
export const STRIPE_CACHE_MEMORY = { refuse: 0.25, warn: 0.1 } as const;

export type MemoryVerdict = 'fits' | 'warn' | 'refuse' | 'unknown';

/** What growing the stripe caches by `extraBytes` means under the policy; shrinking always fits. */
export function memoryVerdict(extraBytes: number, availableKiB: number | null | undefined): MemoryVerdict {
    if (extraBytes <= 0) return 'fits';
    if (!availableKiB) return 'unknown';
    const share = extraBytes / (availableKiB * 1024);
    if (share > STRIPE_CACHE_MEMORY.refuse) return 'refuse';
    return share > STRIPE_CACHE_MEMORY.warn ? 'warn' : 'fits';
}

/**
 * A raid4/5/6 reshape moves whole chunks: the kernel starts one only while the stripe cache holds
 * four chunks' worth of stripes, of the larger of the old and the new chunk (raid5.c,
 * check_stripe_cache(): (max(chunk, new chunk) / STRIPE_SIZE) * 4 <= min_nr_stripes, the number
 * stripe_cache_size shows), and mdadm raises stripe_cache_size to that before it grows an array
 * (Grow.c, update_cache_size()). The kernel does not check it again when the cache is changed
 * during the reshape (raid5_set_cache_size() accepts 17..32768), so raidtune refuses a smaller one.
 */
export const RESHAPE_CHUNKS_IN_CACHE = 4;
/** md's stripe unit (DEFAULT_STRIPE_SIZE) where a kernel does not say (md/stripe_size, since 5.12). */
export const STRIPE_SIZE_BYTES = 4096;

/**
 * Bytes per member in one stripe, for the reshape's minimum: md/stripe_size where the kernel has it
 * (4 KiB by default, also on 64 KiB-page kernels). Before 5.12 it was the page; 4 KiB then asks
 * more entries than a 64 KiB-page kernel needs, which errs on the side that keeps a reshape going.
 */
export function stripeUnitBytes(array: ArrayModel): number {
    return array.stripeSizeBytes ?? STRIPE_SIZE_BYTES;
}

/** The fewest entries the array's reshape needs, or null when no reshape is under way. */
export function reshapeStripeCacheMin(array: ArrayModel): number | null {
    if (array.sync?.action !== 'reshape' || !array.chunkKiB) return null;
    const chunkBytes = Math.max(array.chunkKiB, array.previousChunkKiB ?? 0) * 1024;
    return Math.floor(chunkBytes / stripeUnitBytes(array)) * RESHAPE_CHUNKS_IN_CACHE;
}

export interface StripeCacheCost {
    bytes: number;
    /** Pages one stripe holds: the number of disks, fewer where md/stripe_size is below the page. */
    pagesPerStripe: number;
    /** Extra memory compared to the current size (negative when shrinking). */
    extraBytes: number;
    /** Shares of MemTotal / MemAvailable the extra memory takes; null when unknown. */
    ofTotal: number | null;
    ofAvailable: number | null;
}

/**
 * Whole pages one stripe holds: a page per member where the stripe unit is the page (md(4):
 * page size x disks x entries); with a smaller md/stripe_size (64 KiB pages, 4 KiB stripes) the
 * members' buffers share pages (raid5.c, init_stripe_shared_pages()).
 */
export function pagesPerStripe(pageSize: number, disks: number, stripeUnit = pageSize): number {
    const membersPerPage = Math.max(1, Math.floor(pageSize / stripeUnit));
    return Math.ceil(disks / membersPerPage);
}

export function stripeCacheBytes(pageSize: number, disks: number, entries: number, stripeUnit = pageSize): number {
    return pageSize * pagesPerStripe(pageSize, disks, stripeUnit) * entries;
}

export function stripeCacheCost(host: HostModel, array: ArrayModel, entries: number): StripeCacheCost | null {
    if (host.pageSize === null || array.raidDisks === null) return null;
    const unit = array.stripeSizeBytes ?? host.pageSize;
    const bytes = stripeCacheBytes(host.pageSize, array.raidDisks, entries, unit);
    const currentEntries = array.stripeCache?.size ?? STRIPE_CACHE_DEFAULT;
    const current = stripeCacheBytes(host.pageSize, array.raidDisks, currentEntries, unit);
    const extraBytes = bytes - current;
    const share = (kib: number | null | undefined) => (kib ? Math.max(0, extraBytes) / (kib * 1024) : null);
    return {
        bytes, pagesPerStripe: pagesPerStripe(host.pageSize, array.raidDisks, unit), extraBytes,
        ofTotal: share(host.memory?.totalKiB), ofAvailable: share(host.memory?.availableKiB),
    };
}

/** Whether raidtune can change this array's stripe cache, and if not why. */
export function stripeCacheUnavailable(array: ArrayModel): Message | null {
    if (!hasStripeCache(array.level)) return msg(N_('Only RAID 4, 5 and 6 arrays have a stripe cache.'));
    if (array.stripeCache === null) return msg(N_('The kernel does not offer stripe_cache_size for this array.'));
    return null;
}

/** What the dialog shows of what was typed: the plan, and the memory cost of any whole number typed. */
export interface StripeCacheChoice {
    result: PlanResult<'entries'>;
    /** The entries typed, also out of range (the dialog still shows what they would cost); null: not a number. */
    entries: number | null;
    cost: StripeCacheCost | null;
}

export function stripeCacheChoice(host: HostModel, array: ArrayModel, input: string): StripeCacheChoice {
    const text = input.trim();
    const entries = /^\d+$/.test(text) ? Number(text) : null;
    const cost = entries === null ? null : stripeCacheCost(host, array, entries);
    return { result: planFor(host, array, input, cost), entries, cost };
}

export function stripeCachePlan(host: HostModel, array: ArrayModel, input: string): PlanResult<'entries'> {
    return stripeCacheChoice(host, array, input).result;
}

/** `cost`: of the entries typed, when they are a whole number. */
function planFor(host: HostModel, array: ArrayModel, input: string, cost: StripeCacheCost | null): PlanResult<'entries'> {
    const unavailable = stripeCacheUnavailable(array);
    if (unavailable) return { errors: { entries: unavailable } };
    const entries = parseSetting(ARRAY_SETTINGS.stripeCache, input);
    if (entries.error) return { errors: { entries: entries.error } };
    const reshapeMin = reshapeStripeCacheMin(array);
    if (reshapeMin !== null && entries.value < reshapeMin) {
        return { errors: { entries: fieldError(N_('The running reshape needs at least $0 entries: four stripes per $2 of its $1 chunk. With fewer it stalls.'),
            reshapeMin, formatKiB(Math.max(array.chunkKiB!, array.previousChunkKiB ?? 0)),
            formatKiB(stripeUnitBytes(array) / 1024)).error } };
    }
    if (cost === null) return { errors: { entries: fieldError(N_('The page size or the number of disks is unknown, so the memory cost cannot be checked.')).error } };
    const warnings: FieldError[] = [];
    const verdict = memoryVerdict(cost.extraBytes, host.memory?.availableKiB);
    if (verdict === 'unknown') {
        return { errors: { entries: fieldError(N_('Available memory is unknown, so a larger cache cannot be checked.')).error } };
    }
    if (verdict === 'refuse') {
        return { errors: { entries: fieldError(N_('This needs $0% of the available memory; raidtune allows at most $1%.'),
            Math.round(cost.ofAvailable! * 100), STRIPE_CACHE_MEMORY.refuse * 100).error } };
    }
    if (verdict === 'warn') {
        warnings.push(msg(N_('This takes $0% of the available memory.'), Math.round(cost.ofAvailable! * 100)));
    }
    return {
        plan: attributePlan(msg(N_('Change the stripe cache of $0'), array.name), deviceStep(ARRAY_SETTINGS.stripeCache, array, entries.value)),
        warnings,
    };
}
