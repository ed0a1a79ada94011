import { Alert, Page, PageSection, Spinner, Stack, StackItem, Title } from '../pf';
import { _ } from '../../host/i18n';
import { ArrayList } from '../arrays/ArrayList';
import { NoArrays } from '../arrays/NoArrays';
import { GlobalLimits } from '../sync/GlobalLimits';
import { KeepAfterReboot } from '../tuning/PersistChange';
import { RestoreBanner } from '../tuning/RestoreBanner';
import { useEffect, useMemo } from 'react';
import { AdminContext, HostContext } from './HostContext';
import { recordRender } from './refreshTiming';
import { useAdminAccess } from './useAdminAccess';
import { useHostModel } from './useHostModel';
import { useSelectedArray } from './useSelectedArray';

export function App() {
    const { model, refresh, error, configProblems, config, refreshNow } = useHostModel();
    const admin = useAdminAccess();
    const selected = useSelectedArray();
    const host = useMemo(() => (model ? { config, admin, model, refreshNow } : null), [config, admin, model, refreshNow]);
    useEffect(() => {
        if (refresh) recordRender(refresh.seq, refresh.builtAt);
    }, [refresh]);
    return (
        <HostContext.Provider value={host}>
        <AdminContext.Provider value={admin}>
        <Page className="raidtune-page" isContentFilled>
            <PageSection>
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
                    {model && <StackItem><RestoreBanner /></StackItem>}
                    {model && <StackItem><GlobalLimits model={model} /></StackItem>}
                    {model?.mdAvailable && <StackItem><KeepAfterReboot /></StackItem>}
                    {model && (model.arrays.length === 0
                        ? <StackItem><NoArrays mdAvailable={model.mdAvailable} /></StackItem>
                        : <StackItem><ArrayList model={model} selected={selected} /></StackItem>)}
                </Stack>
            </PageSection>
        </Page>
        </AdminContext.Provider>
        </HostContext.Provider>
    );
}
