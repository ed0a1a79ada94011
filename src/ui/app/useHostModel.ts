// SPDX-License-Identifier: LGPL-2.1-or-later
// The one refresh loop: read the host, build the model, hand it to React. Fast while something
// syncs, slow when idle, stopped while the page is hidden. A failed refresh keeps the last good
// model on screen and says what went wrong.

import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { readHostConfig, type HostConfig } from '../../host/config';
import { readGatherOutput } from '../../host/readSnapshot';
import { isPageHidden, onVisibilityChange } from '../../host/visibility';
import type { HostModel } from '../../md/modelTypes';
import { ModelBuilder } from '../../md/modelBuilder';
import { recordRefresh, recordRefreshStart } from './refreshTiming';
import { takeEarlyGather } from '../../host/earlyReads';
import { createRefreshStore, type RefreshStore } from '../common/refreshStore';

export const BUSY_INTERVAL_MS = 2000;
export const IDLE_INTERVAL_MS = 10000;

export interface HostState {
    config: HostConfig;
    /** Refresh now (after a change), instead of at the next tick. */
    refreshNow: () => void;
    /**
     * Each refresh's result. Read by the components that show it (useRefreshResult(), useHost()),
     * not by the page's frame, which then does not render again at every refresh.
     */
    store: RefreshStore;
    configProblems: string[];
}

/** After a change, refresh fast for a while: the kernel starts or restarts a sync a moment later. */
export const AFTER_CHANGE_MS = 15000;

function nextDelay(model: HostModel | null, busyUntil: number, configured: number | null): number {
    if (configured !== null) return configured;
    const busy = performance.now() < busyUntil || model?.arrays.some(a => a.sync !== null);
    return busy ? BUSY_INTERVAL_MS : IDLE_INTERVAL_MS;
}

export function useHostModel(): HostState {
    const [{ config, problems: configProblems }] = useState(readHostConfig);
    const [store] = useState(createRefreshStore);
    const refreshRef = useRef<() => void>(() => undefined);
    const busyUntilRef = useRef(0);
    // Parses and builds each refresh reusing what the previous one made of unchanged input, and
    // says when a read may leave out what a sync does not change (src/md/modelBuilder.ts).
    const [builder] = useState(() => new ModelBuilder());
    const refreshNow = useCallback(() => {
        busyUntilRef.current = performance.now() + AFTER_CHANGE_MS;
        builder.requestFullRead();
        refreshRef.current();
    }, [builder]);

    // Started as the first render commits, before the browser paints it: when the early read is in
    // (index.tsx started it while the page's code came), the model follows in the same task and the
    // first frame is the overview, not a spinner painted and laid out once for nothing.
    useLayoutEffect(() => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        let inFlight = false;
        // A refresh asked for while one is running (e.g. right after a write) runs right after it.
        let again = false;
        let stopped = false;

        const schedule = (delay: number) => {
            clearTimeout(timer);
            if (!stopped && !isPageHidden()) timer = setTimeout(refresh, delay);
        };

        async function refresh() {
            if (stopped) return;
            if (inFlight) {
                again = true;
                return;
            }
            inFlight = true;
            again = false;
            const start = performance.now();
            recordRefreshStart();
            // A fast read that saw arrays or members change is followed by a full one at once.
            let fullReadNow = false;
            try {
                const read = builder.fullReadWanted()
                    ? { full: true as const }
                    : { full: false as const, diskstatsOf: builder.diskstatsFilter() };
                const early = read.full ? takeEarlyGather() : null;
                const output = await (early ?? readGatherOutput(config, store.get().model?.pageSize == null, read));
                const readDone = performance.now();
                const snapshot = builder.parse(output);
                const parsed = performance.now();
                const model = builder.build(snapshot, readDone);
                const builtAt = performance.now();
                const seq = recordRefresh(read.full, start, readDone, parsed, builtAt);
                if (!stopped) store.set({ model, refresh: { seq, builtAt }, error: null });
                fullReadNow = builder.fullReadPending();
            } catch (error) {
                if (!stopped) store.set({ ...store.get(), error: (error as Error).message });
            } finally {
                inFlight = false;
                const delay = nextDelay(store.get().model, busyUntilRef.current, config.refreshIntervalMs);
                schedule(again || fullReadNow ? 0 : delay);
            }
        }

        const stopListening = onVisibilityChange(() => {
            if (isPageHidden()) clearTimeout(timer);
            else refresh();
        });
        refreshRef.current = refresh;
        refresh();
        return () => {
            stopped = true;
            clearTimeout(timer);
            stopListening();
        };
    }, [config, store, builder]);

    return { config, refreshNow, store, configProblems };
}
