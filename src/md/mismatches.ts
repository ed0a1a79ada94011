// SPDX-License-Identifier: LGPL-2.1-or-later
// What the kernel's mismatch_cnt means at the moment it is read. md counts inconsistent sectors
// while a check or repair runs (the count so far) and keeps the total until the next sync starts;
// a resync, recovery or reshape also resets or moves it without a meaning of its own. Which sync
// ran last is in last_sync_action (6.1 says "recovery", 7.3 "recover"; "none" or "idle" before
// any sync since the array was assembled, and kernels before 3.16 have no such file).

import type { MismatchMeaning, SyncAction } from './modelTypes';

const AFTER: Record<string, MismatchMeaning> = {
    check: 'check', repair: 'repair', resync: 'after-sync', recovery: 'after-sync', recover: 'after-sync', reshape: 'after-sync',
};

/** `current`: the action of the sync that runs or is paused now, if any. */
export function mismatchMeaning(current: SyncAction | null, lastSyncAction: string | null): MismatchMeaning {
    if (current === 'check') return 'check-so-far';
    if (current === 'repair') return 'repair-so-far';
    if (current) return 'during-sync';
    return AFTER[lastSyncAction ?? ''] ?? 'unknown';
}

/**
 * A count is worth a line when a check or repair made it, 0 included (a clean check is news too),
 * or when it is not zero (then its line says it means nothing).
 */
export function mismatchesShown(count: number | null, meaning: MismatchMeaning | null): meaning is MismatchMeaning {
    return count !== null && meaning !== null && (count > 0 || COUNTED_BY_CHECK.has(meaning));
}

const COUNTED_BY_CHECK = new Set<MismatchMeaning>(['check-so-far', 'repair-so-far', 'check', 'repair']);
