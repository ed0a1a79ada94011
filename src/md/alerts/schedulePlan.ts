// SPDX-License-Identifier: LGPL-2.1-or-later
// Changing the periodic check with the scheduler the host already has (never a third one beside it),
// as a plan of file writes and systemctl commands:
// - raid-check: ENABLED, CHECK, CHECK_DEVS, REPAIR_DEVS and SKIP_DEVS in /etc/sysconfig/raid-check;
// - checkarray: AUTOCHECK in /etc/default/mdadm. The time stays as Debian's /etc/cron.d/mdadm has
//   it: that file is a conffile of the package (an edit makes every upgrade ask), and its command
//   guards the day of the month itself, so its time fields are not the whole schedule;
// - mdcheck: enabling or disabling mdadm's timers.
// When a timer runs (raid-check.timer, mdcheck_start.timer) is a drop-in whose empty `OnCalendar=`
// drops the package's own calendar before it adds the one asked for; then `systemctl daemon-reload`
// and `try-restart` (a timer that was stopped stays stopped). Only the lines of the variables that
// change are edited, in the file as the host holds it when the change runs; comments and every
// other line stay, and an undo puts back only those lines. The calendar spec is checked by the
// host's own `systemd-analyze calendar` (the dialog asks it; a spec it refuses gives no plan).

import { msg, N_, type Message } from '../message';
import type { EditFileStep, Plan, RunCommandStep, Step, WriteFileStep } from '../plan';
import type { LineEdit } from '../lineEdit';
import { invertStep } from '../plan';
import type { PlanResult } from '../tuning/result';
import { fieldError, type Parsed } from '../validate';
import { autocheckOn, checkSchedules, shellVariables, type CheckAction, type Scheduler } from './checkSchedule';
import {
    dropInSetting, dropInValues, OWN_WINDOW_TIMERS, raidtuneDropIn, unitOf, WINDOW_LIMITS_FILE, windowLimitsPath,
    type MonitorState,
} from './monitor';
import * as checkWindow from './checkWindow';
import * as own from './ownWindow';
import { schedulerStart, windowStartVerdict, type DailyWindow, type WindowStartVerdict } from './windowStart';

export type ScheduleField = 'calendar' | 'checkDevs' | 'repairDevs' | 'skipDevs' | 'window' | 'windowStart' | 'windowLimits';

export interface ScheduleInput {
    enabled: boolean;
    /** raid-check's CHECK. */
    action: CheckAction;
    /** raid-check's lists, as typed (blank or comma separated array names). */
    checkDevs: string;
    repairDevs: string;
    skipDevs: string;
    /** The timer's OnCalendar; '' is the package's own (raidtune's drop-in removed). */
    calendar: string;
    /**
     * The window in hours, as typed: mdcheck's ('' is the package's own: checkWindow.ts), or
     * elsewhere raidtune's own (ownWindow.ts).
     */
    window: string;
    /** raidtune's own window: when it opens ("01:00"; '' none), and the preset whose limits it writes ('' none). */
    windowStart: string;
    windowLimits: string;
}

/** The host's answer for one calendar spec (`systemd-analyze calendar`). */
export interface CalendarAnswer {
    spec: string;
    /** systemd's message when it cannot parse the spec; null when it can. */
    error: string | null;
    /** When it would run next, as systemd prints it. */
    nextElapse: string | null;
    /** The spec as systemd writes it back (what `systemctl show` prints as the timer's OnCalendar). */
    normalized: string | null;
    /** The times of day of its next runs (minutes, the host's clock; windowStart.ts). */
    clockMinutes: number[];
}

/** The timer whose calendar each scheduler's dialog sets (checkarray runs from cron: none). */
const SCHEDULER_TIMER: Record<Scheduler, string | null> = {
    'raid-check': 'raid-check.timer', checkarray: null, mdcheck: 'mdcheck_start.timer',
};

const SYSCONFIG = 'sysconfig/raid-check';
const DEFAULT_MDADM = 'default/mdadm';

/** The timer whose calendar the dialog sets, where the host has it (raid-check may run from cron). */
export function scheduleTimer(state: MonitorState, scheduler: Scheduler): string | null {
    const timer = SCHEDULER_TIMER[scheduler];
    return timer && unitOf(state, timer) ? timer : null;
}

