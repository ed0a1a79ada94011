// SPDX-License-Identifier: LGPL-2.1-or-later
// Which periodic check the host runs on its arrays, read only, from the host's own scheduler:
// - RHEL/Fedora `raid-check`: /etc/sysconfig/raid-check (ENABLED, CHECK=check|repair, CHECK_DEVS,
//   REPAIR_DEVS, SKIP_DEVS: with neither list given every array gets CHECK's action, otherwise only
//   the arrays listed), run by raid-check.timer or /etc/cron.d/raid-check;
// - Debian `checkarray`: /etc/cron.d/mdadm runs it on every array when /etc/default/mdadm says
//   AUTOCHECK=true (checkarray --cron takes yes, y, 1, true or t, the first letter in either case;
//   unset is false);
// - mdadm's own mdcheck timers (every array), in one of two orders (mdcheckOrder).
// The next run is systemd's (NextElapseUSecRealtime); a cron job's is its schedule as written, and
// the calendar spec that says the same (cronCalendar.ts), which the host's systemd answers for.

import { cronAsCalendar, cronCommandDaysUpTo } from './cronCalendar';
import { unitOf, type MonitorState, type MonitorUnit } from './monitor';

export type CheckAction = 'check' | 'repair';
export type Scheduler = 'raid-check' | 'checkarray' | 'mdcheck';

export interface ScheduledCheck {
    scheduler: Scheduler;
    enabled: boolean;
    /** systemd's next run of the timer; null for a cron job or a timer that is not waiting. */
    nextRun: string | null;
    /** The timer's OnCalendar as systemd holds it; null for a cron job. */
    calendar: string | null;
    /** A cron job's schedule as written ("57 0 * * 0"); null for a timer. */
    cron: string | null;
    /**
     * The cron job's schedule as a calendar spec, with its command's own condition on the day of the
     * month ("Sun *-*-01..07 00:57:00"); null for a timer or a schedule one spec cannot say.
     */
    cronCalendar: string | null;
    /** The action each array gets; null: this scheduler leaves the array out. */
    actionFor: (array: string) => CheckAction | null;
    /**
     * mdcheck from mdadm 4.5 on: the next run of mdcheck_start.timer, which only begins a new round
     * (`nextRun` and `calendar` are then mdcheck_continue.timer's, whose runs check); null otherwise.
     */
    newRound: string | null;
    /** The calendar of the runs that begin a whole check of every array (its period); null: not known. */
    roundCalendar: string | null;
}

/**
 * Which of mdcheck's services checks. Until mdadm 4.4 mdcheck_start.service checks
 * (`mdcheck --duration`) and mdcheck_continue.service resumes a check that ran out of time. From
 * 4.5 mdcheck_start.service only clears the last round's markers (`mdcheck --restart`), and
 * mdcheck_continue.service, daily, starts each array's check that this round has not done and
 * continues the others (`mdcheck --start --duration`). Read from the start service's ExecStart.
 */
export type MdcheckOrder = 'start-checks' | 'continue-checks';

export function mdcheckOrder(state: MonitorState): MdcheckOrder {
    const exec = unitOf(state, 'mdcheck_start.service')?.execStart ?? '';
    return /argv\[\]=\S*mdcheck\b[^;]*\s--restart\b/.test(exec) ? 'continue-checks' : 'start-checks';
}

/** KEY=value lines of a shell variables file (sysconfig, /etc/default), quotes removed, comments skipped. */
export function shellVariables(text: string): Map<string, string> {
    const vars = new Map<string, string>();
    for (const line of text.split('\n')) {
        const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(?:"([^"]*)"|'([^']*)'|([^\s#]*))/.exec(line);
        if (m) vars.set(m[1], m[2] ?? m[3] ?? m[4]);
    }
    return vars;
}

