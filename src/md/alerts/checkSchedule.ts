// SPDX-License-Identifier: LGPL-2.1-or-later
// Which periodic check the host runs on its arrays, read only, from the host's own scheduler:
// - RHEL/Fedora `raid-check`: /etc/sysconfig/raid-check (ENABLED, CHECK=check|repair, CHECK_DEVS,
//   REPAIR_DEVS, SKIP_DEVS: with neither list given every array gets CHECK's action, otherwise only
//   the arrays listed), run by raid-check.timer or /etc/cron.d/raid-check;
// - Debian `checkarray`: /etc/cron.d/mdadm runs it on every array when /etc/default/mdadm says
//   AUTOCHECK=true (checkarray --cron takes yes, y, 1, true or t, the first letter in either case;
//   unset is false);
// - mdadm's own `mdcheck_start.timer` (every array; mdcheck_continue.timer resumes a check that ran
//   out of time where it stopped).
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
        scheduler: 'raid-check',
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
        cronCalendar: cron.calendar, actionFor: () => 'check',
    };
}

function mdcheck(state: MonitorState): ScheduledCheck | null {
    const start = unitOf(state, 'mdcheck_start.timer');
    if (!start) return null;
    return {
        scheduler: 'mdcheck', enabled: timerEnabled(start), nextRun: start.nextElapse, calendar: start.calendar, cron: null,
        cronCalendar: null, actionFor: () => 'check',
    };
}

/** Every scheduler the host has, enabled or not, in the order above. */
export function checkSchedules(state: MonitorState): ScheduledCheck[] {
    return [raidCheck(state), checkarray(state), mdcheck(state)].filter((s): s is ScheduledCheck => s !== null);
}
