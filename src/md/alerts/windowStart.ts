// SPDX-License-Identifier: LGPL-2.1-or-later
// Whether the host's scheduler starts its check inside raidtune's own window (ownWindow.ts; issue
// #31). The window does not start a check: recorder/raidtune-check-window writes the window's limits
// at its start and pauses a running check at its end, and the scheduler (cron's checkarray or
// raid-check, raid-check.timer) starts it when it always does. A check started outside the window
// runs from then at the limits in force, until the window has opened and closed again.
//
// A start counts as inside from the window's first minute up to, not including, its last: a check
// started in the minute the window opens gets the window's limits within that minute, but one started
// as it closes races the end's pause, and if the check comes second it runs until the next day's end.
// Times are minutes of the day by the host's clock, as cron and the window's timers read it.

import { msg, N_, type Message } from '../message';
import { clockText } from './ownWindow';
import { cronField, cronFields } from './cronCalendar';

const DAY_MINUTES = 24 * 60;

/**
 * The minutes of the day a cron schedule ("30 1 * * 0", "@weekly") starts its job at, in order;
 * null for @reboot or a schedule not read here. The day fields do not matter: the window is daily.
 */
export function cronClockMinutes(schedule: string): number[] | null {
    const [minute, hour] = cronFields(schedule) ?? [];
    const minutes = minute === undefined ? null : cronField(minute, 0, 59);
    const hours = hour === undefined ? null : cronField(hour, 0, 23);
    if (!minutes || !hours) return null;
    return hours.flatMap(h => minutes.map(m => h * 60 + m)).sort((a, b) => a - b);
}

/**
 * The times of day of the runs `systemd-analyze calendar --iterations=N` prints ("Next elapse: Sun
 * 2026-12-06 01:00:00 CET", "Iter. #2: ..."): those lines are in the host's own zone, as its timers
 * run; minutes of the day, each once, in the order they come.
 */
export function parseCalendarClockMinutes(output: string): number[] {
    const line = /^\s*(?:Next elapse|Iter\. #\d+): \w{3} \d{4}-\d\d-\d\d (\d\d):(\d\d):\d\d/gm;
    const minutes: number[] = [];
    for (let m = line.exec(output); m; m = line.exec(output)) minutes.push(Number(m[1]) * 60 + Number(m[2]));
    return [...new Set(minutes)];
}

/** When the scheduler starts its check. */
export interface SchedulerStart {
    /** Minutes of the day, by the host's clock. */
    minutes: number[];
    /** The schedule as the host has it: "cron: 30 1 * * 0", or the timer's calendar spec. */
    schedule: string;
}

/** systemd's reading of a timer's calendar (schedulePlan.ts's CalendarAnswer), as far as needed here. */
export interface CalendarTimes {
    spec: string;
    error: string | null;
    clockMinutes: number[];
}

/**
 * When the check starts: a timer's (`timerSpec`, the calendar it follows) from systemd's answer,
 * 'waiting' until that answer is in; else a cron job's; null where it is not known.
 */
export function schedulerStart(cron: string | null, timerSpec: string | null, answer: CalendarTimes | null):
    SchedulerStart | 'waiting' | null {
    if (timerSpec !== null) {
        if (!answer || answer.spec !== timerSpec) return 'waiting';
        if (answer.error || !answer.clockMinutes.length) return null;
        return { minutes: answer.clockMinutes, schedule: timerSpec };
    }
    const minutes = cron === null ? null : cronClockMinutes(cron);
    return minutes ? { minutes, schedule: `cron: ${cron}` } : null;
}

/** A daily window: its first minute and its length in minutes (less than a day). */
export interface DailyWindow {
    startMinutes: number;
    minutes: number;
}

/** The first start outside the window; null when every start is inside it. */
export function startOutside(start: SchedulerStart, window: DailyWindow): number | null {
    return start.minutes.find(m => (m - window.startMinutes + DAY_MINUTES) % DAY_MINUTES >= window.minutes) ?? null;
}

/** What the dialog and the card say of the window against the check's start. */
export type WindowStartVerdict =
    | { kind: 'inside'; note: Message }
    | { kind: 'outside'; at: number; note: Message }
    | { kind: 'unknown'; note: Message };

/**
 * The check's start against the window: inside, outside (when it would start and at which limits it
 * would run), or not known. `limitsOutside`: the limits in force outside the window, as text;
 * `windowLimits`: whether the window writes limits of its own.
 */
export function windowStartVerdict(scheduler: string, start: SchedulerStart | null, window: DailyWindow,
    context: { limitsOutside: string; windowLimits: boolean }): WindowStartVerdict {
    const opens = clockText(window.startMinutes);
    const closes = clockText((window.startMinutes + window.minutes) % DAY_MINUTES);
    if (start === null) {
        return { kind: 'unknown', note: msg(N_('When $0 starts its check is not known here: a check it starts outside the window ($1 to $2) runs at the limits in force then ($3) until the window closes.'),
            scheduler, opens, closes, context.limitsOutside) };
    }
    const at = startOutside(start, window);
    if (at !== null) {
        return { kind: 'outside', at, note: msg(N_('$0 starts its check at $1 ($2), outside the window ($3 to $4): the check runs from $1 at the limits in force then ($5) until the window opens, and is paused only when it closes at $4. A window open at $1 keeps it inside.'),
            scheduler, clockText(at), start.schedule, opens, closes, context.limitsOutside) };
    }
    const starts = start.minutes.slice(0, 4).map(clockText).join(', ') + (start.minutes.length > 4 ? ', …' : '');
    return { kind: 'inside', note: context.windowLimits
        ? msg(N_('$0 starts its check at $1 ($2), inside the window: it runs at the window\'s limits, and is paused at $3 if not done.'),
            scheduler, starts, start.schedule, closes)
        : msg(N_('$0 starts its check at $1 ($2), inside the window: it runs at the limits in force ($3), and is paused at $4 if not done.'),
            scheduler, starts, start.schedule, context.limitsOutside, closes) };
}
