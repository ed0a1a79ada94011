// SPDX-License-Identifier: LGPL-2.1-or-later
// A check's schedule in an admin's words rather than cron's: a cron job's schedule turned into the
// calendar spec systemd reads, so that the host's own systemd says when it runs next (in the
// host's zone, as cron runs it), and a calendar spec said in words ("first Sunday of the month").
// Debian's /etc/cron.d/mdadm runs checkarray at "57 0 * * 0" only when `date +%d` is at most 7:
// the first Sunday of the month, which cron's fields alone do not say.

/** The values of one cron field: "*", "5", "1-3", "*\/15", "0-30/10", lists of these; null when not read here. */
export function cronField(field: string, first: number, last: number): number[] | null {
    const values = new Set<number>();
    for (const part of field.split(',')) {
        const m = /^(?:(\*)|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
        if (!m) return null;
        const from = m[1] ? first : Number(m[2]);
        const to = m[1] ? last : m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? last : from;
        const step = m[4] !== undefined ? Number(m[4]) : 1;
        if (from < first || from > to || to > last || step < 1) return null;
        for (let v = from; v <= to; v += step) values.add(v);
    }
    return [...values].sort((a, b) => a - b);
}

/** cron's nicknames as the five fields they stand for (@reboot has none). */
const CRON_NICKNAMES: Record<string, string> = {
    '@yearly': '0 0 1 1 *', '@annually': '0 0 1 1 *', '@monthly': '0 0 1 * *', '@weekly': '0 0 * * 0',
    '@daily': '0 0 * * *', '@midnight': '0 0 * * *', '@hourly': '0 * * * *',
};

/** The five time fields of a cron schedule ("30 1 * * 0", "@weekly"); null for @reboot or another shape. */
export function cronFields(schedule: string): string[] | null {
    const trimmed = schedule.trim();
    const fields = (CRON_NICKNAMES[trimmed] ?? trimmed).split(/\s+/);
    return fields.length === 5 ? fields : null;
}

/** The day-of-month bound of a cron command that runs only early in the month (`[ $(date +\%d) -le 7 ]`). */
export function cronCommandDaysUpTo(command: string): number | null {
    const m = /\$\(\s*date\s+\+\\?%d\s*\)"?\s*-le\s*(\d+)/.exec(command);
    return m ? Number(m[1]) : null;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const two = (n: number) => String(n).padStart(2, '0');

/** Consecutive values as systemd's ranges ("01..07"), the rest as a list. */
function calendarList(values: number[], text: (n: number) => string): string {
    const parts: string[] = [];
    for (let i = 0; i < values.length;) {
        let j = i;
        while (j + 1 < values.length && values[j + 1] === values[j] + 1) j++;
        parts.push(j - i >= 2 ? `${text(values[i])}..${text(values[j])}` : values.slice(i, j + 1).map(text).join(','));
        i = j + 1;
    }
    return parts.join(',');
}

/**
 * The calendar spec (systemd.time(7)) of a cron schedule, `daysUpTo` its command's bound on the day
 * of the month; null where one spec cannot say it: cron runs on either of a restricted day of the
 * month and a restricted weekday, where systemd needs both.
 */
export function cronAsCalendar(schedule: string, daysUpTo: number | null = null): string | null {
    const fields = cronFields(schedule);
    if (!fields) return null;
    const [minuteField, hourField, dayField, monthField, weekdayField] = fields;
    const minutes = cronField(minuteField, 0, 59);
    const hours = cronField(hourField, 0, 23);
    const months = cronField(monthField, 1, 12);
    let days = cronField(dayField, 1, 31);
    // 0 and 7 are both Sunday.
    const weekdays = cronField(weekdayField, 0, 7)?.map(d => d % 7);
    if (!minutes || !hours || !months || !days || !weekdays) return null;
    if (dayField !== '*' && weekdayField !== '*') return null;
    if (daysUpTo !== null) days = days.filter(d => d <= daysUpTo);
    if (!days.length) return null;
    const weekdayPart = weekdayField === '*' ? '' : `${calendarList([...new Set(weekdays)].sort(), d => WEEKDAYS[d])} `;
    const monthPart = monthField === '*' ? '*' : calendarList(months, two);
    const dayPart = dayField === '*' && daysUpTo === null ? '*' : calendarList(days, two);
    return `${weekdayPart}*-${monthPart}-${dayPart} ${calendarList(hours, two)}:${calendarList(minutes, two)}:00`;
}

/** How often a calendar spec runs, as words say it; null for a shape not said here. */
export type CalendarRhythm =
    | { kind: 'daily' }
    | { kind: 'weekly'; weekday: number }
    | { kind: 'first-weekday'; weekday: number }
    | { kind: 'monthly'; day: number };

/**
 * The rhythm of a normalized spec as `systemd-analyze calendar` writes it ("Sun *-*-01..07
 * 01:00:00", "*-*-* 00:57:00"): one weekday or every day, in every month.
 */
export function calendarRhythm(spec: string): CalendarRhythm | null {
    // systemd writes days with two digits; a unit file (or a simulated one) may not.
    const m = /^(?:(Mon|Tue|Wed|Thu|Fri|Sat|Sun) )?\*-\*-(?:(\*)|(\d{1,2})(?:\.\.(\d{1,2}))?) [\d:]+$/.exec(spec.trim());
    if (!m) return null;
    const weekday = m[1] ? WEEKDAYS.indexOf(m[1]) : null;
    const [from, to] = [Number(m[3]), m[4] === undefined ? Number(m[3]) : Number(m[4])];
    if (weekday === null) {
        if (m[2]) return { kind: 'daily' };
        return from === to ? { kind: 'monthly', day: from } : null;
    }
    if (m[2]) return { kind: 'weekly', weekday };
    return from === 1 && to === 7 ? { kind: 'first-weekday', weekday } : null;
}

/** A time as systemd prints it ("Sun 2026-12-06 01:30:00 CET"): the host's wall clock and zone. */
export interface HostTime {
    /** The host's wall clock as if it were UTC (format with timeZone UTC to show it unchanged). */
    wallClock: Date;
    zone: string | null;
}

export function parseSystemdTime(text: string): HostTime | null {
    const m = /^\w{3} (\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d)(?::\d\d)?(?: (\S+))?$/.exec(text.trim());
    if (!m) return null;
    const [year, month, day, hour, minute] = m.slice(1, 6).map(Number);
    return { wallClock: new Date(Date.UTC(year, month - 1, day, hour, minute)), zone: m[6] ?? null };
}
