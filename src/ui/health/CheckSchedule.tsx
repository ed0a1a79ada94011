// SPDX-License-Identifier: LGPL-2.1-or-later
// Which periodic check the host's own scheduler runs on each array (src/md/alerts/checkSchedule.ts),
// read only: the scheduler, whether it is enabled, the action per array and the next run.

import { Card, CardBody, CardHeader, CardTitle, Content } from '../pf';
import { CompactTable, type Column } from '../common/CompactTable';
import { _, fmt } from '../../host/i18n';
import { checkSchedules, type CheckAction, type ScheduledCheck, type Scheduler } from '../../md/alerts/checkSchedule';
import type { MonitorState } from '../../md/alerts/monitor';

const SCHEDULER_NAME: Record<Scheduler, string> = {
    'raid-check': 'raid-check', checkarray: 'checkarray', mdcheck: 'mdcheck',
};

function actionText(action: CheckAction | null): string {
    if (action === null) return _('not checked');
    return action === 'repair' ? _('repair') : _('check');
}

function whenText(schedule: ScheduledCheck): string {
    if (!schedule.enabled) return _('disabled');
    if (schedule.nextRun) return schedule.nextRun;
    return schedule.cron ? fmt(_('cron: $0'), schedule.cron) : _('unknown');
}

interface Row {
    array: string;
    schedule: ScheduledCheck;
}

const columns = (): Column<Row>[] => [
    { title: _('Array'), cell: r => r.array, rowHeader: true },
    { title: _('Scheduled by'), cell: r => SCHEDULER_NAME[r.schedule.scheduler] },
    { title: _('Action'), cell: r => (r.schedule.enabled ? actionText(r.schedule.actionFor(r.array)) : _('not checked')) },
    { title: _('Next run'), cell: r => whenText(r.schedule) },
];

export function CheckSchedule({ state, arrays }: { state: MonitorState; arrays: string[] }) {
    const schedules = checkSchedules(state);
    const byName = [...arrays].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    const rows = schedules.flatMap(schedule => byName.map(array => ({ array, schedule })));
    return (
        <Card isCompact id="check-schedule" component="section" aria-labelledby="check-schedule-title">
            <CardHeader><CardTitle id="check-schedule-title" component="h2">{_('Scheduled checks')}</CardTitle></CardHeader>
            <CardBody>
                {schedules.length === 0
                    ? <Content component="p">{_('No periodic check found (raid-check, checkarray or mdcheck timers): md finds unreadable sectors only when a disk fails.')}</Content>
                    : <CompactTable label={_('Scheduled checks')} columns={columns()} rows={rows}
                        rowKey={r => `${r.schedule.scheduler}-${r.array}`} rowAttributes={r => ({ 'data-array': r.array })} />}
            </CardBody>
        </Card>
    );
}
