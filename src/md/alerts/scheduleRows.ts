// SPDX-License-Identifier: LGPL-2.1-or-later
// The Scheduled checks table has one row per distinct schedule, not per array: 128 arrays that
// one scheduler checks alike are one row (issue #33), and an array it treats differently (another
// action, left out, a whole check over the windows that takes another time) gets a row of its own.
import type { CheckAction, ScheduledCheck } from './checkSchedule';

export interface ScheduleRow {
    schedule: ScheduledCheck;
    /** The arrays of the row, in the order given. */
    arrays: string[];
    /** What the scheduler does to them; null: nothing (disabled, or left out). */
    action: CheckAction | null;
    /** What else sets the row apart (the whole check's text), as `apart` gave it. */
    apart: string;
}

/**
 * Arrays grouped per scheduler by action and by `apart` (a per-array text the row shows, such as
 * how long a whole check takes); schedulers in their order, each group where its first array is.
 */
export function scheduleRows(schedules: readonly ScheduledCheck[], arrays: readonly string[],
    apart: (schedule: ScheduledCheck, array: string) => string = () => ''): ScheduleRow[] {
    return schedules.flatMap(schedule => {
        const rows = new Map<string, ScheduleRow>();
        for (const array of arrays) {
            const action = schedule.enabled ? schedule.actionFor(array) : null;
            const differs = apart(schedule, array);
            const key = JSON.stringify([action, differs]);
            const row = rows.get(key);
            if (row) row.arrays.push(array);
            else rows.set(key, { schedule, arrays: [array], action, apart: differs });
        }
        return [...rows.values()];
    });
}
