// SPDX-License-Identifier: LGPL-2.1-or-later
// What any component that changes something needs: where the host's files are, whether the user
// may write, the current model (for plans' "from" values and the journal), and a way to refresh.

import { createContext, useContext, useState, useSyncExternalStore } from 'react';
import type { HostConfig } from '../../host/config';
import type { ArrayModel, DiskModel, HostModel } from '../../md/modelTypes';
import type { RefreshResult, RefreshStore } from './refreshStore';

/** The context holds what rarely changes; the model comes from the store (see refreshStore.ts). */
export interface HostContextValue {
    config: HostConfig;
    admin: boolean | null;
    store: RefreshStore;
    refreshNow: () => void;
}

export const HostContext = createContext<HostContextValue | null>(null);

function useHostContext(): HostContextValue {
    const value = useContext(HostContext);
    if (!value) throw new Error('useHost() outside <HostContext>');
    return value;
}

/** Where the host's files are: known before the first model is read. */
export function useHostConfig(): HostConfig {
    return useHostContext().config;
}

export function useHost(): Omit<HostContextValue, 'store'> & { model: HostModel } {
    const { store, ...rest } = useHostContext();
    const model = useSyncExternalStore(store.subscribe, () => store.get().model);
    if (!model) throw new Error('useHost() before the first model');
    return { ...rest, model };
}

const NO_DISKS: ReadonlyMap<string, DiskModel> = new Map();

/**
 * The host's disks alone: the same map from one refresh to the next while no disk changed, so its
 * readers skip those.
 */
export function useHostDisks(): ReadonlyMap<string, DiskModel> {
    const { store } = useHostContext();
    return useSyncExternalStore(store.subscribe, () => store.get().model?.disks ?? NO_DISKS);
}

/**
 * useHost() with the model as it was when the calling dialog opened, held while it stays open: its
 * form starts from those values and its plan replaces them (the steps' `from`), so a change made
 * meanwhile in another tab is found at Apply (src/md/openedValues.ts) instead of silently replaced.
 */
export function useHostAsOpened(): Omit<HostContextValue, 'store'> & { model: HostModel } {
    const { store, ...rest } = useHostContext();
    const [model] = useState(() => store.get().model);
    if (!model) throw new Error('useHostAsOpened() before the first model');
    return { ...rest, model };
}

/** The array as the opened model has it (the card's own may be a refresh newer). */
export function arrayAsOpened(model: HostModel, array: ArrayModel): ArrayModel {
    return model.arrays.find(a => a.name === array.name) ?? array;
}

/** The latest refresh: its model (null until the first one), its timing, its error. */
export function useRefreshResult(): RefreshResult {
    const { store } = useHostContext();
    return useSyncExternalStore(store.subscribe, store.get);
}

/**
 * Whether the user may write (null: not known yet), apart from HostContext: the buttons that only
 * need this must not re-render at every refresh (a new model), or the array cards' memo is moot.
 */
export const AdminContext = createContext<boolean | null>(null);

export function useAdmin(): boolean | null {
    return useContext(AdminContext);
}
