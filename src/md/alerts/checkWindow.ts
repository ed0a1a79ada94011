// SPDX-License-Identifier: LGPL-2.1-or-later
// The window of mdadm's own periodic check: how long one run of `mdcheck` may check before it stops.
// mdcheck records where it stopped, and mdcheck_continue.timer's next run resumes from there (through
// md's sync_min), so a check too long for one night is split over several. Both mdcheck_start.service
// and mdcheck_continue.service pass MDADM_CHECK_DURATION to `mdcheck --duration`, which ends the run
// at `date --date "<duration>"` (a duration alone reads as that long from now); mdadm ships "6 hours".
// raidtune sets it with a drop-in on each service (an Environment= line that sorts after the
// package's), never by editing the package's units. Not seen here: a value in the units'
// EnvironmentFile (/run/sysconfig/mdadm, which upstream's SUSE mdadm_env.sh writes) overrides it;
// Debian 12 has neither.

import { N_ } from '../message';
import { fieldError, type Parsed } from '../validate';
import { CHECK_SERVICES, dropInValues, raidtuneDropIn, unitOf, type MonitorState } from './monitor';
import { mdcheckOrder } from './checkSchedule';
import type { SyncOperation } from '../history';

export const DURATION_VARIABLE = 'MDADM_CHECK_DURATION';

/** The shortest and longest window raidtune writes, in minutes (a run longer than a day meets the next day's). */
export const WINDOW_MINUTES = { min: 15, max: 23 * 60 } as const;

/**
 * systemd's Environment property -> its variables. systemd 246 and later quote an entry with blanks
 * ("NAME=6 hours"); older ones print it bare, so a bare word without '=' continues the entry before it.
 */
