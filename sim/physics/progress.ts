// SPDX-License-Identifier: LGPL-2.1-or-later
// Moving a running sync forward: its position (what mdstat shows, smoothly), its coarse
// checkpoint (what sysfs sync_completed shows), the mismatches a check finds, and the speed marks
// the kernel averages speed= and finish= over.

import { degradedCount } from '../model/array';
import { roundDown, syncGranularity } from '../model/levels';
import { isRequestedSync, recordCheckpoint, syncEnd } from '../model/sync';
import type { MdArray, SyncRun } from '../model/types';

/** md_do_sync rewrites curr_resync_completed at least every 5 minutes ... */
const CHECKPOINT_SECONDS = 300;
/** ... and raid5's reshape checkpoints every 10 seconds. */
const RESHAPE_CHECKPOINT_SECONDS = 10;
/** The kernel keeps 10 speed marks 3 s apart: speed= averages over the last ~30 s. */
const MARK_STEP_SECONDS = 3;
const MARKS_KEPT = 11;
const TIME_EPSILON = 1e-6;
const MIN_IO_SHARE = 1e-9;

/** The next checkpoint md would take between (t0, p0) and (t1, p1) at a steady rate, if any. */
function nextCheckpoint(array: MdArray, sync: SyncRun, t0: number, p0: number, rate: number, t1: number,
    p1: number): { time: number; position: number } | null {
    const granularity = syncGranularity(array.level);
    const reshape = sync.action === 'reshape';
    let best: { time: number; position: number } | null = null;

    const timerAt = Math.max(t0, sync.lastCheckpointAt + (reshape ? RESHAPE_CHECKPOINT_SECONDS : CHECKPOINT_SECONDS));
    if (timerAt <= t1 + TIME_EPSILON) {
        const position = Math.max(sync.completed, roundDown(Math.min(p1, p0 + (timerAt - t0) * rate), granularity));
        best = { time: timerAt, position };
    }
    // Every time curr_resync gets more than 1/16 of the way past the last checkpoint (not for a
    // reshape): the first request boundary beyond that mark becomes the new checkpoint.
    if (!reshape && rate > 0) {
        const position = (Math.floor((sync.completed + Math.floor(sync.total / 16)) / granularity) + 1) * granularity;
        const time = t0 + (position - p0) / rate;
        if (position <= p1 && (!best || time < best.time)) best = { time: Math.max(t0, time), position };
    }
    return best;
}

function takeCheckpoints(array: MdArray, sync: SyncRun, t0: number, p0: number, rate: number, t1: number,
    p1: number): void {
    const next = () => nextCheckpoint(array, sync, t0, p0, rate, t1, p1);
    for (let cp = next(); cp; cp = next())
        recordCheckpoint(array, sync, cp.position, cp.time);
}

/** A check counts what it passes over; with a member missing there is nothing to compare. */
function countMismatches(array: MdArray, sync: SyncRun, p0: number, p1: number): void {
    if (isRequestedSync(sync.action) && degradedCount(array) === 0)
        array.mismatchesFound += array.latentMismatchSectors * (p1 - p0) / sync.total;
}

/** Record the marks md would have taken every 3 s between (t0, p0) and t1 at a steady rate. */
function takeMarks(sync: SyncRun, t0: number, p0: number, rate: number, t1: number): void {
    const last = sync.marks[sync.marks.length - 1];
    let t = last ? last.time + MARK_STEP_SECONDS : t0;
    // Only the newest marks survive: skip ahead over the ones that would be dropped anyway.
    const skip = Math.floor((t1 - t) / MARK_STEP_SECONDS) + 1 - MARKS_KEPT;
    if (skip > 0) t += skip * MARK_STEP_SECONDS;
    for (; t <= t1 + TIME_EPSILON; t += MARK_STEP_SECONDS) {
        sync.marks.push({ time: t, position: Math.min(sync.total, p0 + (t - t0) * rate) });
        if (sync.marks.length > MARKS_KEPT) sync.marks.shift();
    }
}

/** Sectors of position a second: what md skips it passes at once (a share of 0 ends the sync now). */
export const positionRate = (sync: SyncRun) => sync.rateKiBs * 2 / Math.max(sync.ioShare, MIN_IO_SHARE);

/** Advance a running sync by `seconds` at its current rate, starting at time `t0`. */
export function advanceSync(array: MdArray, sync: SyncRun, t0: number, seconds: number): void {
    const rate = positionRate(sync);
    const p0 = sync.position;
    const end = syncEnd(array, sync);
    let p1 = Math.min(end, p0 + rate * seconds);
    if (end - p1 < 0.5) p1 = end;
    takeCheckpoints(array, sync, t0, p0, rate, t0 + seconds, p1);
    countMismatches(array, sync, p0, p1);
    sync.position = p1;
    takeMarks(sync, t0, p0, rate, t0 + seconds);
}

/**
 * A sync the scenario starts mid-way gets the history it would have had: speed marks over the
 * last 30 s and the checkpoints md would have taken since it began, at today's rate.
 */
export function primeSync(array: MdArray, sync: SyncRun, now: number): void {
    const rate = positionRate(sync);
    const target = sync.position;
    if (rate <= 0 || target <= 0) return;
    const began = now - target / rate;
    recordCheckpoint(array, sync, 0, began);
    takeCheckpoints(array, sync, began, 0, rate, now, target);
    countMismatches(array, sync, 0, target);
    const span = Math.min(MARK_STEP_SECONDS * (MARKS_KEPT - 1), target / rate);
    sync.marks = [];
    for (let t = now - span; t < now - TIME_EPSILON; t += MARK_STEP_SECONDS)
        sync.marks.push({ time: t, position: target - (now - t) * rate });
    sync.marks.push({ time: now, position: target });
}

/** speed= and finish= average over the oldest mark: whole seconds elapsed and sectors done since. */
export function speedWindow(sync: SyncRun, now: number): { seconds: number; sectors: number } {
    const mark = sync.marks[0] ?? { time: now, position: sync.position };
    return {
        seconds: Math.max(1, Math.floor(now - mark.time + TIME_EPSILON)),
        // md's speed counts the sectors it synced, not those it skipped.
        sectors: Math.max(0, Math.floor((sync.position - mark.position) * sync.ioShare)),
    };
}

/** sync_speed and mdstat speed=: KiB/s over the window. */
export function windowSpeedKiBs(sync: SyncRun, now: number): number {
    const { seconds, sectors } = speedWindow(sync, now);
    return Math.floor(sectors / 2 / seconds);
}
