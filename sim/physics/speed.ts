// How fast a sync goes, per md_do_sync's throttle: with other I/O on its disks it backs off to
// the minimum speed, otherwise it runs up to the maximum; the slowest member disk caps both.

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
 * The speed a running sync settles at, KiB/s in its own sector space. md only backs off while it
 * is above speed_min and other I/O is pending, and sleeps while above speed_max: so a busy array
 * is held at the minimum, an idle one runs at the maximum (or the minimum if that is higher).
 */
export function syncRate(state: HostState, array: MdArray, busy: Set<Disk>, jitter: number): number {
    const sync = array.sync;
    if (!sync) return 0;
    const { min, max } = effectiveLimits(state, array);
    const throttled = syncTrafficFactors(array, sync.action).some(({ member }) => busy.has(member.disk));
    const goal = throttled ? min : Math.max(min, max);
    return Math.max(0, Math.min(goal, bandwidthLimit(array))) * jitter;
}
