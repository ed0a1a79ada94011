// SPDX-License-Identifier: LGPL-2.1-or-later
// What each md level can survive, for telling "degraded" (still serving data) from "failed".

/** Number of missing devices the level survives in the worst case; null when unknown. */
export function failuresTolerated(level: string | null, raidDisks: number | null): number | null {
    switch (level) {
    case 'raid1': return raidDisks === null ? null : raidDisks - 1;
    case 'raid4':
    case 'raid5': return 1;
    case 'raid6': return 2;
    case 'raid0':
    case 'linear': return 0;
    default: return null;
    }
}

/**
 * How many more members can fail, for certain, before the array loses data: what the level
 * survives less the slots already without a working member (`missingSlots`: one being rebuilt
 * gives no redundancy until its rebuild ends). On raid10 the worst next failure is in the mirror
 * group with the fewest working members; where the layout does not form such groups (far or
 * offset copies, a disk count that is no multiple of the copies) every missing slot is counted
 * against the copies. 0: the next failure loses data; null: unknown (no level, no disk count).
 */
export function failuresLeft(level: string | null, raidDisks: number | null, layout: number | null,
    missingSlots: readonly number[]): number | null {
    if (level === 'raid10') {
        if (raidDisks === null) return null;
        const copies = raid10Copies(layout);
        const nearOnly = layout !== null && (layout >> 8 & 0xff) <= 1 && (layout >> 16 & 0xff) === 0;
        if (!nearOnly || raidDisks % copies !== 0) return Math.max(0, copies - 1 - missingSlots.length);
        let fewest = copies;
        for (let start = 0; start < raidDisks; start += copies) {
            const working = copies - missingSlots.filter(slot => slot >= start && slot < start + copies).length;
            fewest = Math.min(fewest, working);
        }
        return Math.max(0, fewest - 1);
    }
    const tolerated = failuresTolerated(level, raidDisks);
    return tolerated === null ? null : Math.max(0, tolerated - missingSlots.length);
}

/** Levels with a parity stripe cache (stripe_cache_size). */
export function hasStripeCache(level: string | null): boolean {
    return level === 'raid4' || level === 'raid5' || level === 'raid6';
}

/** Levels that keep redundancy, so resync/recovery/check make sense. */
export function isRedundant(level: string | null): boolean {
    return level === 'raid1' || level === 'raid10' || hasStripeCache(level);
}

/**
 * raid10 "near" layouts mirror each group of `copies` consecutive slots: the array fails only when
 * a whole group is gone. `missingSlots` are slot numbers without a working member.
 */
export function raid10GroupLost(raidDisks: number, copies: number, missingSlots: readonly number[]): boolean {
    if (copies < 2 || raidDisks % copies !== 0) return missingSlots.length >= copies;
    const missing = new Set(missingSlots);
    for (let start = 0; start < raidDisks; start += copies) {
        let lost = true;
        for (let slot = start; slot < start + copies; slot++) if (!missing.has(slot)) lost = false;
        if (lost) return true;
    }
    return false;
}

/** raid10 `layout` attribute: low byte = near copies, next byte = far copies. */
export function raid10Copies(layout: number | null): number {
    if (layout === null) return 2;
    const near = layout & 0xff;
    const far = (layout >> 8) & 0xff;
    return Math.max(1, near) * Math.max(1, far);
}
