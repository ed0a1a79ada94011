// SPDX-License-Identifier: LGPL-2.1-or-later
import { Alert, PageSection, Spinner, Stack, StackItem, Title } from '../pf';
import { PageFrame } from './PageFrame';
import { _ } from '../../host/i18n';
import { ArrayList } from '../arrays/ArrayList';
import { NoArrays } from '../arrays/NoArrays';
import { GlobalLimits } from '../sync/GlobalLimits';
import { HealthOverTime } from '../health/HealthOverTime';
import { SyncHistory } from '../health/SyncHistory';
import { useMonitorState } from '../health/AlertsCard';
import { KeepAfterReboot } from '../tuning/PersistChange';
import { RestoreBanner } from '../tuning/RestoreBanner';
import { UnfinishedPlan } from '../plan/UnfinishedPlan';
import { useEffect, useMemo } from 'react';
import { AdminContext, HostContext, useRefreshResult } from '../common/HostContext';
import { ArrayDialogs } from '../common/arrayDialog';
import { recordRender } from './refreshTiming';
import { useAdminAccess } from './useAdminAccess';
import { useHostModel } from './useHostModel';
import { useSelectedArray } from './useSelectedArray';
import { tellPageStatus } from '../../host/pageStatus';
import { pageStatus } from '../../md/pageStatus';
import { text } from '../common/message';
import { memoLast } from '../../md/memo';
import { lastCheckSpeed } from '../../md/alerts/checkWindow';
import { limitsOutsideWindow, openWindowEnd } from '../../md/alerts/ownWindow';
import { historyOf } from '../../md/history';
import { arraysBySeverity, overviewRows } from '../../md/overview';
import { ArrayOverview } from '../overview/ArrayOverview';
import type { HostModel } from '../../md/modelTypes';
import { useLoaded } from '../common/lazyPart';
import { preloadSyncParts } from '../sync/lazySyncParts';
import { preloadChanges } from '../tuning/lazyChanges';
import { preloadAlertsChange } from '../health/AlertsCard';
import { preloadScheduleChange } from '../health/CheckSchedule';
import { preloadLayoutDetails } from '../advice/LayoutSection';

// The frame (Page, contexts) renders once; PageContent renders at each refresh. PatternFly's Page
// gives its children a new context value whenever it renders, which made React search all 128
// memoised array cards for that context's readers at every refresh.
export function App() {
    const { configProblems, config, refreshNow, store } = useHostModel();
    const admin = useAdminAccess();
    const host = useMemo(() => ({ config, admin, store, refreshNow }), [config, admin, store, refreshNow]);
    return (
        <HostContext.Provider value={host}>
        <AdminContext.Provider value={admin}>
        <PageFrame className="raidtune-page">
            <PageSection>
                <PageContent configProblems={configProblems} />
            </PageSection>
        </PageFrame>
        </AdminContext.Provider>
        </HostContext.Provider>
    );
}

/** The arrays' names, the same array while they do not change (the health cards re-render only then). */
const arrayNames = memoLast((model: HostModel) => [model.arrays.map(a => a.name).join(' ')], (model: HostModel) => model.arrays.map(a => a.name));
const historyArrays = memoLast((model: HostModel) => [model.arrays.map(a => `${a.name}=${a.uuid}`).join(' ')],
    (model: HostModel) => model.arrays.map(a => ({ name: a.name, uuid: a.uuid })));

/** Each array's last recorded check speed (the schedule card's whole-check estimate): new only when a history is. */
const lastCheckSpeeds = memoLast((model: HostModel) => model.arrays.flatMap(a => [a.name, historyOf(model.history, a)]),
    (model: HostModel) => new Map(model.arrays.map(a =>
        [a.name, lastCheckSpeed(historyOf(model.history, a)?.operations ?? [])] as const)));

/** The overview's rows, and the cards in their order: derived once per model. */
const overviewRowsOf = memoLast((model: HostModel) => [model], overviewRows);
const arraysInOrder = memoLast((model: HostModel) => [model],
    (model: HostModel) => arraysBySeverity(model, overviewRowsOf(model)));

function PageContent({ configProblems }: { configProblems: string[] }) {
    const { model: latest, refresh, error } = useRefreshResult();
    // Read beside the first model, not after it: the page appears once both are in, so nothing
    // above the array cards arrives later and moves them (and the button under the pointer).
    const monitor = useMonitorState();
    const monitorRead = monitor.state !== null || monitor.error !== null;
    // The sync panel's chart and diagnosis too (fetched since the page started, index.tsx): a
    // panel that grew once they came would move what is below it.
    const syncParts = useLoaded(preloadSyncParts);
    const model = latest && syncParts && (monitorRead || !latest.mdAvailable) ? latest : null;
    const shown = model !== null;
    // What the first view did not need, fetched once it is up, so that a dialog opens at once.
    useEffect(() => {
        if (!shown) return;
        preloadChanges();
        void preloadAlertsChange();
        void preloadScheduleChange();
        preloadLayoutDetails();
    }, [shown]);
    const selected = useSelectedArray();
    const rows = model && overviewRowsOf(model);
    useEffect(() => {
        if (refresh && model) recordRender(refresh.seq, refresh.builtAt);
    }, [refresh, model]);
    // Cockpit's menu entry carries a warning or error icon while an array needs attention.
    useEffect(() => {
        if (!model) return;
        const status = pageStatus(model);
        tellPageStatus(status && { type: status.type, title: text(status.title) });
    }, [model]);
    return (
        <Stack hasGutter>
            <StackItem><Title headingLevel="h1">{_('RAID tuning')}</Title></StackItem>
            {[...configProblems, ...(model?.problems ?? [])].map(problem => (
                <StackItem key={problem}><Alert isInline variant="warning" component="h2" title={problem} /></StackItem>
            ))}
            {error && (
                <StackItem>
                    <Alert isInline variant="danger" component="h2" title={_('Refreshing failed')}>
                        {error} {model && _('Showing the last state read; retrying.')}
                    </Alert>
                </StackItem>
            )}
            {model === null && !error && (
                <StackItem><Spinner size="lg" aria-label={_('Reading md state')} /></StackItem>
            )}
            {model && <UnfinishedPlan />}
            {model && <StackItem><RestoreBanner /></StackItem>}
            {model && (
                // The overview's actions open the same array dialogs as the cards' buttons.
                <ArrayDialogs model={model}>
                    {rows && rows.length > 0 && (
                        <StackItem><ArrayOverview rows={rows} selected={selected} /></StackItem>
                    )}
                    {model.arrays.length === 0
                        ? <StackItem><NoArrays mdAvailable={model.mdAvailable} /></StackItem>
                        : (
                            <StackItem>
                                <ArrayList model={model} arrays={arraysInOrder(model)} selected={selected} />
                            </StackItem>
                        )}
                </ArrayDialogs>
            )}
            {model?.mdAvailable && (
                <StackItem>
                    <SyncHistory arrays={historyArrays(model)} history={model.history} monitor={monitor.state}
                        reread={monitor.reread} />
                </StackItem>
            )}
            {model && <StackItem><GlobalLimits model={model} /></StackItem>}
            {model?.mdAvailable && <StackItem><KeepAfterReboot /></StackItem>}
            {model?.mdAvailable && (
                <HealthOverTime monitor={monitor} arrays={arrayNames(model)} lastChecks={lastCheckSpeeds(model)}
                    openWindow={openWindowEnd(model)} limitsOutside={limitsOutsideWindow(model)} />
            )}
        </Stack>
    );
}
