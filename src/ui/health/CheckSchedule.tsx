// SPDX-License-Identifier: LGPL-2.1-or-later
// Which periodic check the host's own scheduler runs on each array (src/md/alerts/checkSchedule.ts):
// one row per distinct schedule (the arrays a scheduler treats alike, scheduleRows.ts) with the
// scheduler, the action and the next run; "Change…" per scheduler (ScheduleChange.tsx) and the undo
// of the last change.

import { useState } from 'react';
import { Alert, Content, Stack, StackItem } from '../pf';
import { SettingLine } from '../common/SettingLine';
import { Flex, FlexItem } from '../pfDetails';
import { CompactTable, type Column } from '../common/CompactTable';
import { GuardedButton } from '../common/GuardedButton';
import { ChangeModal } from '../plan/lazyChangeModal';
import { lazyModule } from '../common/lazyPart';
import { text } from '../common/message';
import { useCalendarAnswer, useSplitRuns, type SplitRuns } from './calendarAnswer';
import { arrayNamesText, nextRunText } from './scheduleTexts';
import { _, fmt, ngettext } from '../../host/i18n';
import type { ApplyResult } from '../../host/executor';
import { reopenedPlan } from '../../host/applyPlan';
import { readMonitorState } from '../../host/monitorAlerts';
import { useHostConfig } from '../common/HostContext';
import { checkSchedules, type CheckAction, type ScheduledCheck, type Scheduler } from '../../md/alerts/checkSchedule';
import { windowLimitsPath, type MonitorState } from '../../md/alerts/monitor';
import { clockText, ownWindow, windowEnd, type OwnWindow, type WindowEndWrites } from '../../md/alerts/ownWindow';
import { presetLabel } from '../tuning/presetLabels';
import { checkWindow, wholeCheck, type CheckSpeed, type CheckWindow } from '../../md/alerts/checkWindow';
import { splitRuns, splitWindow, type SplitWindow } from '../../md/alerts/splitWindow';
import {
    currentCalendar, dropInNotLoaded, dropInSpec, scheduleTimer, scheduleUndo, schedulePlanTitle, type CalendarAnswer,
} from '../../md/alerts/schedulePlan';
import { schedulerStart, windowStartVerdict, type WindowStartVerdict } from '../../md/alerts/windowStart';
import type { Plan } from '../../md/plan';
import type { PausedCheck } from '../../md/alerts/pausedChecks';
import { formatKiB } from '../../md/format';
import { scheduleRows, type ScheduleRow } from '../../md/alerts/scheduleRows';

// The dialog's code (form fields, the plan's preview) comes when first needed: App.tsx preloads it.
const scheduleChange = lazyModule(() => import('../../later').then(later => later.scheduleChange));
const ScheduleChange = scheduleChange.part('ScheduleChange');
export const preloadScheduleChange = scheduleChange.preload;

const SCHEDULER_NAME: Record<Scheduler, string> = {
    'raid-check': 'raid-check', checkarray: 'checkarray', mdcheck: 'mdcheck',
};

function actionText(action: CheckAction | null): string {
    if (action === null) return _('not checked');
    return action === 'repair' ? _('repair') : _('check');
}

/**
 * A timer's next run is systemd's; a cron job's, systemd's answer for the same schedule as a
 * calendar (`cronAnswer`, null until it is in or where systemd cannot say).
 */
function whenText(schedule: ScheduledCheck, cronAnswer: CalendarAnswer | null): string {
    if (!schedule.enabled) return _('disabled');
    if (schedule.cronCalendar !== null) {
        const answered = cronAnswer?.spec === schedule.cronCalendar && !cronAnswer.error ? cronAnswer.nextElapse : null;
        return nextRunText(answered, schedule.cronCalendar) ?? _('unknown');
    }
    if (schedule.cron !== null) return fmt(_('cron: $0'), schedule.cron);
    return nextRunText(schedule.nextRun, schedule.calendar) ?? _('unknown');
}

/**
 * mdcheck's runs: each for at most its window; from mdadm 4.5 the timer that says when is the
 * continuation's, whose runs check what the round has not, and a new round begins at the start
 * timer's run.
 */
