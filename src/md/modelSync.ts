// SPDX-License-Identifier: LGPL-2.1-or-later
// One array's running sync (progress, speed, ETA, the diagnosis' samples, the chart's trend) and its
// bitmap, from /proc/mdstat and the array's md/ attributes: the parts of buildModel() that read them.

import { addSample, sameLimits, smoothedEta, type Relearning, type SmoothedEta, type SyncLimits } from './eta';
import type { MdstatArray } from './mdstat';
import { llbitmapSyncScope, parseLlbitmapBits } from './llbitmapScope';
import { unmovedSince } from './stall';
import type { ArrayModel, MemberModel, SyncAction, SyncModel, SyncRunState, SyncScope } from './modelTypes';
import { parseBitmapLocation, parseBitmapType, parseIntValue, parseNumberOrNone, parseSyncCompleted } from './sysfs';

const MDSTAT_WORD_TO_ACTION: Record<string, SyncAction> = {
    resync: 'resync', recovery: 'recover', recover: 'recover', check: 'check', repair: 'repair', reshape: 'reshape',
};

export function buildSync(md: MdstatArray, attr: (name: string) => string | null,
    raidDisks: { count: number; previous: number | null } | null, arrayState: string | null,
    previous: SyncModel | null, takenAt: number,
    stoppedAt: (action: SyncAction) => { doneSectors: number; totalSectors: number } | null,
    limits: SyncLimits, rateAfterChange: () => number | null): SyncModel | null {
    const sysAction = attr('sync_action');
    const frozen = sysAction === 'frozen';
    if (!md.sync && !frozen) return null;
    // sysfs knows a repair from a resync (mdstat prints both as "resync"); when frozen, the
    // action that was interrupted is the last one.
    const action = MDSTAT_WORD_TO_ACTION[sysAction ?? ''] ?? MDSTAT_WORD_TO_ACTION[md.sync?.action ?? ''] ??
        MDSTAT_WORD_TO_ACTION[attr('last_sync_action') ?? ''] ?? 'resync';
    let runState: SyncRunState = frozen ? 'frozen' : md.sync?.state ?? 'pending';
    let pendingReason: SyncModel['pendingReason'] = null;
    if (runState === 'pending') {
        pendingReason = md.readOnly === 'auto-read-only' || arrayState === 'read-auto' ? 'auto-read-only' : 'not-started';
    }
    if (frozen && md.sync?.state === 'running') runState = 'frozen';

    let { percent = null, done: doneKiB = null, total: totalKiB = null } = md.sync ?? {};
    const coarsePosition = doneKiB === null;
    if (doneKiB === null) {
        // Fallback when mdstat has no counters (frozen/pending): sysfs counts coarse 512-byte sectors
        // while a sync thread exists, else md's saved position says where the sync stopped.
        const completed = parseSyncCompleted(attr('sync_completed')) ?? stoppedAt(action);
        if (completed && completed.totalSectors > 0) {
            doneKiB = completed.doneSectors / 2;
            totalKiB = completed.totalSectors / 2;
            percent = Math.floor((completed.doneSectors / completed.totalSectors) * 1000) / 10;
        }
    }
    // Frozen with nothing interrupted (no mdstat line, no saved position) is no sync at all:
    // the array is merely held from starting one (ArrayModel.syncFrozen says so).
    if (!md.sync && doneKiB === null) return null;
    const sameSync = previous && previous.action === action;
    const limitsChanged = !!sameSync && !sameLimits(previous.limits, limits);
    let history = sameSync && !limitsChanged ? previous.history : [];
    if (runState === 'running' && doneKiB !== null) history = addSample(history, { at: takenAt, doneKiB });
    const eta = runState === 'running' && totalKiB !== null ? smoothedEta(history, totalKiB) : null;
    const relearning = relearningAfter(limitsChanged, sameSync ? previous.relearning : null, takenAt, eta,
        rateAfterChange);

    return {
        action,
        runState,
        pendingReason,
        percent,
        doneKiB,
        totalKiB,
        perDevice: md.level !== 'raid10',
        speedKiBs: md.sync?.speedKiBs ?? (runState === 'running' ? parseIntValue(attr('sync_speed')) : null),
        kernelFinishMinutes: md.sync?.finishMinutes ?? null,
        eta,
        history,
        limits,
        relearning,
        ioSamples: [],
        trend: sameSync ? previous.trend : [],
        reshape: action === 'reshape' && raidDisks?.previous != null
            ? { fromDisks: raidDisks.previous, toDisks: raidDisks.count } : null,
        waitingFor: [],
        unmovedSince: unmovedSince(sameSync ? previous : null, runState, doneKiB, takenAt),
        coarsePosition,
        stall: null,
        scope: syncScope(attr, action, doneKiB, totalKiB),
    };
}