/**
 * The edit that sets `name` to `value` in a file of shell variables, applied to the file as the host
 * holds it when the change runs (lineEdit.ts): its assignments give way to one, or one is added at
 * the end; every other line stays as it was.
 */
export function shellVariableEdit(name: string, value: string): LineEdit {
    return { key: name, lines: [/^[A-Za-z0-9_./:-]+$/.test(value) ? `${name}=${value}` : `${name}="${value}"`] };
}

/** The OnCalendar a drop-in leaves in force: its last one ('' resets); null when it sets none. */
export function dropInCalendar(text: string | undefined): string | null {
    return dropInValues(text, 'OnCalendar').pop() || null;
}

export function dropInText(timer: string, spec: string): string {
    return `# Written by raidtune: when ${timer} runs. The empty line drops the package's own calendar.\n` +
        `[Timer]\nOnCalendar=\nOnCalendar=${spec}\n`;
}

/** The calendar the timer follows now: raidtune's drop-in, else what systemd holds. */
export function currentCalendar(state: MonitorState, timer: string): string | null {
    return dropInCalendar(state.scheduleFiles.get(raidtuneDropIn(timer))) ?? unitOf(state, timer)?.calendar ?? null;
}

// What calendar specs are made of (weekdays, dates, times, repetitions, time zones such as
// Europe/Berlin). Nothing else reaches the unit file: a newline would add a setting, a trailing
// backslash continue the line, and '%' is a unit file specifier, which systemd-analyze does not expand.
const CALENDAR = new RegExp('^[A-Za-z0-9 *:/.,~_+-]*$');

/** raidtune's drop-in calendar for the timer, where it has one (the spec as written). */
export function dropInSpec(state: MonitorState, timer: string): string | null {
    return dropInCalendar(state.scheduleFiles.get(raidtuneDropIn(timer)));
}

/**
 * Whether systemd follows raidtune's drop-in, the check after a change: the timer's calendar as
 * systemd holds it against the drop-in's spec as systemd normalizes it. A message when it does not
 * (the unit files were not reloaded since, or another drop-in sorts after raidtune's); null when it
 * does or cannot be known yet.
 */
export function dropInNotLoaded(state: MonitorState, timer: string, answer: CalendarAnswer | null): Message | null {
    const spec = dropInSpec(state, timer);
    const held = unitOf(state, timer)?.calendar ?? null;
    if (spec === null || held === null || !answer || answer.spec !== spec || answer.normalized === null) return null;
    if (answer.normalized === held) return null;
    return msg(N_('$0 says "$1", but systemd follows "$2" for $3: run systemctl daemon-reload, or look for another drop-in.'),
        `${state.etcDir}/${raidtuneDropIn(timer)}`, spec, held, timer);
}

/** '' (the package's own calendar) or one line of the characters above for systemd to read. */
export function parseCalendarInput(input: string): Parsed<string> {
    const spec = input.trim();
    if (spec.length > 200 || !CALENDAR.test(spec)) {
        return fieldError(N_('Enter one calendar spec on one line, such as "Sun *-*-* 01:00" (see systemd.time(7)).'));
    }
    return { value: spec };
}

