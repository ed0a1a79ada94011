// SPDX-License-Identifier: LGPL-2.1-or-later
// What the kernel's mismatch_cnt means at the moment it is read. md counts inconsistent sectors
// while a check or repair runs (the count so far) and keeps the total until the next sync starts;
// a resync, recovery or reshape also resets or moves it without a meaning of its own. Which sync
// ran last is in last_sync_action (6.1 says "recovery", 7.3 "recover"; "none" or "idle" before
// any sync since the array was assembled, and kernels before 3.16 have no such file).

import { msg, N_, type Message } from './message';
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

const MIRRORED = new Set(['raid1', 'raid10']);
const PARITY = new Set(['raid4', 'raid5', 'raid6']);

/**
 * What a count above zero that a check or repair found means on this level. On mirrors the copies
 * are written one by one, so a block rewritten while a write to it is still on its way (swap, a
 * write changed in flight) may end up different on each copy, in places nothing reads again: a
 * count there is common and rarely means damaged data. On parity levels every stripe's parity must
 * match its data, so a count is a parity mismatch: stale after a crash without a bitmap, or a disk
 * that returned wrong data; a repair recomputes the parity from the data, as md cannot tell which
 * block is wrong. null: nothing to explain (zero, not from a check, or a level without redundancy).
 */
export function mismatchExplanation(level: string | null, count: number | null,
    meaning: MismatchMeaning | null): Message | null {
    if (!count || meaning === null || !COUNTED_BY_CHECK.has(meaning)) return null;
    const repaired = meaning === 'repair' || meaning === 'repair-so-far';
    if (MIRRORED.has(level ?? '')) {
        return msg(repaired
            ? N_('On RAID1 and RAID10 the copies were made equal again. Copies often differ in areas rewritten while a write was on its way (swap, some databases), which nothing reads again: this is rarely damaged data.')
            : N_('On RAID1 and RAID10 copies often differ in areas rewritten while a write was on its way (swap, some databases), which nothing reads again: this is rarely damaged data. A repair makes the copies equal (from the first disk); then check again.'));
    }
    if (PARITY.has(level ?? '')) {
        return msg(repaired
            ? N_('A parity mismatch on $0: the parity was recomputed from the data. Check again: a count that comes back means a disk returns wrong data.')
            : N_('A parity mismatch on $0: the parity does not match the data. After a crash on an array without a bitmap it is stale parity; otherwise a disk may have returned wrong data. A repair recomputes the parity from the data; then check again.'),
        level!.toUpperCase());
    }
    return null;
}
