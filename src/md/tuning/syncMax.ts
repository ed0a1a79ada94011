// SPDX-License-Identifier: LGPL-2.1-or-later
// Letting a sync held at md/sync_max go on: "max" lifts the bound (md wakes the waiting sync at
// once). Nothing else is written: a bound someone set on purpose (mdcheck's window) is theirs to
// set again.

import { msg, N_, type Message } from '../message';
import type { ArrayModel } from '../modelTypes';
import { attributeStep } from '../plan';
import type { PlanResult } from './result';

/** Why sync_max cannot be raised now, or null when it can. */
export function syncMaxReleaseUnavailable(array: ArrayModel): Message | null {
    if (array.syncMaxSectors === null) return msg(N_('sync_max already reads "max": nothing holds the sync.'));
    return null;
}

/**
 * The plan writes "max". It has no undo step: while the sync runs md refuses a sync_max below the
 * one it has (EBUSY), so the old bound could not be written back until the sync ends, and when a
 * sync completes md resets sync_max to "max" itself.
 */
export function syncMaxReleasePlan(array: ArrayModel): PlanResult<'syncMax'> {
    const unavailable = syncMaxReleaseUnavailable(array);
    if (unavailable) return { errors: { syncMax: unavailable } };
    const step = attributeStep(msg(N_('upper bound of the sync of $0 (sync_max)'), array.name),
        `/sys/block/${array.name}/md/sync_max`, 'max', null);
    return { plan: { title: msg(N_('Let the sync of $0 go on past sync_max'), array.name), steps: [step] }, warnings: [] };
}