/** Where the array has the lockless bitmap, which chunks this sync reads and writes. */
function syncScope(attr: (name: string) => string | null, action: SyncAction, doneKiB: number | null,
    totalKiB: number | null): SyncScope | null {
    const bits = parseLlbitmapBits(attr('llbitmap/bits'));
    return bits && llbitmapSyncScope(bits, action, doneKiB, totalKiB);
}

/** Re-learning from a change of the limits on, until the estimate has measured RELEARN_S of its own. */
function relearningAfter(changed: boolean, previous: Relearning | null, takenAt: number, eta: SmoothedEta | null,
    rateAfterChange: () => number | null): Relearning | null {
    if (changed) return { since: takenAt, predictedKiBs: rateAfterChange() };
    if (!previous || (eta && eta.windowSeconds >= RELEARN_S)) return null;
    return takenAt - previous.since > RELEARN_GIVE_UP_MS ? null : previous;
}

/**
 * md measures its speed over its last ~30 s (SYNC_MARKS x SYNC_MARK_STEP) and throttles against
 * that: after a lowered maximum it stops until that average is under the new one, then catches up
 * (`make bench-eta`, run max-halved: 5% in 22 s, then 20% in 14 s). A shorter window after the
 * change measures the stop, not the speed.
 */
export const RELEARN_S = 30;

/** A sync that makes no measurable progress this long after a change is no longer "re-learning". */
const RELEARN_GIVE_UP_MS = 10 * RELEARN_S * 1000;

/**
 * Where a sync without a thread (frozen, pending) stopped, in 512-byte sectors: sync_completed then
 * reads "none", but md keeps a resync's position in resync_start (recovery_cp) and a rebuild's in
 * each rebuilding member's recovery_start. Out of component_size, except a raid10 resync, which walks
 * the array's addresses.
 */
export function stoppedPosition(action: SyncAction, level: string | null, attr: (name: string) => string | null,
    members: MemberModel[], arraySectors: number | null): { doneSectors: number; totalSectors: number } | null {
    let done: number | null = null;
    if (action === 'resync') {
        done = parseNumberOrNone(attr('resync_start'));
    } else if (action === 'recover') {
        const starts = members.flatMap(m => (m.role === 'rebuilding' && m.recoveryStartSectors !== null ? [m.recoveryStartSectors] : []));
        done = starts.length ? Math.min(...starts) : null;
    }
    const componentKiB = parseIntValue(attr('component_size'));
    const total = level === 'raid10' && action === 'resync' ? arraySectors : componentKiB === null ? null : componentKiB * 2;
    return done === null || !total ? null : { doneSectors: Math.min(done, total), totalSectors: total };
}

/**
 * The bitmap from md/bitmap_type where the kernel has it (its bracketed kind), else from
 * bitmap/location, else from /proc/mdstat's bitmap line. Newer kernels drop bitmap/location when
 * there is no bitmap, so a missing file alone never means "unknown": no line there means none.
 */
export function buildBitmap(md: MdstatArray, attr: (name: string) => string | null): ArrayModel['bitmap'] {
    const type = parseBitmapType(attr('bitmap_type'));
    if (type === 'none') return null;
    const counters = { pagesUsed: md.bitmap?.pagesUsed ?? null, pagesTotal: md.bitmap?.pagesTotal ?? null };
    // The lockless bitmap keeps its settings under llbitmap/, none of them its chunk in bytes.
    if (type === 'llbitmap') return { kind: 'llbitmap', chunkKiB: md.bitmap?.chunkKiB ?? null, ...counters };
    const location = parseBitmapLocation(attr('bitmap/location'));
    const chunkBytes = parseIntValue(attr('bitmap/chunksize'));
    if (location?.kind === 'none' || (location === null && md.bitmap === null)) return null;
    return {
        kind: location?.kind === 'file' || md.bitmap?.file ? 'file' : 'internal',
        chunkKiB: chunkBytes ? chunkBytes / 1024 : md.bitmap?.chunkKiB ?? null,
        ...counters,
    };
}