function mdcheckWhen(schedule: ScheduledCheck, when: string, window: CheckWindow | null): string {
    const runs = window ? fmt(_('$0, for at most $1 a run'), when, window.duration) : when;
    if (schedule.newRound === null) return runs;
    return fmt(_('$0, until each array is checked once a round; the next round from $1 (mdcheck --restart)'),
        runs, nextRunText(schedule.newRound, null) ?? _('unknown'));
}

/** The check's start against raidtune's window, where the window is on (null: it is not, or the check does not run). */
type StartVerdict = WindowStartVerdict | 'waiting' | null;

/**
 * The window beside the next run: mdcheck's (a check longer than that goes on at the next runs), or
 * elsewhere raidtune's own (a check goes on only while it is open, with its limits), said so only
 * where the check starts inside it.
 */
function whenWithWindow(schedule: ScheduledCheck, cronAnswer: CalendarAnswer | null, window: CheckWindow | null,
    kept: OwnWindow | null, start: StartVerdict, limitsPath: string): string {
    const when = whenText(schedule, cronAnswer);
    if (!schedule.enabled) return when;
    if (schedule.scheduler === 'mdcheck') return mdcheckWhen(schedule, when, window);
    if (!kept?.on || start === null) return when;
    const [opens, closes] = [clockText(kept.startMinutes), windowEnd(kept)];
    if (start === 'waiting') return fmt(_('$0, check window from $1 to $2'), when, opens, closes);
    if (start.kind === 'outside') return fmt(_('$0, starting at $1, outside the check window from $2 to $3'), when, clockText(start.at), opens, closes);
    if (start.kind === 'unknown') return fmt(_('$0, check window from $1 to $2 (when the check starts is not known)'), when, opens, closes);
    const hours = fmt(_('$0, checking only from $1 to $2'), when, opens, closes);
    const limits = kept.limits;
    if (limits === null) return hours;
    return fmt(_('$0, with the limits of $1'), hours, limits === 'other' ? limitsPath : presetLabel(limits));
}

const time = (seconds: number) => new Date(seconds * 1000).toLocaleString();

/** How a whole check of the array goes over the windows, at its last recorded speed. */
function wholeCheckText(speed: CheckSpeed | null, split: SplitWindow, runs: SplitRuns | null): string {
    if (!runs) return '';
    const whole = wholeCheck(speed, split.window, splitRuns(split, runs));
    if (whole === null) return '';
    if (whole.kind === 'no-speed') return _('not known: no check recorded');
    if (whole.kind === 'beyond') return fmt(_('more than $0 runs'), whole.runs);
    return fmt(ngettext('$0 run, ends about $1', '$0 runs, ends about $1', whole.runs), whole.runs, time(whole.finish));
}

/** The window and when its runs come: what the "Whole check" column needs. */
interface SplitContext {
    split: SplitWindow;
    runs: SplitRuns | null;
    lastChecks: ReadonlyMap<string, CheckSpeed | null>;
}

/** What the columns need besides the row: the windows, each scheduler's start, the whole-check context. */
interface ColumnContext {
    window: CheckWindow | null;
    kept: OwnWindow | null;
    starts: ReadonlyMap<Scheduler, StartVerdict>;
    split: SplitContext | null;
    limitsPath: string;
    cronAnswer: CalendarAnswer | null;
}

const columns = ({ window, kept, starts, split, limitsPath, cronAnswer }: ColumnContext): Column<ScheduleRow>[] => [
    { title: _('Arrays'), cell: r => arrayNamesText(r.arrays), rowHeader: true, nowrap: true },
    { title: _('Scheduled by'), cell: r => SCHEDULER_NAME[r.schedule.scheduler], nowrap: true },
    { title: _('Action'), cell: r => actionText(r.action), nowrap: true },
    {
        title: _('Next run'),
        cell: r => whenWithWindow(r.schedule, cronAnswer, window, kept, starts.get(r.schedule.scheduler) ?? null,
            limitsPath),
    },
    ...(split ? [{ title: _('Whole check'), cell: (r: ScheduleRow) => r.apart }] : []),
];

