// SPDX-License-Identifier: LGPL-2.1-or-later
// The host's monitor state (who is told when a disk fails, the check schedules, the history
// recorder's timer), read once for the page: the host settings and an array's history show it.

import { useCallback, useEffect, useState } from 'react';
import { useHostConfig } from '../common/HostContext';
import { readMonitorLater, takeEarlyMonitor } from '../../host/earlyReads';
import type { MonitorState } from '../../md/alerts/monitor';

export interface MonitorRead {
    state: MonitorState | null;
    error: string | null;
    reread: () => void;
}

/** The host's monitor state, read when the page opens (before the first model too) and on reread(). */
export function useMonitorState(): MonitorRead {
    const config = useHostConfig();
    type Read = { state: MonitorState | null; error: string | null };
    const [read, setRead] = useState<Read>({ state: null, error: null });
    const [generation, setGeneration] = useState(0);
    useEffect(() => {
        let current = true;
        (takeEarlyMonitor() ?? readMonitorLater(config)).then(state => current && setRead({ state, error: null }),
            (error: Error) => current && setRead({ state: null, error: error.message }));
        return () => { current = false; };
    }, [config, generation]);
    return { ...read, reread: useCallback(() => setGeneration(g => g + 1), []) };
}

