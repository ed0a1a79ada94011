// SPDX-License-Identifier: LGPL-2.1-or-later
// The refresh loop's latest result, held outside React state and read with useSyncExternalStore.
// A model in a React context made every refresh search all 128 memoised array cards for the
// context's readers; a store notifies only the components that subscribed, in the same render as
// the page's own update.

import type { HostModel } from '../../md/modelTypes';

export interface RefreshResult {
    model: HostModel | null;
    /** Which refresh produced the model, and when it was ready (for render timing). */
    refresh: { seq: number; builtAt: number } | null;
    error: string | null;
}

export interface RefreshStore {
    get(): RefreshResult;
    set(result: RefreshResult): void;
    subscribe(listener: () => void): () => void;
}

export function createRefreshStore(): RefreshStore {
    let current: RefreshResult = { model: null, refresh: null, error: null };
    const listeners = new Set<() => void>();
    return {
        get: () => current,
        set(result) {
            current = result;
            for (const listener of [...listeners]) listener();
        },
        subscribe(listener) {
            listeners.add(listener);
            return () => listeners.delete(listener);
        },
    };
}