/** The "Whole check" cell of an array: how long a whole check takes over the windows, where it is split. */
function wholeCheckCell(split: SplitContext | null, schedule: ScheduledCheck, array: string): string {
    return split && schedule.scheduler === split.split.scheduler && schedule.enabled && schedule.actionFor(array)
        ? wholeCheckText(split.lastChecks.get(array) ?? null, split.split, split.runs) : '';
}

/** The check after a change: systemd follows raidtune's drop-in for the timer (a warning when not). */
function DropInLoaded({ state, timer }: { state: MonitorState; timer: string }) {
    const answer = useCalendarAnswer(dropInSpec(state, timer) ?? '');
    const problem = dropInNotLoaded(state, timer, answer);
    return problem && (
        <StackItem><Alert isInline variant="warning" className="raidtune-dropin-not-loaded" title={text(problem)} /></StackItem>
    );
}

const limitsList = (limits: [string, string][]) => limits.map(([name, value]) => `${name} ${value}`).join(', ');

/**
 * An open window's limits (recorder/raidtune-check-window keeps what they replaced until its end),
 * and a limit changed since it opened, which its end keeps.
 */
function WindowLimitsInForce({ end }: { end: WindowEndWrites }) {
    const back = end.back.length ? fmt(_('A check window is open: its limits are in force, and its end writes back $0.'), limitsList(end.back))
        : _('A check window is open.');
    return (
        <StackItem>
            <Alert isInline isPlain variant="info" id="check-window-limits" title={back}>
                {end.kept.length > 0 && fmt(_('Changed since it opened, and kept when it closes: $0.'), limitsList(end.kept))}
            </Alert>
        </StackItem>
    );
}

function pausedCheckText(check: PausedCheck, opens: string | null): string {
    const where = formatKiB(check.sector / 2);
    switch (check.waits) {
    case 'degraded':
        return fmt(_('The check of $0 is paused after $1 of each member and stays paused: the array is degraded. The window goes on with it once $0 is whole again.'), check.array, where);
    case 'reshape':
        return fmt(_('The check of $0 is paused after $1 of each member and stays paused while its reshape runs.'), check.array, where);
    case 'busy':
        return fmt(_('The check of $0 is paused after $1 of each member and stays paused while another sync of $0 runs.'), check.array, where);
    case null:
        return opens
            ? fmt(_('The check of $0 is paused after $1 of each member and goes on when the window opens at $2.'), check.array, where, opens)
            : fmt(_('The check of $0 is paused after $1 of each member.'), check.array, where);
    }
}

/**
 * A check the window paused: where it stands, and why it did not go on when the window opened
 * (recorder/raidtune-check-window never resumes a check on a degraded or busy array).
 */
function PausedCheckNote({ check, opens }: { check: PausedCheck; opens: string | null }) {
    return (
        <StackItem>
            <Alert isInline isPlain variant={check.waits === 'degraded' ? 'warning' : 'info'} className="raidtune-paused-check"
                data-array={check.array} title={pausedCheckText(check, opens)} />
        </StackItem>
    );
}

/** The timer's calendar a scheduler checked against raidtune's window follows (only raid-check's has one). */
function ownWindowTimerSpec(state: MonitorState, schedules: readonly ScheduledCheck[], kept: OwnWindow | null):
    string | null {
    if (!kept?.on) return null;
    const timers = schedules.filter(s => s.enabled && s.scheduler !== 'mdcheck').map(s => scheduleTimer(state, s.scheduler));
    const timer = timers.find((t): t is string => t !== null);
    return timer ? currentCalendar(state, timer) : null;
}

