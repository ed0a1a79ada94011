// SPDX-License-Identifier: LGPL-2.1-or-later
// A cron job's schedule as the calendar spec systemd answers for, and a spec in words (issue #33
// item 9: "first Sunday of the month", not "cron: 57 0 * * 0").
import {
    calendarRhythm, cronAsCalendar, cronCommandDaysUpTo, cronField, parseSystemdTime,
} from '../../../../src/md/alerts/cronCalendar';

/** Debian 12's /etc/cron.d/mdadm, as the mdadm package installs it. */
const DEBIAN_CRON_LINE = '57 0 * * 0 root if [ -x /usr/share/mdadm/checkarray ] && [ $(date +\\%d) -le 7 ]; ' +
    'then /usr/share/mdadm/checkarray --cron --all --idle --quiet; fi';

test('Debian\'s checkarray line: Sundays up to the 7th, the first Sunday of the month', () => {
    expect(cronCommandDaysUpTo(DEBIAN_CRON_LINE)).toBe(7);
    expect(cronAsCalendar('57 0 * * 0', 7)).toBe('Sun *-*-01..07 00:57:00');
    expect(calendarRhythm('Sun *-*-01..07 00:57:00')).toEqual({ kind: 'first-weekday', weekday: 0 });
    expect(cronCommandDaysUpTo('30 1 * * 0 root /usr/sbin/raid-check')).toBeNull();
});

test('cron fields to calendar parts: lists, ranges, steps, Sunday as 0 or 7, nicknames', () => {
    expect(cronAsCalendar('30 1 * * 0')).toBe('Sun *-*-* 01:30:00');
    expect(cronAsCalendar('30 1 * * 7')).toBe('Sun *-*-* 01:30:00');
    expect(cronAsCalendar('0 2 * * 1-5')).toBe('Mon..Fri *-*-* 02:00:00');
    expect(cronAsCalendar('0,30 */6 1 * *')).toBe('*-*-01 00,06,12,18:00,30:00');
    expect(cronAsCalendar('0 3 * 1,7 *')).toBe('*-01,07-* 03:00:00');
    expect(cronAsCalendar('@weekly')).toBe('Sun *-*-* 00:00:00');
    expect(cronAsCalendar('@daily')).toBe('*-*-* 00:00:00');
    // cron runs on either a restricted day of the month or a restricted weekday: no one spec says that.
    expect(cronAsCalendar('0 1 1 * 0')).toBeNull();
    expect(cronAsCalendar('@reboot')).toBeNull();
    expect(cronAsCalendar('61 1 * * *')).toBeNull();
    expect(cronAsCalendar('0 1 * *')).toBeNull();
    // A day bound that no listed day meets.
    expect(cronAsCalendar('0 1 15 * *', 7)).toBeNull();
});

test('cron field values within the field\'s own first and last', () => {
    expect(cronField('*/2', 1, 31)?.slice(0, 3)).toEqual([1, 3, 5]);
    expect(cronField('5-7,1', 0, 59)).toEqual([1, 5, 6, 7]);
    expect(cronField('0', 1, 12)).toBeNull();
    expect(cronField('x', 0, 59)).toBeNull();
});

test('rhythms said in words: daily, weekly, first weekday, monthly; others are not', () => {
    expect(calendarRhythm('*-*-* 00:57:00')).toEqual({ kind: 'daily' });
    expect(calendarRhythm('Sun *-*-* 01:00:00')).toEqual({ kind: 'weekly', weekday: 0 });
    expect(calendarRhythm('*-*-01 03:00:00')).toEqual({ kind: 'monthly', day: 1 });
    expect(calendarRhythm('Mon..Fri *-*-* 02:00:00')).toBeNull();
    expect(calendarRhythm('Sun *-*-08..14 01:00:00')).toBeNull();
    expect(calendarRhythm('*-01-* 03:00:00')).toBeNull();
    // As a unit file may write it, before systemd normalizes it.
    expect(calendarRhythm('Sun *-*-1..7 1:00:00')).toEqual({ kind: 'first-weekday', weekday: 0 });
});

test('systemd\'s time: the host\'s wall clock and zone, kept as they are', () => {
    expect(parseSystemdTime('Sun 2026-12-06 00:57:00 CET')).toEqual({ wallClock: new Date(Date.UTC(2026, 11, 6, 0, 57)), zone: 'CET' });
    expect(parseSystemdTime('Sun 2026-12-06 00:57')).toEqual({ wallClock: new Date(Date.UTC(2026, 11, 6, 0, 57)), zone: null });
    expect(parseSystemdTime('n/a')).toBeNull();
});
