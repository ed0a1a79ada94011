// SPDX-License-Identifier: LGPL-2.1-or-later
// How long the rebuild onto a new member may take, before it starts (issue #34): between the
// array's limits as they are, between the limits the diagnosis would propose for a rebuild held
// back (src/md/diagnosis/findings.ts), and at the pace the array's last rebuild or resync kept
// (src/md/history.ts), which says more about these disks than either limit.

import { raisedMinimum } from '../diagnosis/findings';
import { historyOf, type SyncOperation } from '../history';
import { effectiveLimits, type ArrayModel, type HostModel } from '../modelTypes';
import { PRESETS } from '../tuning/presets';
import { rebuildBounds, type RebuildBounds } from './replaceDisk';

/** Which limits the proposed fix raises: the minimum (other I/O), the maximum (a capped rebuild), or both. */
export type Raised = 'min' | 'max' | 'both';

export interface RebuildForecast {
    now: RebuildBounds;
    /** Between the proposed limits; null where the limits are at or above them already (nothing to gain). */
    withFix: { bounds: RebuildBounds; raises: Raised } | null;
    /** At the average of the array's last finished rebuild or resync; null without one, or one above the maximum. */
    measured: { operation: SyncOperation; kiBs: number; seconds: number } | null;
}

/**
 * The limits the diagnosis proposes once a rebuild runs, as far as they are known before it does:
 * Fast rebuild's minimum (no sample yet says the members cannot take it) where other I/O would hold
 * it back, and Fast rebuild's maximum where the maximum would cap it. Not the doubled maximum the
 * diagnosis offers above Fast rebuild's: that answers a measured cap, and nothing is measured yet.
 */
export function proposedLimits(minKiBs: number, maxKiBs: number): { minKiBs: number; maxKiBs: number } {
    const { fix } = raisedMinimum(minKiBs, maxKiBs, null);
    const raisedMin = fix?.kind === 'speed-limits' ? fix.minKiBs : null;
    return { minKiBs: raisedMin ?? minKiBs, maxKiBs: Math.max(maxKiBs, PRESETS['fast-rebuild'].speedMaxKiBs) };
}

function raised(now: RebuildBounds, fixed: { minKiBs: number; maxKiBs: number }): Raised | null {
    const min = fixed.minKiBs > now.minKiBs!;
    const max = fixed.maxKiBs > now.maxKiBs!;
    return min && max ? 'both' : min ? 'min' : max ? 'max' : null;
}

/** The newest finished rebuild or resync with an average: a check only reads, a reshape moves every stripe. */
export function lastRebuild(array: ArrayModel, host: HostModel): SyncOperation | null {
    const kept = historyOf(host.history, array);
    return kept?.operations.find(op => op.finished && (op.type === 'recover' || op.type === 'resync') &&
        op.avgKiBs !== null && op.avgKiBs > 0) ?? null;
}

/** Null where a limit is unknown or 0: then no bound can be given (md's own estimate comes once it runs). */
export function rebuildForecast(array: ArrayModel, host: HostModel, componentKiB: number): RebuildForecast | null {
    const { minKiBs, maxKiBs } = effectiveLimits(array, host);
    const now = rebuildBounds(componentKiB, minKiBs, maxKiBs);
    if (now.shortestSeconds === null || now.longestSeconds === null) return null;
    const fixed = proposedLimits(now.minKiBs!, now.maxKiBs!);
    const raises = raised(now, fixed);
    const operation = lastRebuild(array, host);
    // md never goes above the maximum: a pace the disks kept under a higher one is not reached now.
    const kiBs = operation && operation.avgKiBs! <= now.maxKiBs! ? operation.avgKiBs! : null;
    return {
        now,
        withFix: raises && { bounds: rebuildBounds(componentKiB, fixed.minKiBs, fixed.maxKiBs), raises },
        measured: operation && kiBs !== null ? { operation, kiBs, seconds: componentKiB / kiBs } : null,
    };
}
