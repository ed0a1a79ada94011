// SPDX-License-Identifier: LGPL-2.1-or-later
// The host's settings below the overview (issue #33), a line each with its action: the system's
// rebuild speed limits, what is kept after a reboot, who is told when a disk fails, the scheduled
// checks and the history recorder. In the later chunk (src/later.ts, lazyHostSettings.ts): the
// overview, what an admin opens the page for, shows without waiting for it; this comes in below the
// overview, where it moves nothing.

import { useEffect } from 'react';
import { Card, CardBody, CardHeader, CardTitle, StackItem } from '../pf';
import { DataList } from '../pfDetails';
import { _ } from '../../host/i18n';
import type { HostModel } from '../../md/modelTypes';
import { memoLast } from '../../md/memo';
import { historyOf } from '../../md/history';
import { lastCheckSpeed } from '../../md/alerts/checkWindow';
import { limitsOutsideWindow, openWindowEnd } from '../../md/alerts/ownWindow';
import { GlobalLimits } from '../sync/GlobalLimits';
import { KeepAfterReboot } from '../tuning/PersistChange';
import { AlertsCard, preloadAlertsChange } from '../health/AlertsCard';
import { CheckSchedule, preloadScheduleChange } from '../health/CheckSchedule';
import { HistoryRecorderLine } from '../health/SyncHistory';
import type { MonitorRead } from '../health/monitorRead';

/** The arrays' names, the same array while they do not change (the health cards re-render only then). */
const arrayNames = memoLast((model: HostModel) => [model.arrays.map(a => a.name).join(' ')],
    (model: HostModel) => model.arrays.map(a => a.name));

/** Each array's last recorded check speed (the schedule card's whole-check estimate): new only when a history is. */
const lastCheckSpeeds = memoLast((model: HostModel) => model.arrays.flatMap(a => [a.name, historyOf(model.history, a)]),
    (model: HostModel) => new Map(model.arrays.map(a =>
        [a.name, lastCheckSpeed(historyOf(model.history, a)?.operations ?? [])] as const)));

export function HostSettings({ model, monitor }: { model: HostModel; monitor: MonitorRead }) {
    // Their dialogs' code, fetched now, so that a dialog opens at once.
    useEffect(() => {
        void preloadAlertsChange();
        void preloadScheduleChange();
    }, []);
    const { state, error, reread } = monitor;
    // One card, a line per setting: the arrays above stay the page's first business.
    return (
        <StackItem>
            <Card isCompact id="host-settings" component="section" aria-labelledby="host-settings-title">
                <CardHeader><CardTitle id="host-settings-title" component="h2">{_('Host settings')}</CardTitle></CardHeader>
                <CardBody>
                    <DataList aria-label={_('Host settings')} isCompact className="raidtune-settings">
                        <GlobalLimits model={model} />
                        {model.mdAvailable && <KeepAfterReboot />}
                        {model.mdAvailable && (
                            <AlertsCard state={state} error={error} reread={reread} arrays={model.arrays.length} />
                        )}
                        {model.mdAvailable && state && (
                            <CheckSchedule state={state} arrays={arrayNames(model)} lastChecks={lastCheckSpeeds(model)}
                                reread={reread} openWindow={openWindowEnd(model)}
                                limitsOutside={limitsOutsideWindow(model)} pausedChecks={model.pausedChecks} />
                        )}
                        {model.mdAvailable && (
                            <HistoryRecorderLine history={model.history} monitor={state} reread={reread} />
                        )}
                    </DataList>
                </CardBody>
            </Card>
        </StackItem>
    );
}
