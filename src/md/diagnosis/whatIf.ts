// SPDX-License-Identifier: LGPL-2.1-or-later
// What-if ETA: for each change worth trying, the speed and finish time it would give, worked out
// from how md throttles (a sync held at the minimum by other I/O runs at the minimum, an idle one
// at the maximum) and capped by what the member disks were seen to be able to move.

import { CAPPED_SHARE } from '../modelTypes';
import { PRESETS } from '../tuning/presets';
import type { WindowFacts } from './window';

export type WhatIfChange =
    | { kind: 'now' }
    | { kind: 'min'; kiBs: number }
    | { kind: 'max'; kiBs: number }
    | { kind: 'stripe-cache'; entries: number };

export interface WhatIfRow {
    change: WhatIfChange;
    rateKiBs: number;
    /** Null when the amount left is unknown. */
    etaSeconds: number | null;
    /**
     * faster (within what the members showed they can do); faster but with no capacity known to
     * check it against; no change (another limit or nothing holds it); or capped by the members.
     */
    outcome: 'now' | 'faster' | 'unchecked' | 'same' | 'members';
}

/**
 * "Held at the minimum": md throttles a sync only while it runs above the minimum, so a throttled
 * sync hovers at the minimum plus what one burst adds; the kernel's own figure wobbles by 10-20%
 * (seed 000's "speed=4000K" at min 4000). Up to 25% above reads as held there; more than 20% below,
 * md is not throttling at all and something else (the disks) holds it.
 */
export const NEAR_MIN_ABOVE = 1.25;
export const NEAR_MIN_BELOW = 0.8;

export function heldAtMinimum(rateKiBs: number, minKiBs: number | null): boolean {
    return minKiBs !== null && rateKiBs >= minKiBs * NEAR_MIN_BELOW && rateKiBs <= minKiBs * NEAR_MIN_ABOVE;
}

/** A predicted gain under 5% is within what the measurement wobbles by: reported as no change. */
export const MIN_GAIN = 1.05;

type Regime = 'min' | 'max' | 'free';

/** Which limit sets the pace now: the minimum (throttled by other I/O), the maximum, or neither. */
function regime(rateKiBs: number, minKiBs: number | null, maxKiBs: number | null): Regime {
    if (maxKiBs !== null && rateKiBs >= maxKiBs * CAPPED_SHARE) return 'max';
    if (heldAtMinimum(rateKiBs, minKiBs)) return 'min';
    return 'free';
}

/**
 * Predicts one change's speed and finish time from the window: the what-if table and the findings'
 * ranking share it.
 */
export type Predictor = (change: WhatIfChange) => WhatIfRow;

export function whatIfPredictor(facts: WindowFacts, minKiBs: number | null, maxKiBs: number | null): Predictor {
    const now = facts.rateKiBs;
    const eta = (rate: number) => (facts.remainingKiB === null || rate <= 0 ? null : facts.remainingKiB / rate);
    const pace = regime(now, minKiBs, maxKiBs);
    // Never below today's speed: the capacity is an estimate and the sync already does `now`.
    const ceiling = facts.bound ? Math.max(facts.bound.kiBs, now) : Infinity;
    const row = (change: WhatIfChange, wanted: number): WhatIfRow => {
        const possible = Math.min(wanted, ceiling);
        const rateKiBs = possible < now * MIN_GAIN ? now : possible;
        const outcome = rateKiBs === now ? 'same' : rateKiBs < wanted ? 'members' : facts.bound ? 'faster' : 'unchecked';
        return { change, rateKiBs, etaSeconds: eta(rateKiBs), outcome };
    };
    return change => {
        switch (change.kind) {
        case 'now': return { change, rateKiBs: now, etaSeconds: eta(now), outcome: 'now' };
        // Held at the minimum, the sync runs at the new one; held at the maximum, only a minimum
        // above the maximum counts; otherwise neither limit is what holds it back.
        case 'min': return row(change, pace === 'min' || (pace === 'max' && maxKiBs !== null && change.kiBs > maxKiBs) ? change.kiBs : now);
        case 'max': return row(change, pace === 'max' ? change.kiBs : now);
        // Seed 001 saw +33% from a larger stripe cache on 2012's kernels; on Linux 6.1 and 7.3
        // `make bench-rebuild` (case hdd-raid5-cache) found 4096, 8192 and 16384 entries no faster
        // than a full cache of 256. The row stays (the advice is everywhere) and predicts no gain.
        case 'stripe-cache': return row(change, now);
        }
    };
}

/**
 * The table: no change, then the changes worth trying (`cacheEntries`: the next stripe cache size
 * while it is full). No row for a larger sync I/O depth: on Linux 7.3 `make bench-rebuild` (case
 * hdd-raid5-depth) found depths of 4 to 256 equally fast under other I/O, and the other I/O's
 * latency growing with the depth.
 */
export function whatIfEtas(facts: WindowFacts, minKiBs: number | null, maxKiBs: number | null,
    cacheEntries: number | null): WhatIfRow[] {
    if (facts.rateKiBs <= 0) return [];
    const predict = whatIfPredictor(facts, minKiBs, maxKiBs);
    const rows: WhatIfRow[] = [predict({ kind: 'now' })];
    for (const kiBs of [PRESETS.balanced.speedMinKiBs, PRESETS['fast-rebuild'].speedMinKiBs]) {
        if (minKiBs === null || kiBs > minKiBs) rows.push(predict({ kind: 'min', kiBs }));
    }
    const fastMax = PRESETS['fast-rebuild'].speedMaxKiBs;
    if (maxKiBs !== null && fastMax > maxKiBs) rows.push(predict({ kind: 'max', kiBs: fastMax }));
    if (cacheEntries !== null) rows.push(predict({ kind: 'stripe-cache', entries: cacheEntries }));
    return rows;
}
