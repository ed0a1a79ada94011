// SPDX-License-Identifier: LGPL-2.1-or-later
import type { CheckAction, ScheduledCheck, Scheduler } from '../../../../src/md/alerts/checkSchedule';
import { scheduleRows } from '../../../../src/md/alerts/scheduleRows';

function schedule(scheduler: Scheduler, enabled: boolean,
    actions: Record<string, CheckAction | null> = {}): ScheduledCheck {
    return {
        scheduler, enabled, nextRun: null, calendar: 'Sun *-*-* 01:00:00', cron: null, cronCalendar: null, newRound: null,
        roundCalendar: null,
        actionFor: array => (array in actions ? actions[array] : 'check'),
    };
}

const ARRAYS = Array.from({ length: 128 }, (_, i) => `md${i}`);
const summary = (rows: ReturnType<typeof scheduleRows>) =>
    rows.map(r => [r.schedule.scheduler, r.action, r.arrays.length, r.arrays[0], r.apart]);

test('128 arrays one scheduler checks alike are one row', () => {
    const rows = scheduleRows([schedule('raid-check', true)], ARRAYS);
    expect(summary(rows)).toEqual([['raid-check', 'check', 128, 'md0', '']]);
    expect(rows[0].arrays).toEqual(ARRAYS);
});

test('an array with another action, or left out, gets a row of its own, where its first array is', () => {
    const rows = scheduleRows([schedule('raid-check', true, { md1: 'repair', md5: null })], ['md0', 'md1', 'md2', 'md5']);
    expect(rows.map(r => [r.action, r.arrays])).toEqual([
        ['check', ['md0', 'md2']], ['repair', ['md1']], [null, ['md5']],
    ]);
});

test('a disabled scheduler is one row of arrays it does not check; each scheduler has its own rows, in order', () => {
    const rows = scheduleRows([schedule('checkarray', false, { md1: 'repair' }), schedule('mdcheck', true)], ['md0', 'md1']);
    expect(summary(rows)).toEqual([['checkarray', null, 2, 'md0', ''], ['mdcheck', 'check', 2, 'md0', '']]);
});

test('what else a row shows per array (a whole check\'s length) sets arrays apart', () => {
    const rows = scheduleRows([schedule('mdcheck', true)], ['md0', 'md1', 'md2'],
        (_s, array) => (array === 'md1' ? '3 runs' : 'not known'));
    expect(rows.map(r => [r.arrays, r.apart])).toEqual([[['md0', 'md2'], 'not known'], [['md1'], '3 runs']]);
});
