// SPDX-License-Identifier: LGPL-2.1-or-later
// A running sync that makes no progress: md's thread exists and is not paused, delayed or pending,
// yet its position has not moved for a while. md reaching a sync_max and waiting there, a reshape
// whose stripe cache is too small, a member that stopped answering: all look like this from
// outside. Where what the page reads tells the reason, it is given.

import type { ArrayModel, StallReason, SyncModel, SyncRunState, SyncStall } from './modelTypes';
import { reshapeStripeCacheMin } from './tuning/stripeCache';

/**
 * Two minutes without any movement of mdstat's position. A healthy sync never stays put that
 * long: md guarantees it speed_limit_min (default 1000 KiB/s) even under other I/O, and mdstat's
 * position (curr_resync less the requests in flight) moves with every request, a few KiB to a
 * chunk at a time, so even a sync held at a minimum of 1 KiB/s moves within two minutes. It is
 * also the kernel's hung-task timeout: a sync thread blocked this long on a member that stopped
 * answering is what md would warn about (md waits at sync_max interruptibly, without a warning).
 */
export const STALL_AFTER_MS = 120 * 1000;

/**
 * Without mdstat's counters the position comes from sync_completed, which md moves in steps: every
 * 1/16 of the device or at least every 5 minutes (UPDATE_FREQUENCY). A slow, healthy sync may not
 * take a step for 5 minutes, so such a position must stand still longer before it counts.
 */
export const COARSE_STALL_AFTER_MS = 6 * 60 * 1000;

/**
 * Since when a running sync's position has been where it is now; null when it is not running
 * (frozen, DELAYED, PENDING: waiting is then what it was told to do) or has no position. Any
 * movement, however small, starts it again: a slow sync is not a stalled one. `previous` is the
 * same sync's model at the last refresh, null for a new sync.
 */
export function unmovedSince(previous: Pick<SyncModel, 'runState' | 'doneKiB' | 'unmovedSince'> | null,
    runState: SyncRunState, doneKiB: number | null, takenAt: number): number | null {
    if (runState !== 'running' || doneKiB === null) return null;
    if (previous?.runState === 'running' && previous.doneKiB === doneKiB && previous.unmovedSince !== null) {
        return previous.unmovedSince;
    }
    return takenAt;
}

/** The array's sync is stalled (see STALL_AFTER_MS): since when, and why where it can be told. */
export function syncStall(array: ArrayModel, takenAt: number): SyncStall | null {
    const sync = array.sync;
    if (!sync || sync.unmovedSince === null) return null;
    const forMs = takenAt - sync.unmovedSince;
    if (forMs < (sync.coarsePosition ? COARSE_STALL_AFTER_MS : STALL_AFTER_MS)) return null;
    return { since: sync.unmovedSince, forMs, reason: stallReason(array) };
}

function stallReason(array: ArrayModel): StallReason | null {
    const sync = array.sync!;
    // md stops once its position reaches sync_max; mdstat counts whole KiB, so the position it
    // shows may be one sector short of the bound.
    if (array.syncMaxSectors !== null && sync.doneKiB !== null && sync.doneKiB * 2 + 1 >= array.syncMaxSectors) {
        return { kind: 'sync-max', sectors: array.syncMaxSectors };
    }
    const needed = reshapeStripeCacheMin(array);
    if (needed !== null && array.stripeCache && array.stripeCache.size < needed) {
        return { kind: 'stripe-cache', size: array.stripeCache.size, needed };
    }
    return null;
}
