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

function shareArray(previous: unknown[], next: unknown[]): unknown[] {
    let same = previous.length === next.length;
    const result = next.map((value, i) => {
        const shared = share(previous[i], value);
        if (shared !== previous[i]) same = false;
        return shared;
    });
    return same ? previous : result;
}

function shareMap(previous: Map<unknown, unknown>, next: Map<unknown, unknown>): Map<unknown, unknown> {
    let same = previous.size === next.size;
    const result = new Map<unknown, unknown>();
    for (const [key, value] of next) {
        const has = previous.has(key);
        const shared = has ? share(previous.get(key), value) : value;
        if (!has || shared !== previous.get(key)) same = false;
        result.set(key, shared);
    }
    return same ? previous : result;
}

function shareObject(previous: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
    const keys = Object.keys(next);
    let same = keys.length === Object.keys(previous).length;
    const result: Record<string, unknown> = {};
    for (const key of keys) {
        const has = Object.hasOwn(previous, key);
        const shared = has ? share(previous[key], next[key]) : next[key];
        if (!has || shared !== previous[key]) same = false;
        result[key] = shared;
    }
    return same ? previous : result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
    if (typeof value !== 'object' || value === null) return false;
    const proto = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
}
