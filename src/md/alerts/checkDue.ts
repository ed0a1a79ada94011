// SPDX-License-Identifier: LGPL-2.1-or-later
// Whether an array's periodic check is overdue: md finds a disk's unreadable sectors only when it
// reads them, so an array that no check reads is one whose next disk failure may meet a second,
// unknown error. Overdue: no scheduler of the host checks the array (none found, all disabled, or
// the array left out), or its last completed check or repair, in raidtune's sync history or the
// kernel's journal (checkJournal.ts), ended longer ago than the scheduler's period (RHEL 9 ships
// the mdcheck timers disabled, and an EL8 to EL9 upgrade can leave raid-check.timer disabled:
// checks stop without a word).

import { calendarRhythm, type CalendarRhythm } from './cronCalendar';
import { checkSchedules, type ScheduledCheck } from './checkSchedule';
import { historyOf, type SyncOperation } from '../history';
import { isRedundant } from '../levels';
import type { HostModel } from '../modelTypes';
import type { MonitorState } from './monitor';

export type CheckDue =
    /** No enabled scheduler checks it: none found, or disabled, or the array left out. */
    | { kind: 'unscheduled'; why: 'none' | 'disabled' | 'left-out' }
    /** Its last completed check or repair ended `lastEnd` (Unix seconds), more than `periodDays` ago. */
    | { kind: 'late'; lastEnd: number; periodDays: number };

const DAY_SECONDS = 86400;

/** The longest gap between two runs of a rhythm, in days (the first weekday of a month: up to five weeks). */
function periodDays(rhythm: CalendarRhythm): number {
    switch (rhythm.kind) {
    case 'daily': return 1;
    case 'weekly': return 7;
    case 'first-weekday': return 35;
    case 'monthly': return 31;
    }
}

/**
 * The array's check, due or not: null when a scheduler checks it and either it was checked within
 * the period or raidtune cannot tell (no completed check recorded, a period it cannot read). The
 * last check is the later of raidtune's history and the kernel's journal (`journalEnd`).
 */
export function checkDue(schedules: readonly ScheduledCheck[], array: string, operations: readonly SyncOperation[],
    journalEnd: number | null, nowSeconds: number): CheckDue | null {
    if (!schedules.length) return { kind: 'unscheduled', why: 'none' };
    const enabled = schedules.filter(s => s.enabled);
    if (!enabled.length) return { kind: 'unscheduled', why: 'disabled' };
    const checking = enabled.filter(s => s.actionFor(array) !== null);
    if (!checking.length) return { kind: 'unscheduled', why: 'left-out' };
    const periods = checking.map(s => (s.roundCalendar === null ? null : calendarRhythm(s.roundCalendar)))
        .map(r => (r === null ? null : periodDays(r)));
    if (periods.includes(null)) return null;
    const period = Math.min(...(periods as number[]));
    const recorded = operations.find(o => (o.type === 'check' || o.type === 'repair') && o.finished)?.end ?? null;
    const ends = [recorded, journalEnd].filter((end): end is number => end !== null);
    if (!ends.length) return null;
    const lastEnd = Math.max(...ends);
    if (nowSeconds - lastEnd <= period * DAY_SECONDS) return null;
    return { kind: 'late', lastEnd, periodDays: period };
}

/** Each running array with redundancy (what a check reads) whose check is overdue on `host`. */
export function checksDue(state: MonitorState, host: HostModel, nowSeconds: number): Map<string, CheckDue> {
    const schedules = checkSchedules(state);
    const due = new Map<string, CheckDue>();
    // Without systemd's answer (no systemctl, as in a container) a timer may be there unseen.
    if (state.units === null && !schedules.length) return due;
    for (const array of host.arrays) {
        if (!isRedundant(array.level) || array.health === 'inactive' || array.health === 'failed') continue;
        const found = checkDue(schedules, array.name, historyOf(host.history, array)?.operations ?? [],
            state.checkEnds?.get(array.name) ?? null, nowSeconds);
        if (found) due.set(array.name, found);
    }
    return due;
}
