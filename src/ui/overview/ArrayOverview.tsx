// SPDX-License-Identifier: LGPL-2.1-or-later
// The overview at the top of the page (issue #33), after Cockpit's Storage overview: a compact
// table, one row per array, the worst first (src/md/overview.ts), problems marked as the card's
// health alert marks them, and the details on the array's own page (ArrayPage.tsx), one click away. It renders from
// the first model with no part loaded later, so nothing below it moves once the page shows.

import { useRef, useState, type ReactNode } from 'react';
import { Button, Card, CardBody, CardHeader, CardTitle, Content, Label, Progress, Tooltip } from '../pf';
import { _, fmt, ngettext } from '../../host/i18n';
import { formatPercent } from '../../md/format';
import type { OverviewOperation, OverviewRow } from '../../md/overview';
import { ArrayLink } from '../common/ArrayLink';
import { CompactTable, type Column } from '../common/CompactTable';
import { levelName, syncActionName } from '../common/labels';
import { useTooltipReach } from '../common/useTooltipReach';
import { OverviewPace } from '../diagnosis/OverviewPace';
import { checkDueText, estimateText, heldText, kernelFigureText, redundancyText } from './overviewTexts';
import type { CheckDue } from '../../md/alerts/checkDue';

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

/**
 * Text with a tooltip mounted once reached (useTooltipReach.ts), focusable where it has one; the
 * estimate's kernel figure and the overdue check's reason share it.
 */
function ReachedTooltip({ className, tip, children }: { className: string; tip: string | null; children: ReactNode }) {
    const ref = useRef<HTMLSpanElement>(null);
    const reach = useTooltipReach();
    return (
        <>
            <span ref={ref} className={className} tabIndex={tip ? 0 : undefined}
                onMouseEnter={reach.show} onMouseLeave={reach.hide} onFocus={reach.show} onBlur={reach.hide}
                onKeyDown={event => { if (event.key === 'Escape') reach.hide(); }}>
                {children}
            </span>
            {tip && reach.reached && <Tooltip triggerRef={ref} trigger="manual" isVisible={reach.shown} content={tip} />}
        </>
    );
}

/** A compact mark under the state, the reason in its tooltip. */
function CheckDueNote({ due }: { due: CheckDue | undefined }) {
    if (!due) return null;
    return (
        <div>
            <ReachedTooltip className="raidtune-overview-check-due" tip={checkDueText(due)}>
                <Label isCompact status="warning">{_('Check overdue')}</Label>
            </ReachedTooltip>
        </div>
    );
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

/** The estimate, the kernel's own figure in its tooltip. */
function Estimate({ operation, now }: { operation: OverviewOperation | null; now: Date }) {
    if (!operation) return <>—</>;
    const held = heldText(operation.runState);
    if (held || !operation.estimate) return <span className="raidtune-overview-estimate">{held ?? _('measuring…')}</span>;
    return (
        <ReachedTooltip className="raidtune-overview-estimate" tip={kernelFigureText(operation.estimate)}>
            {estimateText(operation.estimate, now)}
        </ReachedTooltip>
    );
}

/**
 * `checksDue`: the arrays whose periodic check is overdue, once the host's schedulers are read
 * (after the first paint: the note is on the level's line, which has room for it at 1280 px).
 */
export function ArrayOverview({ rows, checksDue }: {
    rows: readonly OverviewRow[]; checksDue?: ReadonlyMap<string, CheckDue>;
}) {
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
                    <CheckDueNote due={checksDue?.get(row.name)} />
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
