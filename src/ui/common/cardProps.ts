// SPDX-License-Identifier: LGPL-2.1-or-later
// When an array's card may skip a refresh (React.memo on the array page): an idle array's card
// need not render again at every 2 s refresh of the host's other arrays. buildModel reuses an
// unchanged array's ArrayModel (and its members, its disks) the same object from one refresh to the
// next (src/md/share.ts), so identity says "unchanged".
//
// The equality rule, for whoever adds a prop to ArrayCard:
//  - every prop is compared by identity (Object.is): pass model objects or values, or callbacks made
//    stable with useCallback; a prop that is a new object at every render re-renders the card;
//  - except `host` (the HostModel, a new object at every refresh): for it, only the host-wide facts
//    in sameHostFacts() count. A card part that starts reading another part of `host` adds it
//    there, else it shows a stale value on idle arrays;
//  - what a card part reads through useHost() or useAdmin() is not affected: a new model or admin
//    state re-renders those readers inside a memoised card (refreshStore.ts, HostContext.tsx).

import type { ArrayModel, HostModel } from '../../md/modelTypes';
import { sameRepairFlow } from '../../md/repairFlowRecord';

/**
 * The parts of the host model a card reads, besides its own array, each compared by identity.
 * No list is built: this runs for each of 128 cards at every refresh.
 */
export function sameHostFacts(before: HostModel, after: HostModel, array: ArrayModel): boolean {
    return before.global === after.global && before.pageSize === after.pageSize &&
        before.autoRestore.get(array.name) === after.autoRestore.get(array.name) &&
        sameRepairFlow(before.repairFlows.get(array.name), after.repairFlows.get(array.name)) &&
        (before.disks === after.disks ||
            array.members.every(m => before.disks.get(m.disk) === after.disks.get(m.disk)));
}

export interface CardProps {
    array: ArrayModel;
    host: HostModel;
}

export function sameCardProps<P extends CardProps>(before: Readonly<P>, after: Readonly<P>): boolean {
    const keys = Object.keys(after) as (keyof P)[];
    if (keys.length !== Object.keys(before).length) return false;
    if (!keys.every(key => key === 'host' || Object.is(before[key], after[key]))) return false;
    // The array is the same object here (compared above).
    return before.host === after.host || sameHostFacts(before.host, after.host, after.array);
}

/**
 * For the parts of a card memoised on what they show of the array (ArraySummary, LayoutSection):
 * a syncing array is a new object at every refresh, the fields such a part reads mostly are not.
 */
export function sameArrayFields(before: ArrayModel, after: ArrayModel, fields: readonly (keyof ArrayModel)[]): boolean {
    return fields.every(field => Object.is(before[field], after[field]));
}

// The fields each memoised card part reads of its array. A field that part starts to show must be
// added to its list (test/unit/ui/cardFields.test.tsx fails otherwise).

/** What the card's title, health alert and facts show (ArrayTitle and ArraySummary in ArrayCard.tsx). */
export const SUMMARY_FIELDS = [
    'name', 'device', 'level', 'health', 'sizeKiB', 'raidDisks', 'missingSlots', 'members', 'arrayState', 'metadata',
    'chunkKiB', 'bitmap', 'stripeCache', 'readAheadKiB', 'groupThreadCount', 'mismatchCount',
    'mismatchMeaning',
] as const satisfies readonly (keyof ArrayModel)[];

/** What layoutAdvice() and the layout section read (LayoutSection.tsx), besides a reshape's disk counts. */
export const LAYOUT_FIELDS = [
    'name', 'device', 'level', 'raidDisks', 'layout', 'chunkKiB', 'partitions', 'members',
] as const satisfies readonly (keyof ArrayModel)[];