/** Each scheduler's start against raidtune's window (windowStart.ts), where it is on and the check runs. */
function startVerdicts(state: MonitorState, schedules: readonly ScheduledCheck[], kept: OwnWindow | null,
    answer: CalendarAnswer | null, limitsOutside: string): Map<Scheduler, StartVerdict> {
    const verdicts = new Map<Scheduler, StartVerdict>();
    if (!kept?.on) return verdicts;
    for (const s of schedules) {
        if (!s.enabled || s.scheduler === 'mdcheck') continue;
        const timer = scheduleTimer(state, s.scheduler);
        const start = schedulerStart(s.cron, timer && currentCalendar(state, timer), answer);
        verdicts.set(s.scheduler, start === 'waiting' ? start
            : windowStartVerdict(s.scheduler, start, kept, { limitsOutside, windowLimits: kept.limits !== null }));
    }
    return verdicts;
}

/** Schedules summed up on the line; the table (expanded) has them all with each array's whole check. */
const SUMMED_UP = 3;

/** Each distinct schedule in a line of its own: "md0, md1: check, Sun, Dec 6, 01:30 AM (every Sunday)". */
function ScheduleSummary({ rows, context }: { rows: ScheduleRow[]; context: ColumnContext }) {
    const shown = rows.length > SUMMED_UP ? rows.slice(0, SUMMED_UP - 1) : rows;
    const when = (r: ScheduleRow) => whenWithWindow(r.schedule, context.cronAnswer, context.window, context.kept,
        context.starts.get(r.schedule.scheduler) ?? null, context.limitsPath);
    return (
        <>
            {shown.map(r => (
                <Content component="p" key={`${r.schedule.scheduler}-${r.arrays[0]}`} className="raidtune-schedule-summary"
                    data-arrays={r.arrays.join(' ')}>
                    {fmt(_('$0: $1, $2'), arrayNamesText(r.arrays), actionText(r.action), when(r))}
                </Content>
            ))}
            {shown.length < rows.length && (
                <Content component="p">{fmt(ngettext('and $0 more schedule', 'and $0 more schedules', rows.length - shown.length), rows.length - shown.length)}</Content>
            )}
        </>
    );
}