export function environmentEntries(value: string): Map<string, string> {
    const entries: string[] = [];
    const token = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
    for (let m = token.exec(value); m; m = token.exec(value)) {
        if (m[1] !== undefined) entries.push(m[1].replace(/\\(.)/g, '$1'));
        else if (m[2].includes('=') || !entries.length) entries.push(m[2]);
        else entries[entries.length - 1] += ` ${m[2]}`;
    }
    return new Map(entries.filter(e => e.includes('=')).map(e => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
}

/** The duration a drop-in sets: its last Environment= line that assigns it; null when none does. */
export function dropInDuration(text: string | undefined): string | null {
    const values = dropInValues(text, 'Environment').map(v => environmentEntries(v).get(DURATION_VARIABLE));
    return values.filter((v): v is string => v !== undefined).pop() ?? null;
}

const UNIT_SECONDS: [RegExp, number][] = [
    [/^(?:min|mins|minute|minutes)$/i, 60], [/^(?:hour|hours)$/i, 3600], [/^(?:day|days)$/i, 86400],
];

/** Seconds of a duration as date(1) reads "6 hours" from now ("1 hour 30 minutes" too); null otherwise. */
export function durationSeconds(text: string): number | null {
    const parts = text.trim().split(/\s+/);
    if (parts.length % 2 || !parts[0]) return null;
    let seconds = 0;
    for (let i = 0; i < parts.length; i += 2) {
        const unit = UNIT_SECONDS.find(([names]) => names.test(parts[i + 1]));
        if (!/^\d+$/.test(parts[i]) || !unit) return null;
        seconds += Number(parts[i]) * unit[1];
    }
    return seconds;
}

export interface CheckWindow {
    /** MDADM_CHECK_DURATION as mdcheck gets it ("6 hours"). */
    duration: string;
    /** Its length; null when it is not a duration raidtune reads. */
    seconds: number | null;
    /** Whose it is: raidtune's drop-in, or the package's unit as systemd holds it. */
    source: 'raidtune' | 'package';
}

/** The service whose runs check (checkSchedule.ts mdcheckOrder): its window is the one that applies. */
export function checkingService(state: MonitorState): string {
    return mdcheckOrder(state) === 'continue-checks' ? CHECK_SERVICES[1] : CHECK_SERVICES[0];
}

/** The window the service that checks runs with; null where the host has no such service. */
export function checkWindow(state: MonitorState): CheckWindow | null {
    const id = checkingService(state);
    const service = unitOf(state, id);
    if (!service) return null;
    const own = dropInDuration(state.scheduleFiles.get(raidtuneDropIn(id)));
    const duration = own ?? environmentEntries(service.environment ?? '').get(DURATION_VARIABLE) ?? null;
    if (duration === null) return null;
    return { duration, seconds: durationSeconds(duration), source: own === null ? 'package' : 'raidtune' };
}

/** The services of the window the host has (mdcheck_continue.service may be missing on old mdadm). */
export function windowServices(state: MonitorState): string[] {
    return CHECK_SERVICES.filter(id => unitOf(state, id));
}

/** `message` (what to enter, $0 and $1 the bounds in hours) as a field's error. */
export function windowHoursError(message: string) {
    return fieldError(message, WINDOW_MINUTES.min / 60, WINDOW_MINUTES.max / 60);
}

/**
 * A window as typed, in hours ("4", "1.5"): minutes, or null for '' (mdcheck's: the package's own).
 * `message` says what to enter, with the bounds as $0 and $1.
 */
export function parseWindowInput(input: string,
    message = N_('Enter the hours one run may check, from $0 to $1 (such as 4 or 1.5); empty keeps the package\'s own.')): Parsed<number | null> {
    const text = input.trim().replace(',', '.');
    if (text === '') return { value: null };
    const minutes = /^\d+(?:\.\d+)?$/.test(text) ? Math.round(Number(text) * 60) : NaN;
    if (!(minutes >= WINDOW_MINUTES.min && minutes <= WINDOW_MINUTES.max)) return windowHoursError(message);
    return { value: minutes };
}

/** The duration written for mdcheck: whole hours as hours, else minutes (both as date(1) reads them). */
export function windowDuration(minutes: number): string {
    return minutes % 60 === 0 ? `${minutes / 60} hours` : `${minutes} minutes`;
}

/** What the dialog opens with: raidtune's window in hours, '' when the package's own is in force. */
export function windowInputText(state: MonitorState): string {
    const window = checkWindow(state);
    if (!window || window.source === 'package' || window.seconds === null) return '';
    return String(Math.round(window.seconds / 36) / 100);
}

export function windowDropInText(service: string, duration: string): string {
    return `# Written by raidtune: how long one run of ${service} may check (mdcheck --duration).\n` +
        `[Service]\nEnvironment="${DURATION_VARIABLE}=${duration}"\n`;
}

/**
 * The times `systemd-analyze calendar --iterations=N` prints ("Next elapse: Sun 2026-12-06
 * 01:00:00 CET", then "Iter. #2: ..."): unix seconds, in order. It runs in the host's own time
 * zone, as the timers do (a calendar spec means the host's clock); each time is read from the
 * "(in UTC): ..." line systemd adds below it, or from the line itself where the zone is UTC.
 */
export function parseCalendarIterations(output: string): number[] {
    const line = /^\s*(Next elapse|Iter\. #\d+|\(in UTC\)): \w{3} (\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d) (\S+)$/gm;
    const times: (number | null)[] = [];
    for (let m = line.exec(output); m; m = line.exec(output)) {
        const [year, month, day, hour, minute, second] = m.slice(2, 8).map(Number);
        const utc = m[8] === 'UTC' ? Date.UTC(year, month - 1, day, hour, minute, second) / 1000 : null;
        if (m[1] === '(in UTC)') times[times.length - 1] = utc;
        else times.push(utc);
    }
    return times.filter((t): t is number => t !== null);
}

/** The speed of the array's newest recorded check or repair (one stopped at a window's end counts too). */
export interface CheckSpeed {
    kibPerSecond: number;
    sizeKiB: number;
}

export function lastCheckSpeed(operations: readonly SyncOperation[]): CheckSpeed | null {
    const last = operations.find(o => (o.type === 'check' || o.type === 'repair') && (o.avgKiBs ?? 0) > 0 && (o.sizeKiB ?? 0) > 0);
    return last ? { kibPerSecond: last.avgKiBs as number, sizeKiB: last.sizeKiB as number } : null;
}

export interface SplitCheck {
    runs: number;
    /** Unix seconds. */
    finish: number;
}

/**
 * When a whole check that needs `checkSeconds` ends: it starts at `start` and stops after each
 * window (the first after `firstRunSeconds`, where it starts part way into one); it goes on at the
 * first continuation run after the one before has stopped (a continuation that comes while it
 * still runs finds the array busy and leaves it). null when the continuation runs given end
 * before the check does.
 */
export function splitCheck(checkSeconds: number, windowSeconds: number, start: number,
    continuations: readonly number[], firstRunSeconds = windowSeconds): SplitCheck | null {
    let runStart = start;
    let left = checkSeconds;
    let run = firstRunSeconds;
    for (let runs = 1; ; runs++) {
        if (left <= run) return { runs, finish: runStart + left };
        left -= run;
        const stopped = runStart + run;
        run = windowSeconds;
        const next = continuations.find(t => t > stopped);
        if (next === undefined) return null;
        runStart = next;
    }
}

/** A whole check of one array: not known without a recorded speed, or past the continuation runs asked for. */
export type WholeCheck = { kind: 'no-speed' } | { kind: 'beyond'; runs: number } | ({ kind: 'split' } & SplitCheck);

/** When the runs of a split check come: the first's start, the later ones', and how long the first may run. */
export interface CheckRuns {
    start: number;
    continuations: readonly number[];
    /** undefined: a whole window. */
    firstRunSeconds?: number;
}

/** A whole check at the array's last speed, over the window's runs; null when the window's length is unknown. */
export function wholeCheck(speed: CheckSpeed | null, window: CheckWindow, runs: CheckRuns): WholeCheck | null {
    if (window.seconds === null) return null;
    if (!speed) return { kind: 'no-speed' };
    const split = splitCheck(speed.sizeKiB / speed.kibPerSecond, window.seconds, runs.start, runs.continuations,
        runs.firstRunSeconds);
    return split ? { kind: 'split', ...split } : { kind: 'beyond', runs: runs.continuations.length + 1 };
}
