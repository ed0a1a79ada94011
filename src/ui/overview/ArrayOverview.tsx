// SPDX-License-Identifier: LGPL-2.1-or-later
// The overview at the top of the page (issue #33), after Cockpit's Storage overview: a compact
// table, one row per array, the worst first (src/md/overview.ts), problems marked as the card's
// health alert marks them, and the details on the array's own page (ArrayPage.tsx), one click away. It renders from
// the first model with no part loaded later, so nothing below it moves once the page shows.

import { useRef, useState } from 'react';
import { Button, Card, CardBody, CardHeader, CardTitle, Content, Label, Progress, Tooltip } from '../pf';
import { _, fmt, ngettext } from '../../host/i18n';
import { formatPercent } from '../../md/format';
import type { OverviewOperation, OverviewRow } from '../../md/overview';
import { ArrayLink } from '../common/ArrayLink';
import { CompactTable, type Column } from '../common/CompactTable';
import { levelName, syncActionName } from '../common/labels';
import { useTooltipReach } from '../common/useTooltipReach';
import { OverviewPace } from '../diagnosis/OverviewPace';
import { estimateText, heldText, kernelFigureText, redundancyText } from './overviewTexts';

/**
 * More healthy arrays than this are one line with a button: on a host of 128 arrays the ones in
 * trouble stay on the first screen.
 */
const HEALTHY_LISTED = 4;

function Redundancy({ row }: { row: OverviewRow }) {
    const words = redundancyText(row);
    return row.mark
        ? <Label isCompact status={row.mark} className="raidtune-overview-redundancy">{words}</Label>
        : <span className="raidtune-overview-redundancy">{words}</span>;
}

function Operation({ operation, name }: { operation: OverviewOperation | null; name: string }) {
    if (!operation) return <>—</>;
    const title = syncActionName(operation.action);
    return (
        <div className="raidtune-overview-operation">
            <span>{title}</span>
            <Progress size="sm" value={operation.percent ?? 0} label={formatPercent(operation.percent)} measureLocation="outside"
                aria-label={fmt(_('$0 on $1'), title, name)} />
        </div>
    );
}

/** The estimate, the kernel's own figure in a tooltip mounted once reached (useTooltipReach.ts). */
function Estimate({ operation, now }: { operation: OverviewOperation | null; now: Date }) {
    const ref = useRef<HTMLSpanElement>(null);
    const reach = useTooltipReach();
    if (!operation) return <>—</>;
    const held = heldText(operation.runState);
    if (held || !operation.estimate) return <span className="raidtune-overview-estimate">{held ?? _('measuring…')}</span>;
    const kernel = kernelFigureText(operation.estimate);
    return (
        <>
            <span ref={ref} className="raidtune-overview-estimate" tabIndex={kernel ? 0 : undefined}
                onMouseEnter={reach.show} onMouseLeave={reach.hide} onFocus={reach.show} onBlur={reach.hide}
                onKeyDown={event => { if (event.key === 'Escape') reach.hide(); }}>
                {estimateText(operation.estimate, now)}
            </span>
            {kernel && reach.reached && <Tooltip triggerRef={ref} trigger="manual" isVisible={reach.shown} content={kernel} />}
        </>
    );
}

export function ArrayOverview({ rows }: { rows: readonly OverviewRow[] }) {
    const [allHealthy, setAllHealthy] = useState(false);
    const now = new Date();
    const healthy = rows.filter(row => row.severity === 'healthy');
    const folded = !allHealthy && healthy.length > HEALTHY_LISTED;
    const shown = folded ? rows.filter(row => row.severity !== 'healthy') : rows;
    const columns: Column<OverviewRow>[] = [
        {
            // The level and md's state words under the name, not beside it: the row's other columns
            // keep their width at 1280 px inside the shell, and the link stands alone (a link within
            // a run of text must be told apart by more than its colour).
            title: _('Array'), rowHeader: true,
            cell: row => (
                <div className="raidtune-overview-array">
                    <ArrayLink className="raidtune-overview-link" name={row.name}>{row.name}</ArrayLink>
                    <small>
                        <span className="raidtune-overview-level">{levelName(row.level)}</span>
                        {', '}<span className="raidtune-overview-state">{row.state.join(', ')}</span>
                    </small>
                </div>
            ),
        },
        { title: _('Redundancy left'), cell: row => <Redundancy row={row} /> },
        { title: _('Operation'), cell: row => <Operation operation={row.operation} name={row.name} /> },
        { title: _('Estimated end'), cell: row => <Estimate operation={row.operation} now={now} /> },
        { title: _('What sets the pace'), cell: row => (row.operation ? <OverviewPace name={row.name} /> : '—') },
    ];
    return (
        <Card id="raidtune-overview" component="section" aria-labelledby="raidtune-overview-title" isCompact>
            <CardHeader><CardTitle id="raidtune-overview-title" component="h2">{_('Arrays')}</CardTitle></CardHeader>
            <CardBody>
                <CompactTable className="raidtune-overview" label={_('Arrays')} columns={columns} rows={shown} rowKey={row => row.name}
                    rowAttributes={row => ({ 'data-array': row.name, 'data-severity': row.severity, 'data-mark': row.mark ?? 'none' })} />
                {folded && (
                    <Content component="p" className="raidtune-overview-healthy">
                        {fmt(ngettext('$0 more array is healthy and idle.', '$0 more arrays are healthy and idle.', healthy.length), healthy.length)}{' '}
                        <Button variant="link" isInline onClick={() => setAllHealthy(true)}>{_('Show them')}</Button>
                    </Content>
                )}
            </CardBody>
        </Card>
    );
}
