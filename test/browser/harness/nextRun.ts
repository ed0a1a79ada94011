// SPDX-License-Identifier: LGPL-2.1-or-later
// When the scheduled check's table should say a check runs next: this machine's systemd (the
// simulated host's, as the page asks it) for the schedule's calendar spec, in the words of the
// page's English ("Sun, Nov 29, 01:30 AM UTC (every Sunday)"), built here without Intl.
import { execFileSync } from 'node:child_process';

/** What this machine's systemd says of a calendar spec: its normalized form and next run. */
export function systemdCalendar(spec: string): { normalized: string; next: string } {
    const out = execFileSync('systemd-analyze', ['calendar', '--', spec], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
    const field = (name: string) => new RegExp(`^\\s*${name}: (.*)$`, 'm').exec(out)?.[1] ?? '';
    return { normalized: field('Normalized form'), next: field('Next elapse') };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** systemd's "Sun 2026-11-29 01:30:00 UTC" as the page writes it in English: "Sun, Nov 29, 01:30 AM UTC". */
export function englishHostTime(systemdTime: string): string {
    const m = /^(\w{3}) \d{4}-(\d\d)-(\d\d) (\d\d):(\d\d):\d\d (\S+)$/.exec(systemdTime);
    if (!m) throw new Error(`not a systemd time: ${systemdTime}`);
    const hour = Number(m[4]);
    const hour12 = String(hour % 12 || 12).padStart(2, '0');
    return `${m[1]}, ${MONTHS[Number(m[2]) - 1]} ${Number(m[3])}, ${hour12}:${m[5]} ${hour < 12 ? 'AM' : 'PM'} ${m[6]}`;
}

/** "Sun, Nov 29, 01:30 AM UTC (every Sunday)": the next run of `spec` by systemd now, and its rhythm. */
export function shownNextRun(spec: string, rhythm: string): string {
    return `${englishHostTime(systemdCalendar(spec).next)} (${rhythm})`;
}

/** A cell's text with every kind of blank as one space (Intl puts a narrow no-break space before AM). */
export const plainSpaces = (text: string) => text.replace(/\s+/g, ' ').trim();
