// SPDX-License-Identifier: LGPL-2.1-or-later
// When an array's periodic check is overdue (src/md/alerts/checkDue.ts).
import { checkDue, checksDue } from '../../../../src/md/alerts/checkDue';
import { parseMonitorRead } from '../../../../src/md/alerts/monitor';
import type { HostModel } from '../../../../src/md/modelTypes';
import type { CheckAction, ScheduledCheck } from '../../../../src/md/alerts/checkSchedule';
import { EMPTY_HISTORY, type SyncOperation } from '../../../../src/md/history';

const DAY = 86400;
const NOW = 1_800_000_000;

function schedule(enabled: boolean, roundCalendar: string | null,
    actions: Record<string, CheckAction | null> = {}): ScheduledCheck {
    return {
        scheduler: 'raid-check', enabled, nextRun: null, calendar: roundCalendar, cron: null, cronCalendar: null, newRound: null,
        roundCalendar, actionFor: array => (array in actions ? actions[array] : 'check'),
    };
}

function operation(type: SyncOperation['type'], endDaysAgo: number, finished: boolean): SyncOperation {
    const end = NOW - endDaysAgo * DAY;
    return {
        array: 'md0', uuid: 'u', type, start: end - 3600, end, seconds: 3600, startKiB: 0, doneKiB: 1, sizeKiB: 1, avgKiBs: 1,
        speedMinKiBs: null, speedMaxKiBs: null, limitsChanged: false, mismatches: 0, finished, intervalSeconds: 60,
    };
}

const MONTHLY = 'Sun *-*-01..07 01:00:00';

test('no scheduler, all disabled, or the array left out: overdue, saying which', () => {
    expect(checkDue([], 'md0', [], null, NOW)).toEqual({ kind: 'unscheduled', why: 'none' });
    expect(checkDue([schedule(false, MONTHLY)], 'md0', [], null, NOW)).toEqual({ kind: 'unscheduled', why: 'disabled' });
    expect(checkDue([schedule(true, MONTHLY, { md0: null })], 'md0', [], null, NOW)).toEqual({ kind: 'unscheduled', why: 'left-out' });
    // One enabled scheduler that checks it is enough.
    expect(checkDue([schedule(false, MONTHLY), schedule(true, MONTHLY)], 'md0', [], null, NOW)).toBeNull();
});

test('scheduled: late only when the last completed check or repair ended more than the period ago', () => {
    const monthly = [schedule(true, MONTHLY)];
    // The first weekday of the month comes at most 35 days apart.
    expect(checkDue(monthly, 'md0', [operation('check', 34, true)], null, NOW)).toBeNull();
    expect(checkDue(monthly, 'md0', [operation('check', 36, true)], null, NOW)).toEqual({ kind: 'late', lastEnd: NOW - 36 * DAY, periodDays: 35 });
    // A check cut short does not count; a repair does; other operations are no check.
    expect(checkDue(monthly, 'md0', [operation('check', 2, false), operation('check', 40, true)], null, NOW)).toMatchObject({ kind: 'late' });
    expect(checkDue(monthly, 'md0', [operation('repair', 2, true), operation('check', 40, true)], null, NOW)).toBeNull();
    expect(checkDue(monthly, 'md0', [operation('recover', 2, true), operation('check', 40, true)], null, NOW)).toMatchObject({ kind: 'late' });
    // Weekly: 8 days is late.
    expect(checkDue([schedule(true, 'Sun *-*-* 01:30:00')], 'md0', [operation('check', 8, true)], null, NOW))
        .toEqual({ kind: 'late', lastEnd: NOW - 8 * DAY, periodDays: 7 });
});

test('the kernel\'s journal gives the last check too: the later of it and the history counts', () => {
    const monthly = [schedule(true, MONTHLY)];
    // Nothing recorded by raidtune: the journal's line alone decides.
    expect(checkDue(monthly, 'md0', [], NOW - 40 * DAY, NOW)).toEqual({ kind: 'late', lastEnd: NOW - 40 * DAY, periodDays: 35 });
    expect(checkDue(monthly, 'md0', [], NOW - 10 * DAY, NOW)).toBeNull();
    // The history's check is older than the journal's, and the other way round.
    expect(checkDue(monthly, 'md0', [operation('check', 40, true)], NOW - 3 * DAY, NOW)).toBeNull();
    expect(checkDue(monthly, 'md0', [operation('check', 3, true)], NOW - 40 * DAY, NOW)).toBeNull();
    expect(checkDue(monthly, 'md0', [operation('check', 50, true)], NOW - 40 * DAY, NOW)).toMatchObject({ lastEnd: NOW - 40 * DAY });
});

test('checksDue takes each array\'s line from the monitor read\'s journal section, by kernel name', () => {
    const host = { arrays: [{ name: 'md0', level: 'raid1', health: 'clean', uuid: null }], history: EMPTY_HISTORY } as unknown as HostModel;
    const read = (journal: string) => parseMonitorRead('@@file /etc/sysconfig/raid-check\n|ENABLED=yes\n' +
        '@@units\nId=raid-check.timer\nLoadState=loaded\nActiveState=active\nUnitFileState=enabled\n' +
        `TimersCalendar={ OnCalendar=${MONTHLY} ; next_elapse=n/a }\n\n@@journal\n${journal}@@end`, '/etc');
    const ended = NOW - 50 * DAY;
    expect(checksDue(read(`${ended}.000001 host kernel: md: md0: data-check done.\n`), host, NOW))
        .toEqual(new Map([['md0', { kind: 'late', lastEnd: ended, periodDays: 35 }]]));
    // md10's line is not md0's.
    expect(checksDue(read(`${ended}.5 host kernel: md: md10: data-check done.\n`), host, NOW)).toEqual(new Map());
});

test('what raidtune cannot tell is not called late: no completed check recorded, a period it cannot read', () => {
    expect(checkDue([schedule(true, MONTHLY)], 'md0', [], null, NOW)).toBeNull();
    expect(checkDue([schedule(true, 'Mon,Thu *-*-* 02:00:00')], 'md0', [operation('check', 90, true)], null, NOW)).toBeNull();
    expect(checkDue([schedule(true, null)], 'md0', [operation('check', 90, true)], null, NOW)).toBeNull();
});

test('checksDue: each running array with redundancy; nothing where systemd could not be asked and no cron job was found', () => {
    const host = {
        arrays: [
            { name: 'md0', level: 'raid1', health: 'clean', uuid: null },
            { name: 'md1', level: 'raid0', health: 'clean', uuid: null },
            { name: 'md2', level: 'raid5', health: 'inactive', uuid: null },
        ],
        history: EMPTY_HISTORY,
    } as unknown as HostModel;
    const withSystemd = parseMonitorRead('@@units\nId=raid-check.timer\nLoadState=not-found\n\n@@end', '/etc');
    expect(checksDue(withSystemd, host, NOW)).toEqual(new Map([['md0', { kind: 'unscheduled', why: 'none' }]]));
    expect(checksDue(parseMonitorRead('@@end', '/etc'), host, NOW)).toEqual(new Map());
});
