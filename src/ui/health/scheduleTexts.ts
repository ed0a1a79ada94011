// SPDX-License-Identifier: LGPL-2.1-or-later
// When a scheduled check runs, as an admin says it: "Sun 6 Dec, 01:30 UTC (first Sunday of the
// month)", from systemd's next run and the calendar it follows (src/md/alerts/cronCalendar.ts).
import { _, documentLanguage, fmt } from '../../host/i18n';
import { calendarRhythm, parseSystemdTime, type CalendarRhythm } from '../../md/alerts/cronCalendar';

/** A Sunday: the weekday names come from the locale, counted from it. */
const A_SUNDAY = Date.UTC(2026, 10, 29);

function weekdayName(weekday: number): string {
    return new Intl.DateTimeFormat(documentLanguage(), { weekday: 'long', timeZone: 'UTC' })
        .format(new Date(A_SUNDAY + weekday * 24 * 3600 * 1000));
}

function rhythmText(rhythm: CalendarRhythm): string {
    switch (rhythm.kind) {
    case 'daily': return _('every day');
    case 'weekly': return fmt(_('every $0'), weekdayName(rhythm.weekday));
    case 'first-weekday': return fmt(_('first $0 of the month'), weekdayName(rhythm.weekday));
    case 'monthly': return fmt(_('on day $0 of each month'), rhythm.day);
    }
}

/** systemd's time ("Sun 2026-12-06 01:30:00 UTC") in the locale's words, on the host's clock and zone. */
export function hostTimeText(systemdTime: string): string {
    const time = parseSystemdTime(systemdTime);
    if (!time) return systemdTime;
    const shown = new Intl.DateTimeFormat(documentLanguage(), {
        weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone: 'UTC',
    }).format(time.wallClock);
    return time.zone ? `${shown} ${time.zone}` : shown;
}

/**
 * The next run and how often it comes: "Sun 6 Dec, 01:30 UTC (first Sunday of the month)"; the
 * calendar spec itself where its rhythm is not one said in words; without a next run, the rhythm.
 */
export function nextRunText(nextRun: string | null, calendar: string | null): string | null {
    const rhythm = calendar === null ? null : calendarRhythm(calendar);
    const how = rhythm ? rhythmText(rhythm) : calendar;
    if (nextRun === null) return how;
    const next = hostTimeText(nextRun);
    return how ? fmt(_('$0 ($1)'), next, how) : next;
}

/** The arrays of one row of the Scheduled checks: a few by name, then how many more. */
export function arrayNamesText(arrays: readonly string[]): string {
    const SHOWN = 4;
    if (arrays.length <= SHOWN) return arrays.join(', ');
    return fmt(_('$0 and $1 more'), arrays.slice(0, SHOWN - 1).join(', '), arrays.length - (SHOWN - 1));
}
