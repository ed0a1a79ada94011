// SPDX-License-Identifier: LGPL-2.1-or-later
// Which window splits a whole run of the host's periodic check, and when its runs come, for the
// "Whole check" estimate: mdcheck's own (its start timer, then its continuation timer; each run
// one window long; from mdadm 4.5 the start only begins a round and the continuations check), or
// raidtune's (the scheduler's timer starts the check, the window's daily start continues it; the
// first run lasts until the end of the window it falls in, or of the next one).
// A check started from cron (checkarray, raid-check without its timer) has no start systemd can
// say, so it gets no estimate.

import { checkWindow, type CheckRuns, type CheckWindow } from './checkWindow';
import { mdcheckOrder, type Scheduler, type ScheduledCheck } from './checkSchedule';
import type { MonitorState } from './monitor';
import { asCheckWindow, dailyCalendar, firstRunSeconds, ownWindow, type OwnWindow } from './ownWindow';
import { currentCalendar, scheduleTimer } from './schedulePlan';

export interface SplitWindow {
    scheduler: Scheduler;
    window: CheckWindow;
    /** The calendar specs of the check's start and of the runs that continue it. */
    startSpec: string;
    continueSpec: string | null;
    /** raidtune's window, where it is the one. */
    ownWindow: OwnWindow | null;
    /** mdadm 4.5 and later: the start only begins a round, its first check is the next continuation's. */
    roundOnly: boolean;
}

export function splitWindow(state: MonitorState, schedules: readonly ScheduledCheck[]): SplitWindow | null {
    const mdcheck = checkWindow(state);
    if (mdcheck && schedules.some(s => s.scheduler === 'mdcheck' && s.enabled)) {
        const startSpec = currentCalendar(state, 'mdcheck_start.timer');
        if (startSpec === null) return null;
        const continueSpec = currentCalendar(state, 'mdcheck_continue.timer');
        return {
            scheduler: 'mdcheck', window: mdcheck, startSpec, continueSpec, ownWindow: null,
            roundOnly: mdcheckOrder(state) === 'continue-checks',
        };
    }
    const own = ownWindow(state);
    if (!own?.on) return null;
    for (const schedule of schedules) {
        if (schedule.scheduler === 'mdcheck' || !schedule.enabled) continue;
        const timer = scheduleTimer(state, schedule.scheduler);
        const startSpec = timer && currentCalendar(state, timer);
        if (startSpec) {
            const continueSpec = dailyCalendar(own.startMinutes);
            const window = asCheckWindow(own);
            return { scheduler: schedule.scheduler, window, startSpec, continueSpec, ownWindow: own, roundOnly: false };
        }
    }
    return null;
}

/** The runs the estimate takes, from the times systemd gave for the two specs. */
export function splitRuns(split: SplitWindow, times: { start: number; continuations: readonly number[] }): CheckRuns {
    if (split.roundOnly) {
        const [first, ...later] = times.continuations;
        return first === undefined ? times : { start: first, continuations: later };
    }
    if (!split.ownWindow || split.window.seconds === null) return times;
    const first = firstRunSeconds(times.start, times.continuations, split.window.seconds);
    return first === null ? times : { ...times, firstRunSeconds: first };
}
