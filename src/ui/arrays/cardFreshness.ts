// SPDX-License-Identifier: LGPL-2.1-or-later
// Which model an array's card shows. A card on screen (or near it) follows every refresh. A card
// far off screen may show a running sync's progress up to OFFSCREEN_REFRESH_EVERY refreshes late:
// with 24 syncing arrays of 128, re-rendering each one's progress, chart and diagnosis at every
// refresh was most of the page's main-thread time, for cards nobody could see. Anything else that
// changes (health, members, a sync starting, stopping or freezing, a limit, a setting, a disk's
// queue) reaches the card at once, and a card coming near the screen shows the latest model
// before it is seen. Plain TypeScript (no React), so the rule is unit-tested on real models.

import type { ArrayModel, HostModel, SyncModel } from '../../md/modelTypes';
import { sameHostFacts } from '../common/cardProps';

/** An off-screen card's sync progress is at most this many refreshes old (10 s at 2 s a refresh). */
export const OFFSCREEN_REFRESH_EVERY = 5;

export interface CardView {
    /** What the card shows. */
    array: ArrayModel;
    host: HostModel;
    /** The latest model this view was worked out for (one count per refresh, not per render). */
    seenHost: HostModel;
    /** Refreshes the card has let pass since it last followed one. */
    skipped: number;
}

/**
 * A first view. `stagger` (the card's position) spreads the off-screen cards' catching up over the
 * refreshes, instead of all of them at every fifth one.
 */
export function firstCardView(array: ArrayModel, host: HostModel, stagger: number): CardView {
    return { array, host, seenHost: host, skipped: stagger % OFFSCREEN_REFRESH_EVERY };
}

/**
 * The view after a refresh (or after the card came near the screen): `view` itself when unchanged.
 * The card shows older content exactly when the view's array is not the latest one.
 */
export function nextCardView(view: CardView, array: ArrayModel, host: HostModel, nearScreen: boolean): CardView {
    if (view.array === array && view.host === host) return view;
    // Nothing the card shows changed (an idle array): the view stands, on screen or off, and the
    // card does not render (with the same view, nor does this wrapper a second time).
    if (view.array === array && sameHostFacts(view.host, host, array)) return view;
    if (nearScreen) return { array, host, seenHost: host, skipped: 0 };
    if (view.seenHost === host) return view;
    if (view.skipped + 1 >= OFFSCREEN_REFRESH_EVERY || !onlyProgressChanged(view, array, host)) {
        return { array, host, seenHost: host, skipped: 0 };
    }
    return { ...view, seenHost: host, skipped: view.skipped + 1 };
}

/**
 * The fields of an array that move while a sync runs without anyone changing anything: the sync's
 * counters, whether the speed touches the maximum, the stripe cache's and the bitmap's fill.
 * Every other field (a field added later too) must be the same object for the card to lag.
 */
const MOVING_FIELDS = new Set<keyof ArrayModel>(['sync', 'cappedByMax', 'stripeCache', 'bitmap']);

function onlyProgressChanged(view: CardView, array: ArrayModel, host: HostModel): boolean {
    const shown = view.array;
    const keys = Object.keys(array) as (keyof ArrayModel)[];
    if (keys.some(key => !MOVING_FIELDS.has(key) && !Object.is(shown[key], array[key]))) return false;
    if (shown.stripeCache?.size !== array.stripeCache?.size) return false;
    if (shown.bitmap?.kind !== array.bitmap?.kind || shown.bitmap?.chunkKiB !== array.bitmap?.chunkKiB) return false;
    if (!sameSyncRun(shown.sync, array.sync)) return false;
    // The host-wide settings the card reads (global limits, its disks' queues, an armed restore).
    return sameHostFacts(view.host, host, array);
}

/** The same sync, in the same state: only its progress, speed and samples differ. */
function sameSyncRun(shown: SyncModel | null, latest: SyncModel | null): boolean {
    if (shown === null || latest === null) return shown === latest;
    return shown.action === latest.action && shown.runState === latest.runState &&
        shown.pendingReason === latest.pendingReason &&
        shown.reshape?.fromDisks === latest.reshape?.fromDisks && shown.reshape?.toDisks === latest.reshape?.toDisks &&
        shown.waitingFor.join() === latest.waitingFor.join();
}
