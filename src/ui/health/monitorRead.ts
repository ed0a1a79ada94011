// SPDX-License-Identifier: LGPL-2.1-or-later
// The host's monitor state (who is told when a disk fails, the check schedules, the history
// recorder's timer), read once for the page: the host settings and an array's history show it.

import { useCallback, useEffect, useState } from 'react';
import { useHostConfig } from '../common/HostContext';
import type { HostConfig } from '../../host/config';
import type { MonitorState } from '../../md/alerts/monitor';
import type { checksDue } from '../../md/alerts/checkDue';

export interface MonitorRead {
    state: MonitorState | null;
    error: string | null;
    reread: () => void;
    /** The overdue checks of a host model (src/md/alerts/checkDue.ts): code that comes with the state. */
    checksDue: typeof checksDue | null;
}

type Read = Omit<MonitorRead, 'reread'>;

/** The monitor's state, its reading code in the chunk of what the first view does not show. */
function readMonitorLater(config: HostConfig): Promise<Read> {
    return import('../../later').then(async later => ({
        state: await later.monitorAlerts.readMonitorState(config), error: null, checksDue: later.checkDue.checksDue,
    }));
}

/** The host's monitor state, read once `wanted` (after the first view: App.tsx) and on reread(). */
export function useMonitorState(wanted: boolean): MonitorRead {
    const config = useHostConfig();
    const [read, setRead] = useState<Read>({ state: null, error: null, checksDue: null });
    const [generation, setGeneration] = useState(0);
    useEffect(() => {
        if (!wanted) return;
        let current = true;
        readMonitorLater(config).then(fresh => current && setRead(fresh),
            (error: Error) => current && setRead({ state: null, error: error.message, checksDue: null }));
        return () => { current = false; };
    }, [config, generation, wanted]);
    return { ...read, reread: useCallback(() => setGeneration(g => g + 1), []) };
}