/** Array names (md0, or /dev/md0), blank or comma separated; each must be an array of this host. */
export function parseArrayList(input: string, arrays: readonly string[]): Parsed<string[]> {
    const names = [...new Set(input.split(/[\s,]+/).filter(Boolean).map(w => w.replace(/^\/dev\//, '')))];
    const unknown = names.find(n => !arrays.includes(n));
    if (unknown !== undefined) return fieldError(N_('There is no array $0 on this host.'), unknown);
    return { value: names };
}

const LISTS = ['CHECK_DEVS', 'REPAIR_DEVS', 'SKIP_DEVS'] as const;
const listOf = (value: string | undefined) => (value ?? '').split(/\s+/).filter(Boolean).map(w => w.replace(/^\/dev\//, '')).join(' ');

/** What the dialog opens with: the host's settings as they are. */
export function scheduleInput(state: MonitorState, scheduler: Scheduler, enabled: boolean): ScheduleInput {
    const vars = shellVariables(state.scheduleFiles.get(SYSCONFIG) ?? '');
    const timer = scheduleTimer(state, scheduler);
    return {
        enabled: scheduler === 'raid-check' ? vars.get('ENABLED') === 'yes' : enabled,
        action: vars.get('CHECK') === 'repair' ? 'repair' : 'check',
        checkDevs: listOf(vars.get('CHECK_DEVS')),
        repairDevs: listOf(vars.get('REPAIR_DEVS')),
        skipDevs: listOf(vars.get('SKIP_DEVS')),
        calendar: timer ? currentCalendar(state, timer) ?? '' : '',
        ...windowInput(state, scheduler),
    };
}

function windowInput(state: MonitorState, scheduler: Scheduler): Pick<ScheduleInput, 'window' | 'windowStart' | 'windowLimits'> {
    if (scheduler === 'mdcheck') return { window: checkWindow.windowInputText(state), windowStart: '', windowLimits: '' };
    const window = own.ownWindow(state);
    if (!window || !window.on) return { window: '', windowStart: '', windowLimits: '' };
    return {
        window: String(Math.round(window.minutes / 0.6) / 100),
        windowStart: own.clockText(window.startMinutes),
        windowLimits: window.limits === 'other' || window.limits === null ? '' : window.limits,
    };
}

function fileStep(state: MonitorState, relative: string, setting: Message,
    content: string | null): WriteFileStep | null {
    const previous = state.scheduleFiles.get(relative) ?? null;
    if (content === previous) return null;
    return { kind: 'write-file', setting, path: `${state.etcDir}/${relative}`, content, previous, checked: true };
}

/** name, value, and whether the value the file holds (undefined: none) already means the same to the script. */
type Variable = [string, string, (now: string | undefined) => boolean];

/** The edit of the variables whose value changes (null: none does); the file's other lines are the host's. */
function variablesStep(state: MonitorState, relative: string, values: Variable[]): EditFileStep | null {
    const opened = state.scheduleFiles.get(relative) ?? null;
    const vars = shellVariables(opened ?? '');
    const edits = values.filter(([name, , same]) => !same(vars.get(name)))
        .map(([name, value]) => shellVariableEdit(name, value));
    if (!edits.length) return null;
    const path = `${state.etcDir}/${relative}`;
    return { kind: 'edit-file', setting: msg(N_('settings in $0'), path), path, format: 'shell-vars', edits, opened };
}

function run(setting: Message, argv: string[], undoArgv: string[]): RunCommandStep {
    return { kind: 'run', setting, argv, undoArgv };
}

/** mdcheck's window as drop-ins on its services (none where the host has neither service). */
function windowFiles(state: MonitorState, input: string): { error: Message } | { files: (WriteFileStep | null)[] } {
    const services = checkWindow.windowServices(state);
    if (!services.length) return { files: [] };
    const parsed = checkWindow.parseWindowInput(input);
    if (parsed.error) return { error: parsed.error };
    const minutes = parsed.value;
    const text = (service: string) => (minutes === null ? null
        : checkWindow.windowDropInText(service, checkWindow.windowDuration(minutes)));
    const step = (service: string) =>
        fileStep(state, raidtuneDropIn(service), dropInSetting(state, raidtuneDropIn(service)), text(service));
    return { files: services.map(step) };
}

type Errors = Partial<Record<ScheduleField, Message>>;

const HOURS_OPEN = N_('Enter the hours the window stays open, from $0 to $1 (such as 6 or 1.5).');

/** When raidtune's window closes as the dialog has it; null until its start and hours are valid. */
export function windowCloses(input: ScheduleInput): { at: string; nextDay: boolean } | null {
    const start = own.parseWindowStart(input.windowStart).value;
    const minutes = checkWindow.parseWindowInput(input.window, HOURS_OPEN).value;
    return start == null || minutes == null ? null : own.closingTime(start, minutes);
}

/**
 * raidtune's own window: a drop-in on each edge's timer and the limits file (all removed when the
 * start is empty), and the window asked for (null: none).
 */
function ownWindowFiles(state: MonitorState, input: ScheduleInput):
    { errors: Errors } | { files: (WriteFileStep | null)[]; window: DailyWindow & { limits: boolean } | null } {
    const start = own.parseWindowStart(input.windowStart);
    const hours = checkWindow.parseWindowInput(input.window, HOURS_OPEN);
    const limits = own.parseWindowLimits(input.windowLimits);
    // Hours are needed once the window has a start.
    const needed = start.value != null && hours.value === null;
    const noHours = needed ? checkWindow.windowHoursError(HOURS_OPEN).error : undefined;
    const errors: Errors = { windowStart: start.error, windowLimits: limits.error, window: hours.error ?? noHours };
    if (Object.values(errors).some(Boolean)) return { errors };
    const opens = start.value ?? null;
    const edges = opens === null ? [null, null] : [opens, opens + (hours.value as number)];
    const files = OWN_WINDOW_TIMERS.map((timer, i) => {
        const relative = raidtuneDropIn(timer);
        const at = edges[i];
        const text = at === null ? null : dropInText(timer, own.dailyCalendar(at));
        return fileStep(state, relative, dropInSetting(state, relative), text);
    });
    const preset = opens === null ? null : limits.value ?? null;
    const limitsSetting = msg(N_('the check window\'s limits in $0'), windowLimitsPath(state));
    const limitsText = preset === null ? null : own.windowLimitsText(preset);
    files.push(fileStep(state, WINDOW_LIMITS_FILE, limitsSetting, limitsText));
    if (opens === null) return { files, window: null };
    return { files, window: { startMinutes: opens, minutes: hours.value as number, limits: preset !== null } };
}

/** The calendar the scheduler's timer will follow after the change ('' keeps the one systemd holds); null: no timer. */
export function startSpec(state: MonitorState, scheduler: Scheduler, input: ScheduleInput): string | null {
    const timer = scheduleTimer(state, scheduler);
    if (!timer) return null;
    return parseCalendarInput(input.calendar).value || unitOf(state, timer)?.calendar || null;
}

/**
 * The check's start against raidtune's window as the dialog has them (windowStart.ts): null when
 * there is no window or no check; 'waiting' until systemd has read the timer's calendar.
 * `limitsOutside`: the limits in force outside the window, as text.
 */
export function windowStartCheck(state: MonitorState, scheduler: Scheduler, input: ScheduleInput,
    answer: CalendarAnswer | null, limitsOutside: string): WindowStartVerdict | 'waiting' | null {
    if (scheduler === 'mdcheck' || !input.enabled || !own.ownWindowInstalled(state)) return null;
    const files = ownWindowFiles(state, input);
    if ('errors' in files || !files.window) return null;
    const cron = checkSchedules(state).find(s => s.scheduler === scheduler)?.cron ?? null;
    const start = schedulerStart(cron, startSpec(state, scheduler, input), answer);
    if (start === 'waiting') return start;
    return windowStartVerdict(scheduler, start, files.window, { limitsOutside, windowLimits: files.window.limits });
}

/** A step that writes a whole file raidtune owns (a drop-in) or edits lines of the host's own. */
type FileStep = WriteFileStep | EditFileStep;

type Checked = { errors: Errors }
    | { files: (FileStep | null)[]; calendar: string | null; ownWindowOn: boolean | null; warnings: Message[] };

/** The calendar's drop-in step, or why there is none yet (null answer: the host was not asked yet). */
function calendarStep(state: MonitorState, timer: string, input: string, answer: CalendarAnswer | null):
    { error: Message } | { waiting: true } | { step: WriteFileStep | null } {
    const parsed = parseCalendarInput(input);
    if (parsed.error) return { error: parsed.error };
    const spec = parsed.value;
    const relative = raidtuneDropIn(timer);
    const unchanged = state.scheduleFiles.has(relative) ? dropInCalendar(state.scheduleFiles.get(relative)) === spec
        : spec === '' || spec === (unitOf(state, timer)?.calendar ?? '');
    if (unchanged) return { step: null };
    if (spec === '') return { step: fileStep(state, relative, dropInSetting(state, relative), null) };
    if (!answer || answer.spec !== spec) return { waiting: true };
    if (answer.error) return { error: msg(N_('systemd cannot read this calendar spec: $0'), answer.error) };
    return { step: fileStep(state, relative, dropInSetting(state, relative), dropInText(timer, spec)) };
}

function checkedFiles(state: MonitorState, scheduler: Scheduler, input: ScheduleInput, arrays: readonly string[],
    answer: CalendarAnswer | null, limitsOutside: string): Checked | null {
    const errors: Errors = {};
    const warnings: Message[] = [];
    const files: (FileStep | null)[] = [];
    let ownWindowOn: boolean | null = null;
    if (scheduler === 'raid-check') {
        // A name the file already lists stays allowed: an array that is stopped now keeps its place.
        const vars = shellVariables(state.scheduleFiles.get(SYSCONFIG) ?? '');
        const listed = LISTS.flatMap(name => listOf(vars.get(name)).split(' ').filter(Boolean));
        const lists = (['checkDevs', 'repairDevs', 'skipDevs'] as const).map(field => {
            const parsed = parseArrayList(input[field], [...arrays, ...listed]);
            if (parsed.error) errors[field] = parsed.error;
            return parsed.value?.join(' ') ?? '';
        });
        // raid-check runs only with ENABLED=yes and checks unless CHECK=repair (checkSchedule.ts reads them so).
        const list = (name: string, value: string): Variable => [name, value, now => listOf(now) === value];
        files.push(variablesStep(state, SYSCONFIG, [
            ['ENABLED', input.enabled ? 'yes' : 'no', now => (now === 'yes') === input.enabled],
            ['CHECK', input.action, now => (now === 'repair' ? 'repair' : 'check') === input.action],
            list('CHECK_DEVS', lists[0]), list('REPAIR_DEVS', lists[1]), list('SKIP_DEVS', lists[2])]));
    }
    if (scheduler === 'checkarray') {
        const autocheck: Variable = ['AUTOCHECK', input.enabled ? 'true' : 'false', now => autocheckOn(now) === input.enabled];
        files.push(variablesStep(state, DEFAULT_MDADM, [autocheck]));
    }
    if (scheduler === 'mdcheck') {
        const window = windowFiles(state, input.window);
        if ('error' in window) errors.window = window.error;
        else files.push(...window.files);
    } else if (own.ownWindowInstalled(state)) {
        const window = ownWindowFiles(state, input);
        if ('errors' in window) Object.assign(errors, window.errors);
        else {
            files.push(...window.files);
            ownWindowOn = window.window !== null;
        }
    }
    // A window the check does not start in is refused: it would bound nothing (windowStart.ts).
    const start = windowStartCheck(state, scheduler, input, answer, limitsOutside);
    if (start !== null && start !== 'waiting' && start.kind === 'outside') errors.windowStart = start.note;
    if (start !== null && start !== 'waiting' && start.kind === 'unknown') warnings.push(start.note);
    const timer = scheduleTimer(state, scheduler);
    let waiting = false;
    if (timer) {
        const calendar = calendarStep(state, timer, input.calendar, answer);
        if ('error' in calendar) errors.calendar = calendar.error;
        else if ('waiting' in calendar) waiting = true;
        else files.push(calendar.step);
    }
    if (Object.values(errors).some(Boolean)) return { errors };
    return waiting || start === 'waiting' ? null : { files, calendar: timer, ownWindowOn, warnings };
}

/**
 * The window's timers: on or off as asked, or, when they run already and their calendars changed,
 * restarted (so each computes its next run from the new one). Turning them on or off (either way,
 * the undo too) also runs the tool's `off`: a window turned off while open would otherwise leave its
 * limits in force and a check paused for good; before a window is turned on it finds nothing to do.
 */
function ownWindowTimerSteps(state: MonitorState, on: boolean | null, files: FileStep[],
    systemctl: (...args: string[]) => string[]): Step[] {
    if (on === null) return [];
    const running = own.ownWindow(state)?.on ?? false;
    const setting = msg(N_('timers $0'), OWN_WINDOW_TIMERS.join(', '));
    if (on !== running) {
        const start = systemctl('enable', '--now', ...OWN_WINDOW_TIMERS);
        const stop = systemctl('disable', '--now', ...OWN_WINDOW_TIMERS);
        const off = systemctl('start', own.OWN_WINDOW_OFF);
        const offStep = run(msg(N_('the check window\'s limits and paused checks')), off, off);
        return on ? [offStep, run(setting, start, stop)] : [run(setting, stop, start), offStep];
    }
    const moved = files.some(f => OWN_WINDOW_TIMERS.some(t => f.path.endsWith(raidtuneDropIn(t))));
    if (!on || !moved) return [];
    const restart = systemctl('try-restart', ...OWN_WINDOW_TIMERS);
    return [run(setting, restart, restart)];
}

export function schedulePlanTitle(scheduler: Scheduler): Message {
    return msg(N_('Scheduled check ($0)'), scheduler);
}

/**
 * The change as a plan: the files first (mdcheck's window among them: checkWindow.ts), then
 * `daemon-reload` when a drop-in changed, then mdcheck's timers enabled or disabled, then
 * `try-restart` of the timer whose calendar changed. `timerEnabled`:
 * whether mdcheck's timer runs now. No plan and no error while the host has not yet answered for the
 * calendar spec typed.
 */
export function schedulePlan(state: MonitorState, scheduler: Scheduler, input: ScheduleInput,
    context: {
        arrays: readonly string[]; calendar: CalendarAnswer | null; systemctl: string; timerEnabled: boolean;
        /** The limits in force outside the window, as text (ownWindow.ts's limitsOutsideWindow); '?' when not given. */
        limitsOutside?: string;
    }): PlanResult<ScheduleField> {
    const checked = checkedFiles(state, scheduler, input, context.arrays, context.calendar, context.limitsOutside ?? '?');
    if (checked === null) return { errors: {} };
    if ('errors' in checked) return { errors: checked.errors };
    const files = checked.files.filter((s): s is FileStep => s !== null);
    const timer = checked.calendar;
    const dropInChanged = timer !== null && files.some(f => f.path.endsWith(raidtuneDropIn(timer)));
    const unitsChanged = files.some(f => f.path.startsWith(`${state.etcDir}/systemd/`));
    const steps: Step[] = [...files];
    const systemctl = (...args: string[]) => [context.systemctl, ...args];
    if (unitsChanged) steps.push(run(msg(N_('systemd\'s unit files')), systemctl('daemon-reload'), systemctl('daemon-reload')));
    if (scheduler === 'mdcheck' && input.enabled !== context.timerEnabled) {
        const timers = ['mdcheck_start.timer', 'mdcheck_continue.timer'].filter(id => unitOf(state, id));
        const [on, off] = [systemctl('enable', '--now', ...timers), systemctl('disable', '--now', ...timers)];
        steps.push(run(msg(N_('timers $0'), timers.join(', ')), input.enabled ? on : off, input.enabled ? off : on));
    }
    if (dropInChanged && timer) {
        const restart = systemctl('try-restart', timer);
        steps.push(run(msg(N_('timer $0'), timer), restart, restart));
    }
    steps.push(...ownWindowTimerSteps(state, checked.ownWindowOn, files, systemctl));
    const warnings = scheduler === 'raid-check' && input.enabled && unitOf(state, 'raid-check.timer')?.activeState !== 'active'
        ? [msg(N_('raid-check.timer does not run: ENABLED=yes alone starts no check.'))] : [];
    warnings.push(...checked.warnings);
    return { plan: { title: schedulePlanTitle(scheduler), steps }, warnings };
}

/**
 * The undo of an applied schedule change: the files' old text first (newest write first), then the
 * commands in their own order, reversed each, so the reload reads the old files and the restart
 * comes after it.
 */
export function scheduleUndo(title: Message, applied: readonly Step[]): Plan {
    const files = applied.filter(s => s.kind === 'write-file' || s.kind === 'edit-file').reverse();
    const commands = applied.filter(s => s.kind === 'run');
    return { title, steps: [...files, ...commands].map(invertStep).filter((s): s is Step => s !== null) };
}
