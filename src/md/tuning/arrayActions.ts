// SPDX-License-Identifier: LGPL-2.1-or-later
// Which of an array's changes the page offers, and with what weight (issue #33, item 6): one or two
// buttons for what the array's state calls for, the rest in its menu. An action the state rules out
// (pausing an idle array, a bitmap change during a rebuild, a check of a degraded array) is not
// offered at all; one the array or the kernel can never take (a lockless bitmap, worker threads on
// a kernel without them) stays in the menu, disabled, with md's or mdadm's reason.

import { hasStripeCache, isRedundant } from '../levels';
import type { Message } from '../message';
import type { ArrayModel, HostModel } from '../modelTypes';
import { bitmapUnavailable, bitmapWaitsForState, type BitmapAction } from './bitmap';
import { diskQueueSettingsOffered, diskQueueUnavailable } from './diskQueue';
import { groupThreadsUnavailable } from './groupThreads';
import { readAheadUnavailable } from './readAhead';
import { syncControlUnavailable, type SyncControl } from './syncControl';

export type ArrayAction =
    | 'limits' | 'stripe-cache' | 'read-ahead' | 'worker-threads' | 'disk-queues' | `bitmap-${BitmapAction}` | SyncControl;

export interface OfferedAction {
    action: ArrayAction;
    /** Why it cannot be taken on this array or kernel (shown on the disabled item), or null. */
    refusal: Message | null;
}

export interface ArrayActionsOffered {
    /** At most two, as buttons: what the array's state calls for. */
    buttons: OfferedAction[];
    /** The rest, in the array's menu. */
    menu: OfferedAction[];
}

/** The sync controls that fit what md is doing now (others would only confuse). */
function syncControlsForState(array: ArrayModel): SyncControl[] {
    const sync = array.sync;
    if (array.syncFrozen) return ['resume'];
    if (!sync) return ['check', 'repair'];
    if (sync.action === 'check' || sync.action === 'repair') return ['stop', 'pause'];
    return ['pause', 'restart'];
}

/** Every action the array's state allows, in the order the page lists them. */
function actionsForState(array: ArrayModel, host: HostModel): OfferedAction[] {
    const offered: OfferedAction[] = [];
    const redundant = isRedundant(array.level);
    if (redundant) offered.push({ action: 'limits', refusal: null });
    if (hasStripeCache(array.level)) offered.push({ action: 'stripe-cache', refusal: null });
    const readAhead = readAheadUnavailable(array);
    if (readAhead === null) offered.push({ action: 'read-ahead', refusal: null });
    if (hasStripeCache(array.level)) offered.push({ action: 'worker-threads', refusal: groupThreadsUnavailable(array) });
    // Refused only when no setting of any member disk can be changed; the dialog says which can.
    offered.push({
        action: 'disk-queues',
        refusal: diskQueueSettingsOffered(host, array).length ? null : diskQueueUnavailable(host, array, 'nrRequests'),
    });
    if (redundant && !bitmapWaitsForState(array)) {
        const bitmap: BitmapAction = array.bitmap ? 'remove' : 'add';
        offered.push({ action: `bitmap-${bitmap}`, refusal: bitmapUnavailable(array, bitmap) });
    }
    for (const control of redundant ? syncControlsForState(array) : []) {
        // Refused controls are ruled out by the state (a check of a degraded array): not offered.
        if (syncControlUnavailable(array, control) === null) offered.push({ action: control, refusal: null });
    }
    return offered;
}

/**
 * The buttons: while md syncs, its speed limits and the control of that sync (resume first when it
 * is paused); on an idle array the speed limits alone; on an array without redundancy the first
 * setting it has. Never a refused action: a disabled button would stand for nothing to do.
 */
function buttonActions(array: ArrayModel): ArrayAction[] {
    if (!isRedundant(array.level)) return ['read-ahead'];
    if (array.syncFrozen) return ['resume', 'limits'];
    const sync = array.sync;
    if (!sync) return ['limits'];
    return ['limits', sync.action === 'check' || sync.action === 'repair' ? 'stop' : 'pause'];
}

export function offeredArrayActions(array: ArrayModel, host: HostModel): ArrayActionsOffered {
    const offered = actionsForState(array, host);
    const wanted = buttonActions(array);
    const buttons = wanted.flatMap(action => offered.filter(o => o.action === action && o.refusal === null));
    return { buttons, menu: offered.filter(o => !buttons.includes(o)) };
}
