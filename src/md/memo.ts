// SPDX-License-Identifier: LGPL-2.1-or-later
// Remembering what was derived from a model object. Models share their unchanged parts from one
// refresh to the next (src/md/share.ts), so an idle array or a disk nobody tuned is the very object
// it was before, and what was derived from it still holds, as long as the other inputs the
// derivation reads (named by `inputs`) are the same objects too. With 128 arrays and 2048 disks,
// deriving everything again at every refresh cost ~10 ms of the page's main thread.

/**
 * `derive(context, item)`, remembered per item object while `inputs(context)` stays the same
 * objects. `derive` must read nothing else of the context: that is the contract.
 */
export function memoPerObject<C, T extends object, R>(inputs: (context: C) => readonly unknown[],
    derive: (context: C, item: T) => R): (context: C, item: T) => R {
    let lastInputs: readonly unknown[] | null = null;
    let results = new WeakMap<T, { result: R }>();
    return (context, item) => {
        const now = inputs(context);
        if (!sameValues(lastInputs, now)) {
            results = new WeakMap();
            lastInputs = now;
        }
        let remembered = results.get(item);
        if (!remembered) results.set(item, remembered = { result: derive(context, item) });
        return remembered.result;
    };
}

/**
 * For items that are new objects while what a derivation reads of them is not: a syncing array is
 * new at every refresh, its settings mostly are not. `derive(context, item)` is remembered per
 * item name while `reading(item)` (the name first, then everything derive reads of the item)
 * gives the same values and `inputs(context)` the same objects.
 */
export function memoPerReading<C, T, R>(inputs: (context: C) => readonly unknown[],
    reading: (item: T) => readonly [name: string, ...read: unknown[]],
    derive: (context: C, item: T) => R): (context: C, item: T) => R {
    let lastInputs: readonly unknown[] | null = null;
    let results = new Map<string, { read: readonly unknown[]; result: R }>();
    return (context, item) => {
        const now = inputs(context);
        if (!sameValues(lastInputs, now)) {
            results = new Map();
            lastInputs = now;
        }
        const read = reading(item);
        const remembered = results.get(read[0]);
        if (remembered && sameValues(remembered.read, read)) return remembered.result;
        const result = derive(context, item);
        results.set(read[0], { read, result });
        return result;
    };
}

/** `derive(context)`, remembered while `inputs(context)` gives the same values (one result remembered). */
export function memoLast<C, R>(inputs: (context: C) => readonly unknown[],
    derive: (context: C) => R): (context: C) => R {
    let last: { inputs: readonly unknown[]; result: R } | null = null;
    return context => {
        const now = inputs(context);
        if (!last || !sameValues(last.inputs, now)) last = { inputs: now, result: derive(context) };
        return last.result;
    };
}

function sameValues(before: readonly unknown[] | null, now: readonly unknown[]): boolean {
    return before !== null && before.length === now.length && now.every((value, i) => Object.is(value, before[i]));
}
