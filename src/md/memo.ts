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
        if (!lastInputs || now.length !== lastInputs.length || now.some((input, i) => !Object.is(input, lastInputs![i]))) {
            results = new WeakMap();
            lastInputs = now;
        }
        let remembered = results.get(item);
        if (!remembered) results.set(item, remembered = { result: derive(context, item) });
        return remembered.result;
    };
}
