// SPDX-License-Identifier: LGPL-2.1-or-later
// What mdadm --monitor will do, read from the host by one fixed script (the mdadm.conf files, the
// monitor service's state, the periodic check's files and timers; paths and programs arrive as
// arguments, never in the script's text), whether a program path is one the host can run, and the
// test alert. Read when the page opens and after a change: none of it is kernel state that moves
// by itself.

import { cockpitApi, type CockpitProblem } from './cockpit';
import type { HostConfig } from './config';
import { _, fmt } from './i18n';
import { testAlertArgv } from '../md/alerts/alertsPlan';
import type { CalendarAnswer } from '../md/alerts/schedulePlan';
import { parseCalendarIterations } from '../md/alerts/checkWindow';
import { parseCalendarClockMinutes } from '../md/alerts/windowStart';
import { HISTORY_TIMER } from '../md/history';
import { CHECK_END_GREP } from '../md/alerts/checkJournal';
import {
    CHECK_SERVICES, CHECK_TIMERS, CONF_FILES, MONITOR_UNITS, OWN_WINDOW_TIMERS, parseMonitorRead, SCHEDULE_FILES,
    UNIT_PROPERTIES, type MonitorState,
} from '../md/alerts/monitor';

// $1 the folder of mdadm.conf (/etc), $2 systemctl, $3 the unit properties, $4 the mail program
// mdadm hands its alerts to, $5 journalctl, $6 the kernel lines of completed checks it looks for
// (the last 200: the newest per array is what counts), then the units.
// Each line of a file is printed behind '|' so none reads as a marker; a file whose last line has
// no newline gets one and then @@noeol, so the next marker stays on its own line and the text read
// is the file's own to the byte (an undo writes it back).
const READ_SCRIPT = `
dir=$1; systemctl=$2; properties=$3; sendmail=$4; journalctl=$5; check_ends=$6; shift 6
for name in ${[...CONF_FILES, ...SCHEDULE_FILES].join(' ')}; do
  if [ -f "$dir/$name" ]; then
    echo "@@file $dir/$name"; sed 's/^/|/' "$dir/$name"
    if [ -n "$(tail -c 1 "$dir/$name")" ]; then echo; echo "@@noeol"; fi
  fi
done
if [ -f "$sendmail" ] && [ -x "$sendmail" ]; then echo "@@sendmail yes"; else echo "@@sendmail no"; fi
if command -v "$systemctl" >/dev/null 2>&1; then
  echo "@@units"
  "$systemctl" show --property="$properties" -- "$@" 2>/dev/null
fi
if command -v "$journalctl" >/dev/null 2>&1; then
  echo "@@journal"
  "$journalctl" _TRANSPORT=kernel --grep="$check_ends" --output=short-unix --no-pager --quiet --lines=200 2>/dev/null
fi
echo "@@end"
`;

function reason(error: unknown): string {
    const problem = error as CockpitProblem;
    return (problem.message || problem.problem || String(error)).trim();
}

export async function readMonitorState(config: HostConfig): Promise<MonitorState> {
    const argv = ['sh', '-c', READ_SCRIPT, 'raidtune-monitor', config.mdadmConfDir, config.systemctl, UNIT_PROPERTIES,
        config.sendmail, config.journalctl, CHECK_END_GREP, ...MONITOR_UNITS,
        ...CHECK_TIMERS, ...CHECK_SERVICES, HISTORY_TIMER, ...OWN_WINDOW_TIMERS];
    try {
        // 'try': a file only root may read is still read where the session may become root.
        const output = await cockpitApi().spawn(argv, { superuser: 'try', err: 'message', environ: ['LC_ALL=C'] });
        return parseMonitorRead(output, config.mdadmConfDir);
    } catch (error) {
        throw new Error(fmt(_('Reading the mdadm configuration failed: $0'), reason(error)));
    }
}

/** Whether `path` is a file the host can execute (as root, who runs mdadm --monitor). */
export async function isExecutableOnHost(path: string): Promise<boolean> {
    try {
        await cockpitApi().spawn(['sh', '-c', 'test -f "$1" && test -x "$1"', 'raidtune-check', path], { superuser: 'try', err: 'ignore' });
        return true;
    } catch {
        return false;
    }
}

/** Runs the test alert; resolves with mdadm's words, rejects with them when it fails. */
export async function sendTestAlert(config: HostConfig, state: MonitorState): Promise<string> {
    try {
        return await cockpitApi().spawn(testAlertArgv(config.mdadm, state), { superuser: 'require', err: 'out', environ: ['LC_ALL=C'] });
    } catch (error) {
        throw new Error(reason(error));
    }
}

/** How many runs of a calendar spec are read for the times of day it starts at (a weekly or daily spec has one). */
const CLOCK_ITERATIONS = 16;

/**
 * systemd's own reading of a calendar spec (`systemd-analyze calendar`, the same parser the timer
 * uses): its message when it refuses the spec, else the next time it would run and the times of
 * day of its next runs.
 */
export async function checkCalendar(spec: string): Promise<CalendarAnswer> {
    try {
        const argv = ['systemd-analyze', 'calendar', `--iterations=${CLOCK_ITERATIONS}`, '--', spec];
        const output = await cockpitApi().spawn(argv, { err: 'message', environ: ['LC_ALL=C'] });
        const field = (name: string) => new RegExp(`^\\s*${name}: (.*)$`, 'm').exec(output)?.[1] ?? null;
        return {
            spec, error: null, nextElapse: field('Next elapse'), normalized: field('Normalized form'),
            clockMinutes: parseCalendarClockMinutes(output),
        };
    } catch (error) {
        return { spec, error: reason(error), nextElapse: null, normalized: null, clockMinutes: [] };
    }
}

/**
 * The next `count` times a calendar spec elapses after `baseTime` (unix seconds), as systemd's own
 * parser computes them in the host's time zone, as its timers run; [] when it cannot.
 */
export async function calendarRuns(spec: string, baseTime: number, count: number): Promise<number[]> {
    const argv = ['systemd-analyze', 'calendar', `--iterations=${count}`, `--base-time=@${Math.floor(baseTime)}`, '--', spec];
    try {
        return parseCalendarIterations(await cockpitApi().spawn(argv, { err: 'message', environ: ['LC_ALL=C'] }));
    } catch {
        return [];
    }
}
