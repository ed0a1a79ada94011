// SPDX-License-Identifier: LGPL-2.1-or-later
// What-if ETA: for each change worth trying, the speed and finish time it would give, worked out
// from how md throttles (a sync held at the minimum by other I/O runs at the minimum, one it gives
// way to other I/O above the minimum runs at least at a minimum raised above its speed, an idle
// one at the maximum), from how many stripes md keeps in flight (a full cache that leaves the
// disks idle part of the time), and capped by what the member disks were seen to be able to move.

import { CAPPED_SHARE } from '../modelTypes';
import { PRESETS } from '../tuning/presets';
import { cacheWasFull, capacityCeiling, otherIoCompetes, type WindowFacts } from './window';

export type WhatIfChange =
    | { kind: 'now' }
    | { kind: 'min'; kiBs: number }
    | { kind: 'max'; kiBs: number }
    | { kind: 'stripe-cache'; entries: number };

export interface WhatIfRow {
    change: WhatIfChange;
    /** Null when the model cannot tell (outcome 'unknown'). */
    rateKiBs: number | null;
    /** Null when the amount left or the speed is unknown. */
    etaSeconds: number | null;
    /**
     * faster (within what the members showed they can do); faster but with no capacity known to
     * check it against; no change (another limit or nothing holds it); capped by the members;
     * slower (a maximum below today's speed); faster by an amount raidtune cannot measure (a larger
     * stripe cache on hard disks that serve other I/O too); or not predictable from what it measures.
     */
    outcome: 'now' | 'faster' | 'unchecked' | 'same' | 'members' | 'slower' | 'likely-faster' | 'unknown';
}

/**
 * "Held at the minimum": md throttles a sync only while it runs above the minimum, so a throttled
 * sync hovers at the minimum plus what one burst adds; the kernel's own figure wobbles by 10-20%
 * (a rebuild reported at "speed=4000K" with a minimum of 4000). Up to 25% above reads as held
 * there; more than 20% below, md is not throttling at all and something else (the disks) holds it.
 */
export const NEAR_MIN_ABOVE = 1.25;
export const NEAR_MIN_BELOW = 0.8;

export function heldAtMinimum(rateKiBs: number, minKiBs: number | null): boolean {
    return minKiBs !== null && rateKiBs >= minKiBs * NEAR_MIN_BELOW && rateKiBs <= minKiBs * NEAR_MIN_ABOVE;
}

/** A member disk busy this share of the time or more has a queue: it is never idle between requests. */
export const QUEUED_BUSY = 0.9;

function queuedDisks(facts: WindowFacts): boolean {
    return facts.members.some(m => m.busyShare >= QUEUED_BUSY);
}

/**
 * The share of the time md keeps idle member disks busy once its stripe cache no longer limits a
 * rebuild: 0.75-0.81 with 4096 to 16384 entries (`make bench-rebuild`, seek-raid5-cache, Linux 6.1
 * and 7.3, the guest's CPU 17-31% busy), not 1: between batches md handles the stripes it read.
 */
export const CACHE_REACHABLE_BUSY = 0.8;

/**
 * Hard disks that serve other I/O beside the sync: md sends the sync in batches of at most its
 * stripe cache, each waiting behind the other requests and paying a seek, so a larger cache is
 * the lever (`make bench-rebuild`, seek-raid6-light and seek-raid6-load).
 */
export function hardDisksServeOtherIo(facts: WindowFacts, hardDisks: boolean): boolean {
    return hardDisks && otherIoCompetes(facts, hardDisks);
}

/**
 * The stripe cache size that lever goes to: 4096 entries gave the gain there, 8192 little or nothing
 * more, twice the memory (seek-raid6-light: 2.64 and 2.69 MB/s on Linux 6.1, 1.69 and 1.97 on 7.3,
 * which read 2.03 and 2.35 the day before; seek-raid6-load: 0.6 and 0.54, 0.67 and 0.66).
 */
export const HARD_DISK_CACHE_ENTRIES = 4096;

