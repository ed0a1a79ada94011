// SPDX-License-Identifier: LGPL-2.1-or-later
// The host's side of health over time, read once for both cards: who is told when a disk fails,
// and which periodic check runs on each array. The page reads it with the first model
// (useMonitorState in App.tsx) and shows both at once: cards that arrived later pushed the array
// cards down under the admin's pointer.

import { StackItem } from '../pf';
import { AlertsCard, type MonitorRead } from './AlertsCard';
import { CheckSchedule } from './CheckSchedule';
import type { CheckSpeed } from '../../md/alerts/checkWindow';
import type { WindowEndWrites } from '../../md/alerts/ownWindow';

// The sync history is not here but below the array cards (App.tsx): ten operations per array would
// push the arrays, what an admin opens the page for, off the first screen.
export function HealthOverTime({ monitor: { state, error, reread }, arrays, lastChecks, openWindow, limitsOutside }: {
    monitor: MonitorRead; arrays: string[]; lastChecks: ReadonlyMap<string, CheckSpeed | null>;
    openWindow: WindowEndWrites | null; limitsOutside: string;
}) {
    return (
        <>
            <StackItem><AlertsCard state={state} error={error} reread={reread} arrays={arrays.length} /></StackItem>
            {state && (
                <StackItem>
                    <CheckSchedule state={state} arrays={arrays} lastChecks={lastChecks} reread={reread}
                        openWindow={openWindow} limitsOutside={limitsOutside} />
                </StackItem>
            )}
        </>
    );
}
