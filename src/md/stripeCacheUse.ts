// SPDX-License-Identifier: LGPL-2.1-or-later
// How full a RAID4/5/6 stripe cache is (stripe_cache_active of stripe_cache_size): one rule for
// the card's gauge and the diagnosis, so both call the same cache full.

/**
 * A cache counts as full at 90% of its entries: md hands out stripes on demand, so a sync that
 * waits for free stripes keeps stripe_cache_active at the size or a few entries below it (stripes
 * are released and taken again between two reads), while one with room stays well under.
 */
export const STRIPE_CACHE_FULL_SHARE = 0.9;

/** The share of the entries in use, 0..1 (active can briefly read above the size while it shrinks). */
export function stripeCacheShare(size: number, active: number): number {
    return size > 0 ? Math.min(1, active / size) : 0;
}

export function isStripeCacheFull(size: number, active: number): boolean {
    return size > 0 && active >= size * STRIPE_CACHE_FULL_SHARE;
}