/** A predicted gain under 5% is within what the measurement wobbles by: reported as no change. */
export const MIN_GAIN = 1.05;

/**
 * What sets the pace now: the minimum (held there by other I/O), the maximum, md giving way to
 * other I/O above the minimum ('other-io': Linux 6.1 waits for its own I/O in flight whenever the
 * array is not idle, 6.16 and later keep at most sync_io_depth of it in flight), nothing md does
 * ('free': the disks, or the CPU), or 'unknown' when the other I/O cannot be measured (a RAID 10
 * layout) and so whether md gives way to some is not known.
 */
export type Regime = 'min' | 'max' | 'other-io' | 'free' | 'unknown';

export function paceRegime(facts: WindowFacts, minKiBs: number | null, maxKiBs: number | null,
    hardDisks: boolean): Regime {
    const rate = facts.rateKiBs;
    if (maxKiBs !== null && rate >= maxKiBs * CAPPED_SHARE) return 'max';
    if (heldAtMinimum(rate, minKiBs)) return 'min';
    // md throttles only a sync above its minimum, but it measures its speed by the I/O it has sent:
    // with other I/O queued ahead on disks busy all the time, each wait drains seconds of queue,
    // and the sync averages below the minimum that holds it (`make bench-rebuild`, seek-raid6-load:
    // 0.4 MB/s at a minimum of 1 MB/s, the load's requests waiting 3.8 s). Otherwise the disks hold it.
    if (minKiBs !== null && rate < minKiBs * NEAR_MIN_BELOW) return otherIoCompetes(facts, hardDisks) && queuedDisks(facts) ? 'min' : 'free';
    if (facts.otherKiBs === null) return 'unknown';
    return otherIoCompetes(facts, hardDisks) ? 'other-io' : 'free';
}

/**
 * Predicts one change's speed and finish time from the window: the what-if table and the findings'
 * ranking share it.
 */
export type Predictor = (change: WhatIfChange) => WhatIfRow;

