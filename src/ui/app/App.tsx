// SPDX-License-Identifier: LGPL-2.1-or-later
import { Alert, PageSection, Spinner, Stack, StackItem, Title } from '../pf';
import { PageFrame } from './PageFrame';
import { _, fmt } from '../../host/i18n';
import { NoArrays } from '../arrays/NoArrays';
import { useMonitorState, type MonitorRead } from '../health/monitorRead';
import { bannersLoaded, bannersNeeded, preloadBanners, RestoreBanner, UnfinishedPlan } from './lazyBanners';
import { useEffect, useMemo, useRef, useState } from 'react';
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
import { overviewRows } from '../../md/overview';
import { ArrayOverview } from '../overview/ArrayOverview';
import type { HostModel } from '../../md/modelTypes';
import { useLoaded } from '../common/lazyPart';
import { useAfterFirstPaint } from './afterFirstPaint';
import { preloadChanges } from '../tuning/lazyChanges';
import { ArrayPage, ArrayPageHeading, arrayPageLoaded, preloadArrayPage } from '../arrays/lazyArrayPage';
import { HostSettings, hostSettingsLoaded, preloadHostSettings } from '../overview/lazyHostSettings';

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

/** The overview's rows: derived once per model. */
const overviewRowsOf = memoLast((model: HostModel) => [model], overviewRows);
/** The overdue checks, worked out again only when the schedulers, the history or the arrays change. */
const checksDueOf = memoLast(({ model, monitor }: { model: HostModel; monitor: MonitorRead }) =>
    [monitor.state, model.history, model.arrays.map(a => `${a.name} ${a.health} ${a.level}`).join('\n')],
({ model, monitor }) => (monitor.state && monitor.checksDue
    ? monitor.checksDue(monitor.state, model, Date.now() / 1000) : undefined));

function PageContent({ configProblems }: { configProblems: string[] }) {
    const { model: latest, refresh, error } = useRefreshResult();
    // The code an array's page waits for, with its chart and diagnosis (fetched since the page
    // started when the address names an array, main.tsx): a part that came later would grow and
    // move what is below it. The overview's code is the first view's own.
    const selected = useSelectedArray();
    const pageCode = useLoaded(preloadArrayPage, arrayPageLoaded, selected !== null);
    const bannersCode = useLoaded(preloadBanners, bannersLoaded, latest !== null && bannersNeeded(latest));
    // Only the first view waits: once shown, the page never goes back to the spinner for code (that
    // would unmount an open dialog); code still on its way then is a part that comes in place.
    const [shownOnce, setShownOnce] = useState(false);
    const model = latest && (shownOnce || (pageCode && bannersCode)) ? latest : null;
    const shown = model !== null;
    if (shown && !shownOnce) setShownOnce(true);
    // What the first view does not show waits for its paint, so as not to slow it down: the monitor's
    // read (the host settings and an array's history show it), the host settings' code, and the code
    // of what the first view did not need, so that a dialog opens at once.
    const painted = useAfterFirstPaint(shown);
    const monitor = useMonitorState(painted);
    const monitorRead = monitor.state !== null || monitor.error !== null;
    // The host settings come below the overview once their code and the monitor state are in, all
    // at once (HostSettings.tsx); nothing is below them to move.
    const settingsCode = useLoaded(preloadHostSettings, hostSettingsLoaded, painted);
    const settingsShown = model !== null && painted && settingsCode && (monitorRead || !model.mdAvailable);
    useEffect(() => {
        if (!painted) return;
        preloadChanges();
        void preloadArrayPage();
        void preloadBanners();
    }, [painted]);
    // Another page starts at its top with the focus on its heading, as a link to another document
    // would start it (the next Tab reaches the way back first); the first page keeps the browser's own.
    const pageChanged = useRef(false);
    useEffect(() => {
        if (!pageChanged.current) {
            pageChanged.current = true;
            return;
        }
        window.scrollTo(0, 0);
        document.querySelector<HTMLElement>('.raidtune-page h1')?.focus({ preventScroll: true });
    }, [selected]);
    const rows = model && overviewRowsOf(model);
    const array = model && selected !== null ? model.arrays.find(a => a.name === selected) ?? null : null;
    useEffect(() => {
        if (refresh && model) recordRender(refresh.seq, refresh.builtAt);
    }, [refresh, model]);
    // Cockpit's menu entry carries a warning or error icon while an array needs attention.
    useEffect(() => {
        if (!model) return;
        const status = pageStatus(model);
        tellPageStatus(status && { type: status.type, title: text(status.title) });
    }, [model]);
    // One tree for both pages, the array dialogs at the same place in it: a dialog stays open when
    // its array stops and the page goes back to the overview (arrayDialog.tsx).
    return (
        <Stack hasGutter>
            <StackItem>
                {array ? <ArrayPageHeading name={array.name} /> : <Title headingLevel="h1" tabIndex={-1}>{_('RAID tuning')}</Title>}
            </StackItem>
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
            {/* Once their code is in, always: their dialogs outlive what they show (lazyBanners.ts). */}
            {model && bannersLoaded() && <UnfinishedPlan />}
            {model && bannersLoaded() && <RestoreBanner />}
            {model && selected !== null && !array && (
                <StackItem>
                    <Alert isInline variant="warning" className="raidtune-no-such-array"
                        title={fmt(_('There is no array $0 on this host.'), selected)} />
                </StackItem>
            )}
            {model && (
                <ArrayDialogs model={model}>
                    {array && (
                        <ArrayPage array={array} host={model} monitor={monitor.state}
                            historyShown={monitorRead} reread={monitor.reread} />
                    )}
                    {!array && rows && rows.length > 0 && (
                        <StackItem>
                            <ArrayOverview rows={rows} checksDue={checksDueOf({ model: model!, monitor })} />
                        </StackItem>
                    )}
                    {!array && model.arrays.length === 0 && (
                        <StackItem><NoArrays mdAvailable={model.mdAvailable} /></StackItem>
                    )}
                </ArrayDialogs>
            )}
            {!array && settingsShown && <HostSettings model={model} monitor={monitor} />}
        </Stack>
    );
}
