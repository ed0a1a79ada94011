// SPDX-License-Identifier: LGPL-2.1-or-later
// The host's side of health over time, read once for both cards: who is told when a disk fails,
// and which periodic check runs on each array.

import { StackItem } from '../pf';
import { AlertsCard, useMonitorState } from './AlertsCard';
import { CheckSchedule } from './CheckSchedule';

export function HealthOverTime({ arrays }: { arrays: string[] }) {
    const { state, error, reread } = useMonitorState();
    return (
        <>
            <StackItem><AlertsCard state={state} error={error} reread={reread} /></StackItem>
            {state && <StackItem><CheckSchedule state={state} arrays={arrays} /></StackItem>}
        </>
    );
}
