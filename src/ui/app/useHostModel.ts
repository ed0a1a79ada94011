// The one refresh loop: read the host, build the model, hand it to React. Fast while something
// syncs, slow when idle, stopped while the page is hidden. A failed refresh keeps the last good
// model on screen and says what went wrong.

import { useEffect, useRef, useState } from 'react';
import { readHostConfig } from '../../host/config';
import { readSnapshot } from '../../host/readSnapshot';
import { isPageHidden, onVisibilityChange } from '../../host/visibility';
import { buildModel, type HostModel } from '../../md/model';
import { recordRefresh } from './refreshTiming';

export const BUSY_INTERVAL_MS = 2000;
export const IDLE_INTERVAL_MS = 10000;

export interface HostState {
    model: HostModel | null;
    /** Which refresh produced the model, and when it was ready (for render timing). */
    refresh: { seq: number; builtAt: number } | null;
    error: string | null;
    configProblems: string[];
}

function nextDelay(model: HostModel | null): number {
    return model?.arrays.some(a => a.sync !== null) ? BUSY_INTERVAL_MS : IDLE_INTERVAL_MS;
}

export function useHostModel(): HostState {
    const [state, setState] = useState<HostState>({ model: null, refresh: null, error: null, configProblems: [] });
    const modelRef = useRef<HostModel | null>(null);

    useEffect(() => {
        const { config, problems: configProblems } = readHostConfig();
        let timer: ReturnType<typeof setTimeout> | undefined;
        let inFlight = false;
        let stopped = false;

        const schedule = (delay: number) => {
            clearTimeout(timer);
            if (!stopped && !isPageHidden()) timer = setTimeout(refresh, delay);
        };

        async function refresh() {
            if (inFlight || stopped) return;
            inFlight = true;
            const start = performance.now();
            try {
                const snapshot = await readSnapshot(config, modelRef.current?.pageSize == null);
                const readDone = performance.now();
                const model = buildModel(snapshot, readDone, modelRef.current);
                const builtAt = performance.now();
                const seq = recordRefresh(start, readDone, builtAt);
                modelRef.current = model;
                if (!stopped) setState({ model, refresh: { seq, builtAt }, error: null, configProblems });
            } catch (error) {
                if (!stopped) setState(s => ({ ...s, error: (error as Error).message, configProblems }));
            } finally {
                inFlight = false;
                schedule(nextDelay(modelRef.current));
            }
        }

        const stopListening = onVisibilityChange(() => {
            if (isPageHidden()) clearTimeout(timer);
            else refresh();
        });
        refresh();
        return () => {
            stopped = true;
            clearTimeout(timer);
            stopListening();
        };
    }, []);

    return state;
}