export function whatIfPredictor(facts: WindowFacts, minKiBs: number | null, maxKiBs: number | null,
    hardDisks = false): Predictor {
    const now = facts.rateKiBs;
    const eta = (rate: number) => (facts.remainingKiB === null || rate <= 0 ? null : facts.remainingKiB / rate);
    const pace = paceRegime(facts, minKiBs, maxKiBs, hardDisks);
    // Never below today's speed: the capacity is an estimate and the sync already does `now`.
    const known = capacityCeiling(facts.bound);
    const ceiling = known !== null ? Math.max(known, now) : Infinity;
    // A gain within what the members were seen to move is checked; beyond a floor it is not.
    const checked = (rate: number) => known !== null || (facts.bound !== null && rate <= facts.bound.kiBs);
    const row = (change: WhatIfChange, wanted: number): WhatIfRow => {
        const possible = Math.min(wanted, ceiling);
        const rateKiBs = possible < now * MIN_GAIN ? now : possible;
        const outcome = rateKiBs === now ? 'same' : rateKiBs < wanted ? 'members' : checked(rateKiBs) ? 'faster' : 'unchecked';
        return { change, rateKiBs, etaSeconds: eta(rateKiBs), outcome };
    };
    // md throttles a sync only while it runs above its minimum, on every kernel: a minimum above
    // today's speed lifts whichever throttle holds it there, up to what the members can move.
    const minimum = (kiBs: number): number => {
        if (kiBs <= now) return now;
        if (pace === 'min' || pace === 'other-io') return kiBs;
        return pace === 'max' && maxKiBs !== null && kiBs > maxKiBs ? kiBs : now;
    };
    // md keeps no more stripes in flight than its cache holds. With the cache full, no limit
    // reached and no other I/O to give way to, disks that still idle part of the time wait for md
    // between batches, and a larger cache lets them work up to what md keeps them busy
    // (`make bench-rebuild`, seek-raid5-cache: 51 -> 90 MB/s from 256 to 4096 entries). On hard
    // disks that serve other I/O too, each batch waits behind the other requests and every switch
    // costs a seek, full cache or not: a larger cache sends more at once (seek-raid6-light and
    // -load: 4 to 67 times faster with 4096 entries, more than any limit gave), by an amount the
    // counters cannot tell. On disks kept busy by the sync alone it gains nothing.
    const largerCache = (change: WhatIfChange): WhatIfRow => {
        if (pace === 'max') return row(change, now);
        const unmeasured = (outcome: 'likely-faster' | 'unknown'): WhatIfRow => ({ change, rateKiBs: null, etaSeconds: null, outcome });
        const below = facts.cache !== null && facts.cache.size < HARD_DISK_CACHE_ENTRIES;
        if (below && hardDisksServeOtherIo(facts, hardDisks)) return unmeasured('likely-faster');
        if (!cacheWasFull(facts)) return row(change, now);
        // Time to spare means idle time beyond the counters' wobble: a disk busy 90% has a queue.
        const capacity = facts.bound && facts.bound.busyShare < QUEUED_BUSY ? capacityCeiling(facts.bound) : null;
        const reachable = capacity === null ? null : capacity * CACHE_REACHABLE_BUSY;
        if (pace === 'free' && reachable !== null && reachable >= now * MIN_GAIN) return row(change, reachable);
        return pace === 'free' && !facts.bound ? unmeasured('unknown') : row(change, now);
    };
    return change => {
        switch (change.kind) {
        case 'now': return { change, rateKiBs: now, etaSeconds: eta(now), outcome: 'now' };
        case 'min':
            return pace === 'unknown' && change.kiBs > now
                ? { change, rateKiBs: null, etaSeconds: null, outcome: 'unknown' }
                : row(change, minimum(change.kiBs));
        // md sleeps whenever a sync runs above its maximum, whatever else holds it.
        case 'max':
            return change.kiBs < now
                ? { change, rateKiBs: change.kiBs, etaSeconds: eta(change.kiBs), outcome: 'slower' }
                : row(change, pace === 'max' ? change.kiBs : now);
        case 'stripe-cache': return largerCache(change);
        }
    };
}

/**
 * What the table offers besides no change: for a rebuild, resync or reshape the changes that could
 * make it faster (`cacheEntries`: the stripe cache size to try, findings.ts nextCacheSize); for a check or
 * repair, which scrubs in the background, a lower maximum (`maxKiBs`) that leaves the disks more
 * room for other I/O, or nothing.
 */
export type WhatIfOffer = { kind: 'speed'; cacheEntries: number | null } | { kind: 'less-impact'; maxKiBs: number | null };

/**
 * The table: no change, then the changes `offer` names. No row for a larger sync I/O depth: on
 * Linux 7.3 `make bench-rebuild` (case hdd-raid5-depth) found depths of 4 to 256 equally fast
 * under other I/O, and the other I/O's latency growing with the depth.
 */
export function whatIfEtas(facts: WindowFacts, predict: Predictor, minKiBs: number | null, maxKiBs: number | null,
    offer: WhatIfOffer): WhatIfRow[] {
    if (facts.rateKiBs <= 0) return [];
    const rows: WhatIfRow[] = [predict({ kind: 'now' })];
    if (offer.kind === 'less-impact') {
        if (offer.maxKiBs !== null) rows.push(predict({ kind: 'max', kiBs: offer.maxKiBs }));
        return rows;
    }
    for (const kiBs of [PRESETS.balanced.speedMinKiBs, PRESETS['fast-rebuild'].speedMinKiBs]) {
        if (minKiBs === null || kiBs > minKiBs) rows.push(predict({ kind: 'min', kiBs }));
    }
    const fastMax = PRESETS['fast-rebuild'].speedMaxKiBs;
    if (maxKiBs !== null && fastMax > maxKiBs) rows.push(predict({ kind: 'max', kiBs: fastMax }));
    if (offer.cacheEntries !== null) rows.push(predict({ kind: 'stripe-cache', entries: offer.cacheEntries }));
    return rows;
}
