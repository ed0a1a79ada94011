// SPDX-License-Identifier: LGPL-2.1-or-later
// One host setting as one line of the overview's "Host settings" list (issue #33): its name, what
// it is now in a few words and its actions; what needs the admin (a warning, a test alert's result)
// below the line at all times; the rest (tables, the files, the explanations) only on demand.

import { useState, type ReactNode } from 'react';
import {
    DataListAction, DataListCell, DataListContent, DataListItem, DataListItemCells, DataListItemRow, DataListToggle,
} from '../pfDetails';
import { _ } from '../../host/i18n';

export interface SettingLineProps {
    /** The line's element id, and the prefix of its parts' ids. */
    id: string;
    title: string;
    summary: ReactNode;
    actions?: ReactNode;
    /** Shown below the line whatever the toggle says: what needs the admin now. */
    notes?: ReactNode;
    /** Shown when the line is expanded; no toggle without them. */
    details?: ReactNode;
    /** The dialogs the actions open: they belong to the line, not to its cells. */
    children?: ReactNode;
}

// DataListItem hands each child its row's id (`rowid`): these take it and leave it off the DOM.
function Notes({ children }: { children: ReactNode; rowid?: string }) {
    return <div className="raidtune-setting-notes">{children}</div>;
}

function Dialogs({ children }: { children: ReactNode; rowid?: string }) {
    return <>{children}</>;
}

export function SettingLine({ id, title, summary, actions, notes, details, children }: SettingLineProps) {
    const [expanded, setExpanded] = useState(false);
    const titleId = `${id}-title`;
    return (
        <DataListItem id={id} aria-labelledby={titleId} isExpanded={expanded} className="raidtune-setting">
            <DataListItemRow>
                {/* Without details, a toggle that takes its place unseen: the names stay in one column. */}
                <DataListToggle id={`${id}-toggle`} isExpanded={expanded} className={details ? undefined : 'raidtune-setting-no-details'}
                    aria-controls={details ? `${id}-details` : undefined} aria-label={_('Details')}
                    buttonProps={{ 'aria-labelledby': `${id}-toggle ${titleId}` }} onClick={() => setExpanded(!expanded)} />
                <DataListItemCells dataListCells={[
                    <DataListCell key="title" className="raidtune-setting-title">
                        <h3 id={titleId}>{title}</h3>
                    </DataListCell>,
                    <DataListCell key="summary" className="raidtune-setting-summary">{summary}</DataListCell>,
                ]} />
                {actions && (
                    <DataListAction id={`${id}-actions`} aria-labelledby={`${id}-actions ${titleId}`} aria-label={_('Actions')}>
                        {actions}
                    </DataListAction>
                )}
            </DataListItemRow>
            {notes && <Notes>{notes}</Notes>}
            {details && (
                <DataListContent id={`${id}-details`} aria-label={title} isHidden={!expanded}>
                    {details}
                </DataListContent>
            )}
            {children && <Dialogs>{children}</Dialogs>}
        </DataListItem>
    );
}
