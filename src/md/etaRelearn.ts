// SPDX-License-Identifier: LGPL-2.1-or-later
// The speed a running sync is expected to take after its limits changed: what the estimate shows
// while it learns the new speed (src/md/eta.ts Relearning). The what-if's prediction for a raised
// limit (it knows what the members can move); a lowered one binds at once.

import { measureWindow } from './diagnosis/window';
import { heldAtMinimum, whatIfPredictor } from './diagnosis/whatIf';
import type { SyncLimits } from './eta';
import type { ArrayModel } from './modelTypes';

/** KiB/s per device under `after`, from the array as it was under its previous limits; null: unknown. */
export function rateAfterLimitChange(previous: ArrayModel, after: SyncLimits): number | null {
    const sync = previous.sync;
    if (!sync) return null;
    const before = sync.limits;
    const window = measureWindow(previous, sync.ioSamples);
    const facts = 'facts' in window ? window.facts : null;
    const now = sync.eta?.rateKiBs ?? facts?.rateKiBs ?? null;
    if (now === null || now <= 0) return null;
    let rate = now;
    if (facts) {
        const predict = whatIfPredictor(facts, before.minKiBs, before.maxKiBs);
        if (after.maxKiBs !== null && (before.maxKiBs === null || after.maxKiBs > before.maxKiBs)) {
            rate = Math.max(rate, predict({ kind: 'max', kiBs: after.maxKiBs }).rateKiBs ?? rate);
        }
        if (after.minKiBs !== null && (before.minKiBs === null || after.minKiBs > before.minKiBs)) {
            rate = Math.max(rate, predict({ kind: 'min', kiBs: after.minKiBs }).rateKiBs ?? rate);
        }
    }
    // md never syncs above its maximum, and a sync other I/O held at the minimum follows it down.
    const lowerMin = after.minKiBs !== null && before.minKiBs !== null && after.minKiBs < before.minKiBs;
    if (lowerMin && heldAtMinimum(now, before.minKiBs)) {
        rate = after.minKiBs!;
    }
    if (after.maxKiBs !== null) rate = Math.min(rate, after.maxKiBs);
    return rate;
}
