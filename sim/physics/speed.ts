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

/** The share of the disks' rate a parity sync reaches with md's default 256 stripe cache entries on disks that seek. */
export const DEFAULT_CACHE_SHARE = 0.57;

/**
 * On member disks that seek, md's stripe cache bounds a parity array's sync too: md keeps no more
 * stripes in flight than the cache holds, and the disks idle between batches. `make bench-rebuild`,
 * case seek-raid5-cache (doc/benchmarks.md): 256 entries reach 57% of what 4096 and more reach.
 * Between the two the share grows with log2 of the size: the simulator's assumption, not measured.
 */
export function cacheBoundShare(array: MdArray): number {
    if (!isParityLevel(array.level) || !array.members.some(m => m.disk.seeks)) return 1;
    const steps = Math.log2(array.stripeCacheSize / 256) / Math.log2(4096 / 256);
    return Math.max(0.1, Math.min(1, DEFAULT_CACHE_SHARE + (1 - DEFAULT_CACHE_SHARE) * steps));
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
    const goal = throttled ? busyGoal : Math.max(min, max);
    return Math.max(0, Math.min(goal, cacheBoundedLimit(array))) * jitter;
}