const words = (list: string | undefined) => (list ?? '').split(/\s+/).filter(Boolean).map(w => w.replace(/^\/dev\//, ''));

interface CronJob {
    /** The schedule fields ("57 0 * * 0", "@weekly"). */
    schedule: string;
    calendar: string | null;
}

/** The first cron line that runs `program`: its schedule, and the calendar spec of it. */
function cronJob(text: string | undefined, program: string): CronJob | null {
    const line = text?.split('\n').find(l => !/^\s*#/.test(l) && l.includes(program));
    const fields = line?.trim().split(/\s+/);
    if (!line || !fields) return null;
    const schedule = fields[0].startsWith('@') ? fields[0] : fields.slice(0, 5).join(' ');
    return { schedule, calendar: cronAsCalendar(schedule, cronCommandDaysUpTo(line)) };
}


const timerEnabled = (t: MonitorUnit) => t.activeState === 'active' || t.unitFileState === 'enabled';

function raidCheck(state: MonitorState): ScheduledCheck | null {
    const sysconfig = state.scheduleFiles.get('sysconfig/raid-check');
    if (sysconfig === undefined) return null;
    const vars = shellVariables(sysconfig);
    const action: CheckAction = vars.get('CHECK') === 'repair' ? 'repair' : 'check';
    const checked = words(vars.get('CHECK_DEVS'));
    const repaired = words(vars.get('REPAIR_DEVS'));
    const skipped = words(vars.get('SKIP_DEVS'));
    const runner = unitOf(state, 'raid-check.timer');
    const cron = cronJob(state.scheduleFiles.get('cron.d/raid-check'), 'raid-check');
    return {
        scheduler: 'raid-check', newRound: null, roundCalendar: runner?.calendar ?? cron?.calendar ?? null,
        enabled: vars.get('ENABLED') === 'yes' && ((runner !== null && timerEnabled(runner)) || cron !== null),
        nextRun: runner?.nextElapse ?? null,
        calendar: runner?.calendar ?? null,
        cron: runner ? null : cron?.schedule ?? null,
        cronCalendar: runner ? null : cron?.calendar ?? null,
        actionFor: array => {
            if (skipped.includes(array)) return null;
            if (!checked.length && !repaired.length) return action;
            return repaired.includes(array) ? 'repair' : checked.includes(array) ? 'check' : null;
        },
    };
}

/** AUTOCHECK as checkarray --cron reads it (its is_true; unset is false). */
export function autocheckOn(value: string | undefined): boolean {
    return /^(?:[Yy]es|[Yy]|1|[Tt]rue|[Tt])$/.test(value ?? '');
}

function checkarray(state: MonitorState): ScheduledCheck | null {
    const cron = cronJob(state.scheduleFiles.get('cron.d/mdadm'), 'checkarray');
    if (cron === null) return null;
    const autocheck = shellVariables(state.scheduleFiles.get('default/mdadm') ?? '').get('AUTOCHECK');
    return {
        scheduler: 'checkarray', enabled: autocheckOn(autocheck), nextRun: null, calendar: null, cron: cron.schedule,
        cronCalendar: cron.calendar, actionFor: () => 'check', newRound: null, roundCalendar: cron.calendar,
    };
}

function mdcheck(state: MonitorState): ScheduledCheck | null {
    const start = unitOf(state, 'mdcheck_start.timer');
    if (!start) return null;
    const common = {
        scheduler: 'mdcheck', cron: null, cronCalendar: null, actionFor: (): CheckAction => 'check', roundCalendar: start.calendar,
    } as const;
    if (mdcheckOrder(state) === 'start-checks') {
        const { nextElapse: nextRun, calendar } = start;
        return { ...common, enabled: timerEnabled(start), nextRun, calendar, newRound: null };
    }
    // Without its continuation timer a round begins and nothing is ever checked.
    const checks = unitOf(state, 'mdcheck_continue.timer');
    return {
        ...common, enabled: timerEnabled(start) && checks !== null && timerEnabled(checks),
        nextRun: checks?.nextElapse ?? null, calendar: checks?.calendar ?? null, newRound: start.nextElapse,
    };
}

/** Every scheduler the host has, enabled or not, in the order above. */
export function checkSchedules(state: MonitorState): ScheduledCheck[] {
    return [raidCheck(state), checkarray(state), mdcheck(state)].filter((s): s is ScheduledCheck => s !== null);
}
