// SPDX-License-Identifier: LGPL-2.1-or-later
// An array's own page (#/md0, issue #33): the way back to the overview, the array's card (health,
// facts, the sync with its chart and diagnosis, members, layout) and the operations its history
// kept. Its code is in the later chunk (src/later.ts, lazyArrayPage.ts): the overview does not
// wait for it.

import { memo, useEffect } from 'react';
// Breadcrumb by deep path, not through pf.ts: what pf.ts re-exports is in the first view.
import { Breadcrumb, BreadcrumbItem } from '@patternfly/react-core/dist/esm/components/Breadcrumb/index.js';
import { StackItem, Title } from '../pf';
import { _, fmt } from '../../host/i18n';
import { overviewHref } from '../../host/location';
import type { ArrayModel, HostModel } from '../../md/modelTypes';
import type { MonitorState } from '../../md/alerts/monitor';
import { sameCardProps } from '../common/cardProps';
import { SyncHistory } from '../health/SyncHistory';
import { ArrayCard } from './ArrayCard';
import { preloadLayoutDetails } from '../advice/LayoutSection';

// The card re-renders only when its array or what it reads of the host changed (cardProps.ts).
const MemoArrayCard = memo(ArrayCard, sameCardProps);

/** The page's top, where the overview has its title: the way back, and the page's heading for screen readers. */
export function ArrayPageHeading({ name }: { name: string }) {
    return (
        <>
            {/* Before the way back: a page change focuses it, and the next Tab reaches the way back.
                The card's title says the same to the eye. */}
            <Title headingLevel="h1" className="pf-v6-screen-reader" tabIndex={-1}>{fmt(_('RAID tuning: $0'), name)}</Title>
            <Breadcrumb className="raidtune-breadcrumb">
                <BreadcrumbItem to={overviewHref()}>{_('RAID tuning')}</BreadcrumbItem>
                <BreadcrumbItem isActive>{name}</BreadcrumbItem>
            </Breadcrumb>
        </>
    );
}

/** `historyShown`: the monitor state is read (the history card's switch depends on it). */
export function ArrayPage({ array, host, monitor, historyShown, reread }: {
    array: ArrayModel; host: HostModel; monitor: MonitorState | null; historyShown: boolean; reread: () => void;
}) {
    // The layout advice's code, fetched now, so that it opens at once.
    useEffect(() => { preloadLayoutDetails(); }, []);
    return (
        <>
            <StackItem><MemoArrayCard array={array} host={host} /></StackItem>
            {historyShown && (
                <StackItem>
                    <SyncHistory arrays={[{ name: array.name, uuid: array.uuid }]} history={host.history}
                        monitor={monitor} reread={reread} />
                </StackItem>
            )}
        </>
    );
}
