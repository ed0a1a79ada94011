// SPDX-License-Identifier: LGPL-2.1-or-later
// Structural sharing between two refreshes' models: every part of the new model that is deep-equal
// to the matching part of the previous one is replaced by the previous object. A view memoised on
// identity (React.memo) then skips what did not change: with 128 arrays most are idle, and only the
// few that sync get new objects. Generic on purpose: a field added to the model is shared too, with
// no rule to keep in step. Models are plain data (objects, arrays, Maps, primitives) never mutated
// once built, so a reused object is as good as a new equal one.

/** `next`, or `previous` itself when deep-equal, or a copy of `next` reusing previous's equal parts. */
export function shareUnchanged<T>(previous: T, next: T): T {
    return share(previous, next) as T;
}

function share(previous: unknown, next: unknown): unknown {
    if (Object.is(previous, next)) return previous;
    if (Array.isArray(previous) && Array.isArray(next)) return shareArray(previous, next);
    if (previous instanceof Map && next instanceof Map) return shareMap(previous, next);
    if (isPlainObject(previous) && isPlainObject(next)) return shareObject(previous, next);
    return next;
}

// Each of these allocates only once a difference is found: most of what they compare is unchanged
// (the 2048 disks of 128 arrays, at every refresh).

function shareArray(previous: unknown[], next: unknown[]): unknown[] {
    let result: unknown[] | null = previous.length === next.length ? null : [];
    for (let i = 0; i < next.length; i++) {
        const shared = share(previous[i], next[i]);
        if (!result && !Object.is(shared, previous[i])) result = previous.slice(0, i);
        result?.push(shared);
    }
    return result ?? previous;
}

function shareMap(previous: Map<unknown, unknown>, next: Map<unknown, unknown>): Map<unknown, unknown> {
    let result: Map<unknown, unknown> | null = previous.size === next.size ? null : new Map();
    for (const [key, value] of next) {
        const before = previous.get(key);
        const has = before !== undefined || previous.has(key);
        const shared = has ? share(before, value) : value;
        if (!result && (!has || !Object.is(shared, before))) result = copyUntil(previous, next, key);
        result?.set(key, shared);
    }
    return result ?? previous;
}

/** The entries of `next` before `stop`, with previous's values (they were found the same). */
function copyUntil(previous: Map<unknown, unknown>, next: Map<unknown, unknown>, stop: unknown): Map<unknown, unknown> {
    const copy = new Map<unknown, unknown>();
    for (const key of next.keys()) {
        if (Object.is(key, stop)) break;
        copy.set(key, previous.get(key));
    }
    return copy;
}

function shareObject(previous: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
    const keys = Object.keys(next);
    let same = keys.length === Object.keys(previous).length;
    const result: Record<string, unknown> = {};
    for (const key of keys) {
        const has = Object.hasOwn(previous, key);
        const shared = has ? share(previous[key], next[key]) : next[key];
        if (!has || !Object.is(shared, previous[key])) same = false;
        result[key] = shared;
    }
    return same ? previous : result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
    if (typeof value !== 'object' || value === null) return false;
    const proto = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
}
