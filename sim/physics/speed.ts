// SPDX-License-Identifier: LGPL-2.1-or-later
// How fast a sync goes, per md_do_sync's throttle: with other I/O on its disks it backs off to
// the minimum speed (or, where the kernel has sync_io_depth, as far as its depth lets it go),
// otherwise it runs up to the maximum; the slowest member disk caps both.

import { isParityLevel } from '../model/levels';
import type { Disk, HostState, MdArray } from '../model/types';
import { perDeviceShare, syncTrafficFactors } from './traffic';

/** The array's own sync_speed_min/max if set ("local"), else the sysctls ("system"). */
export function effectiveLimits(state: HostState, array: MdArray): { min: number; max: number } {
    return {
        min: array.localSpeedMin ?? state.kernel.speedLimitMin,
        max: array.localSpeedMax ?? state.kernel.speedLimitMax,
    };
}

/** What the member disks allow, in the sync's own KiB/s: the busiest-per-bandwidth disk decides. */
export function bandwidthLimit(array: MdArray): number {
    const sync = array.sync;
    if (!sync) return 0;
    const demand = new Map<Disk, number>();
    for (const { member, read, write } of syncTrafficFactors(array, sync.action))
        demand.set(member.disk, (demand.get(member.disk) ?? 0) + read + write);
    let perDevice = Infinity;
    for (const [disk, perKiB] of demand) if (perKiB > 0) perDevice = Math.min(perDevice, disk.bandwidthKiBs / perKiB);
    return perDevice / perDeviceShare(array);
}

/**
 * The share of the disks' rate a parity sync reaches on disks that seek, with md's default 256
 * stripe cache entries and with 4096 or more: `make bench-rebuild`, case seek-raid5-cache
 * (doc/benchmarks.md), the members 48-52% busy at 256 entries, 75-81% at 4096 to 16384, moving
 * the same per busy second (the page's what-if, CACHE_REACHABLE_BUSY, predicts the second from
 * the first).
 */
export const CACHE_SHARE_AT_DEFAULT = 0.5;
export const CACHE_SHARE_AT_4096 = 0.8;

const cacheSteps = (array: MdArray) => Math.log2(array.stripeCacheSize / 256) / Math.log2(4096 / 256);

const seekingParity = (array: MdArray) => isParityLevel(array.level) && array.members.some(m => m.disk.seeks);

/**
 * On member disks that seek, md's stripe cache bounds a parity array's sync too: md keeps no more
 * stripes in flight than the cache holds, and the disks idle between batches. Between 256 and
 * 4096 entries the share grows with log2 of the size: the simulator's assumption, not measured.
 */
export function cacheBoundShare(array: MdArray): number {
    if (!seekingParity(array)) return 1;
    const share = CACHE_SHARE_AT_DEFAULT + (CACHE_SHARE_AT_4096 - CACHE_SHARE_AT_DEFAULT) * cacheSteps(array);
    return Math.max(0.1, Math.min(CACHE_SHARE_AT_4096, share));
}

/**
 * Under other I/O on disks that seek, md sends a parity sync in batches of at most its stripe
 * cache, each waiting behind the other requests and paying a seek: the throttled speed grows with
 * the batch. The simulator takes it as growing with the cache size, x16 at 4096 entries
 * (`make bench-rebuild`, seek-raid6-light and -load, measured x4 to x67); capped by the disks.
 */
export function cacheBatchFactor(array: MdArray): number {
    return seekingParity(array) ? Math.max(1, array.stripeCacheSize / 256) : 1;
}

/** What the member disks allow, within what the stripe cache lets md keep in flight. */
export function cacheBoundedLimit(array: MdArray): number {
    return bandwidthLimit(array) * cacheBoundShare(array);
}

/**
 * Other I/O's queue on a busy member, KiB: the simulator's stand-in for what md's sync waits
 * behind. A model constant (the simulator has no request timing), chosen so that the kernel's
 * default depth leaves a busy raid5 sync near its minimum and a raid1 one well above it.
 */
export const OTHER_IO_QUEUE_KIB = 1024;

/** What one unit of sync_io_depth stands for, KiB per device (md.c sync_io_within_limit()). */
function depthUnitKiB(array: MdArray): number {
    return isParityLevel(array.level) ? 4 : 64;
}

/**
 * The speed a busy array's sync reaches on a kernel with sync_io_depth: md_do_sync() waits for its
 * I/O only once depth x unit is in flight (then for all of it), so the sync gets the share of the
 * disks its in-flight limit has against the other I/O's queue; never less than the minimum (below
 * it md never waits), never more than the maximum.
 */
function depthLimitedRate(array: MdArray, depth: number, min: number, max: number): number {
    const inFlight = Math.max(0, depth) * depthUnitKiB(array);
    const share = inFlight / (inFlight + OTHER_IO_QUEUE_KIB);
    return Math.max(min, Math.min(max, bandwidthLimit(array) * share));
}

/**
 * The speed a running sync settles at, KiB/s in its own sector space. md only backs off while it
 * is above speed_min and other I/O is pending, and sleeps while above speed_max: so a busy array
 * is held at the minimum (on kernels with sync_io_depth: as far above it as its depth lets it go),
 * an idle one runs at the maximum (or the minimum if that is higher).
 */
export function syncRate(state: HostState, array: MdArray, busy: Set<Disk>, jitter: number): number {
    const sync = array.sync;
    if (!sync) return 0;
    const { min, max } = effectiveLimits(state, array);
    const throttled = syncTrafficFactors(array, sync.action).some(({ member }) => busy.has(member.disk));
    const depth = array.localSyncIoDepth ?? state.kernel.syncIoDepth;
    const busyGoal = depth === null ? min : depthLimitedRate(array, depth, min, max);
    const goal = throttled ? Math.min(Math.max(min, max), busyGoal * cacheBatchFactor(array)) : Math.max(min, max);
    return Math.max(0, Math.min(goal, cacheBoundedLimit(array))) * jitter;
}