export function CheckSchedule({ state, arrays, lastChecks, reread, openWindow, limitsOutside, pausedChecks }: {
    state: MonitorState; arrays: string[]; lastChecks: ReadonlyMap<string, CheckSpeed | null>; reread: () => void;
    openWindow: WindowEndWrites | null; limitsOutside: string; pausedChecks: PausedCheck[];
}) {
    const config = useHostConfig();
    const schedules = checkSchedules(state);
    const window = checkWindow(state);
    const kept = ownWindow(state);
    const startAnswer = useCalendarAnswer(ownWindowTimerSpec(state, schedules, kept) ?? '');
    // A cron job's next run, from the host's systemd (one cron scheduler a host, in practice).
    const cronAnswer = useCalendarAnswer(schedules.find(s => s.enabled && s.cronCalendar !== null)?.cronCalendar ?? '');
    const starts = startVerdicts(state, schedules, kept, startAnswer, limitsOutside);
    const outside = [...starts.values()].filter((v): v is WindowStartVerdict => v !== null && v !== 'waiting' && v.kind === 'outside');
    // A whole check over the windows: the check's next start, then the runs that continue it.
    const splitBy = splitWindow(state, schedules);
    const runs = useSplitRuns(splitBy?.startSpec ?? null, splitBy?.continueSpec ?? null);
    const split = splitBy ? { split: splitBy, runs, lastChecks } : null;
    const byName = [...arrays].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    const rows = scheduleRows(schedules, byName, (schedule, array) => wholeCheckCell(split, schedule, array));
    // The dialogs decide on the files as they are when they open, not as the page read them earlier.
    const [changing, setChanging] = useState<{ scheduler: Scheduler; state: MonitorState } | null>(null);
    const [undoing, setUndoing] = useState<Plan | null>(null);
    const [lastChange, setLastChange] = useState<Plan | null>(null);
    // The files' old text and the commands again are the undo of a change (and an undone change's, a redo).
    const applied = (scheduler: Scheduler) => (result: ApplyResult) => {
        if (!result.failed) setLastChange(scheduleUndo(schedulePlanTitle(scheduler), result.done.map(o => o.step)));
        reread();
    };
    const changed = changing && checkSchedules(changing.state).find(s => s.scheduler === changing.scheduler);
    const openChange = (scheduler: Scheduler) => {
        readMonitorState(config).then(fresh => setChanging({ scheduler, state: fresh }),
            () => setChanging({ scheduler, state }));
    };
    const openUndo = (plan: Plan) => reopenedPlan(plan).then(setUndoing, () => setUndoing(plan));
    const timers = schedules.map(s => scheduleTimer(state, s.scheduler)).filter((t): t is string => t !== null);
    const actions = (
        <Flex spaceItems={{ default: 'spaceItemsSm' }} flexWrap={{ default: 'nowrap' }}>
            {schedules.map(({ scheduler }) => (
                <FlexItem key={scheduler}>
                    <GuardedButton variant="secondary" id={`schedule-change-${scheduler}`} onClick={() => openChange(scheduler)}>
                        {schedules.length > 1 ? fmt(_('Change $0…'), SCHEDULER_NAME[scheduler]) : _('Change…')}
                    </GuardedButton>
                </FlexItem>
            ))}
            {lastChange && lastChange.steps.length > 0 && (
                <FlexItem><GuardedButton variant="link" id="schedule-undo" onClick={() => openUndo(lastChange)}>{_('Undo the last change…')}</GuardedButton></FlexItem>
            )}
        </Flex>
    );
    const columnContext = { window, kept, starts, split, limitsPath: windowLimitsPath(state), cronAnswer };
    const notes = [
        ...timers.map(timer => <DropInLoaded key={timer} state={state} timer={timer} />),
        ...(openWindow ? [<WindowLimitsInForce key="open-window" end={openWindow} />] : []),
        ...pausedChecks.map(check => <PausedCheckNote key={`paused-${check.array}`} check={check} opens={kept && clockText(kept.startMinutes)} />),
        ...outside.map(v => (
            <StackItem key={text(v.note)}>
                <Alert isInline variant="warning" className="raidtune-window-outside" title={text(v.note)} />
            </StackItem>
        )),
    ];
    return (
        <SettingLine id="check-schedule" title={_('Scheduled checks')} actions={schedules.length > 0 && actions}
            summary={schedules.length === 0
                ? <Content component="p">{_('No periodic check found (raid-check, checkarray or mdcheck timers): md finds unreadable sectors only when a disk fails.')}</Content>
                : <ScheduleSummary rows={rows} context={columnContext} />}
            notes={notes.length > 0 && <Stack hasGutter>{notes}</Stack>}
            details={schedules.length > 0 && (
                <Stack hasGutter>
                    <StackItem>
                        <CompactTable label={_('Scheduled checks')} columns={columns(columnContext)} rows={rows}
                            rowKey={r => `${r.schedule.scheduler}-${r.arrays[0]}`}
                            rowAttributes={r => ({ 'data-arrays': r.arrays.join(' ') })} />
                    </StackItem>
                    {split && (
                        <StackItem><Content component="small" id="whole-check-note">
                            {split.split.ownWindow
                                ? fmt(_('Whole check: at the speed of the array\'s last recorded check (sync history); a check still running at $0 is paused, and goes on when the window opens again at $1.'),
                                    windowEnd(split.split.ownWindow), clockText(split.split.ownWindow.startMinutes))
                                : _('Whole check: at the speed of the array\'s last recorded check (sync history); each run stops after the window, and the check goes on at mdcheck_continue.timer\'s next run.')}
                        </Content></StackItem>
                    )}
                </Stack>
            )}>
            {changing && changed && (
                <ScheduleChange state={changing.state} schedule={changed} arrays={byName}
                    onClose={() => setChanging(null)}
                    onApplied={applied(changed.scheduler)} />
            )}
            {undoing && (
                <ChangeModal title={_('Undo the last change of the scheduled check')} plan={undoing} recordOriginals={false}
                    onClose={() => setUndoing(null)} onApplied={result => {
                        if (!result.failed) setLastChange(scheduleUndo(undoing.title, result.done.map(o => o.step)));
                        reread();
                    }} />
            )}
        </SettingLine>
    );
}
