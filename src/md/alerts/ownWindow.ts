// SPDX-License-Identifier: LGPL-2.1-or-later
// raidtune's own check window, for hosts whose periodic check has none (RHEL/Fedora raid-check,
// Debian checkarray start a whole check at once; mdadm's mdcheck has its own: checkWindow.ts).
// Two timers installed with the plugin run the host tool recorder/raidtune-check-window at the
// window's edges, every day: its start resumes a check paused at the last end and writes the
// window's limits (a preset's system-wide speed limits), its end pauses a running check and writes
// the limits from before back (kept in the automatic restore's "path<TAB>value" format). The
// distribution's scheduler still decides when a check starts: the window only bounds it.
// The times are the timers' calendars, set by raidtune's drop-ins as the other timers' are
// (schedulePlan.ts); the limits are /etc/raidtune/check-window-limits, which the tool reads.

import { msg, N_, type Message } from '../message';
import type { HostModel, OpenWindowLimits } from '../modelTypes';
import type { Step } from '../plan';
import { GLOBAL_SETTINGS } from '../settings/registry';
import { PRESET_NAMES, PRESETS, type PresetName } from '../tuning/presets';
import { fieldError, type Parsed } from '../validate';
import { valueAfterWindow } from './windowLimits';
import { windowDuration, type CheckWindow } from './checkWindow';
import { dropInValues, OWN_WINDOW_TIMERS, raidtuneDropIn, unitOf, WINDOW_LIMITS_FILE, type MonitorState } from './monitor';

const limitName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** What an open window's end will do: ("name", value) written back, and kept as changed since it opened. */
export interface WindowEndWrites {
    back: [string, string][];
    kept: [string, string][];
}

/** A system-wide limit's value as the page last read it, by its path; null when not known. */
export function globalLimitNow(host: HostModel, path: string): string | null {
    const setting = Object.values(GLOBAL_SETTINGS).find(s => s.path === path);
    const value = setting?.live(host);
    return value === undefined || value === null ? null : String(value);
}

/** The system-wide speed limits in force outside the window (once an open one has closed), as text. */
export function limitsOutsideWindow(host: HostModel): string {
    return [GLOBAL_SETTINGS.speedMin.path, GLOBAL_SETTINGS.speedMax.path].map(path => {
        const now = globalLimitNow(host, path);
        return `${limitName(path)} ${now === null ? '?' : valueAfterWindow(host.windowLimitsInForce, path, now)} KiB/s`;
    }).join(', ');
}

/**
 * What the open window's end will do to each limit it holds, given the values they have now
 * (null: not known): write the value from before back, or keep a value changed since it opened.
 */
export function windowEndWrites(window: OpenWindowLimits, now: (path: string) => string | null): WindowEndWrites {
    const back: [string, string][] = [];
    const kept: [string, string][] = [];
    for (const [path, before] of window.before) {
        const value = now(path);
        const keeps = value !== null && value !== before && valueAfterWindow(window, path, value) === value;
        (keeps ? kept : back).push([limitName(path), keeps ? value : before]);
    }
    return { back, kept };
}

/** What the open window's end will do, from the limits as the page last read them; null: no window is open. */
export function openWindowEnd(host: HostModel): WindowEndWrites | null {
    return host.windowLimitsInForce && windowEndWrites(host.windowLimitsInForce, path => globalLimitNow(host, path));
}

/**
 * What a plan's writes of limits an open window holds will come to when it closes, said before
 * Apply: kept, or (a value equal to the window's own, which its end cannot tell from its own) the
 * value from before written back.
 */
export function windowEndNotes(window: OpenWindowLimits | null, steps: readonly Step[]): Message[] {
    if (!window) return [];
    return steps.flatMap(step => {
        if (step.kind !== 'write-attribute') return [];
        const before = window.before.find(([p]) => p === step.path)?.[1];
        if (before === undefined) return [];
        const after = valueAfterWindow(window, step.path, step.to);
        return after === step.to
            ? [msg(N_('A check window is open: $0 stays at $1 when it closes (its end writes back only the limits still at the window\'s own values).'),
                limitName(step.path), step.to)]
            : [msg(N_('A check window is open and holds $0 at $1 too: when it closes, it writes back $2.'),
                limitName(step.path), step.to, after)];
    });
}

/** Writes the limits from before back and forgets paused checks (the tool's `off`). */
export const OWN_WINDOW_OFF = 'raidtune-check-window@off.service';

const DAY_MINUTES = 24 * 60;

export interface OwnWindow {
    /** Minutes after midnight (the host's time) of the start, and the window's length. */
    startMinutes: number;
    minutes: number;
    /** Both timers run. */
    on: boolean;
    /** The preset whose limits the window writes; 'other' for a file raidtune did not write so; null: none. */
    limits: PresetName | 'other' | null;
}

/** Whether the host has the window's timers (the plugin's units are installed). */
export function ownWindowInstalled(state: MonitorState): boolean {
    return OWN_WINDOW_TIMERS.every(id => unitOf(state, id));
}

/** "01:30" -> 90; the calendar raidtune writes ("*-*-* 01:30:00") too. null for anything else. */
export function minutesOfDay(text: string): number | null {
    const m = /^(?:\*-\*-\* )?(\d{1,2}):(\d\d)(?::00)?$/.exec(text.trim());
    if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return null;
    return Number(m[1]) * 60 + Number(m[2]);
}

export function clockText(minutes: number): string {
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${pad(Math.floor(minutes / 60) % 24)}:${pad(minutes % 60)}`;
}

/** The calendar of a daily edge at `minutes` after midnight. */
export function dailyCalendar(minutes: number): string {
    return `*-*-* ${clockText(minutes % DAY_MINUTES)}:00`;
}

/** The window's limits file: each preset's system-wide speed limits, in the preset's own order. */
export function windowLimitsText(preset: PresetName): string {
    const { speedMinKiBs, speedMaxKiBs } = PRESETS[preset];
    // Only the system-wide limits: which arrays a window's check will run on is not known when it is set.
    return `# Written by raidtune: md's limits while the check window is open (preset ${preset}).\n` +
        `${GLOBAL_SETTINGS.speedMin.path}\t${speedMinKiBs}\n${GLOBAL_SETTINGS.speedMax.path}\t${speedMaxKiBs}\n`;
}

/** The preset a limits file holds (the text raidtune writes for it), 'other' for any other text. */
export function windowLimitsPreset(text: string | undefined): PresetName | 'other' | null {
    if (text === undefined) return null;
    return PRESET_NAMES.find(name => windowLimitsText(name) === text) ?? 'other';
}

const dropInMinutes = (state: MonitorState, timer: string) => {
    const spec = dropInValues(state.scheduleFiles.get(raidtuneDropIn(timer)), 'OnCalendar').pop();
    return spec ? minutesOfDay(spec) : null;
};

/** raidtune's window as its drop-ins and timers are; null when it has none (or the units are missing). */
export function ownWindow(state: MonitorState): OwnWindow | null {
    if (!ownWindowInstalled(state)) return null;
    const [start, end] = OWN_WINDOW_TIMERS.map(timer => dropInMinutes(state, timer));
    if (start === null || end === null) return null;
    return {
        startMinutes: start,
        minutes: (end - start + DAY_MINUTES) % DAY_MINUTES || DAY_MINUTES,
        on: OWN_WINDOW_TIMERS.every(id => unitOf(state, id)?.activeState === 'active'),
        limits: windowLimitsPreset(state.scheduleFiles.get(WINDOW_LIMITS_FILE)),
    };
}

/** The start as typed ("1:30", "01:30"): minutes after midnight, or null for '' (no window). */
export function parseWindowStart(input: string): Parsed<number | null> {
    if (input.trim() === '') return { value: null };
    const minutes = minutesOfDay(input);
    if (minutes === null) return fieldError(N_('Enter the time the window opens, as HH:MM (such as 01:00); empty: no window.'));
    return { value: minutes };
}

export function parseWindowLimits(input: string): Parsed<PresetName | null> {
    if (input === '') return { value: null };
    const preset = PRESET_NAMES.find(name => name === input);
    return preset ? { value: preset } : fieldError(N_('Choose one of the presets, or none.'));
}

/** raidtune's window as the split-check estimate takes a window (checkWindow.ts). */
export function asCheckWindow(window: OwnWindow): CheckWindow {
    return { duration: windowDuration(window.minutes), seconds: window.minutes * 60, source: 'raidtune' };
}

/**
 * How long a check that the host's scheduler starts at `start` runs before a window's end pauses
 * it: the end of the window it starts in, or else of the next one (`windowStarts`: the window's
 * starts after `start`, unix seconds; one day apart, a change of daylight saving time aside).
 */
export function firstRunSeconds(start: number, windowStarts: readonly number[], windowSeconds: number): number | null {
    const next = windowStarts[0];
    if (next === undefined) return null;
    const endOfPrevious = next - DAY_MINUTES * 60 + windowSeconds;
    return (endOfPrevious > start ? endOfPrevious : next + windowSeconds) - start;
}

/** When a window opening at `startMinutes` (of the day) closes after `minutes`: its clock time, next day or not. */
export function closingTime(startMinutes: number, minutes: number): { at: string; nextDay: boolean } {
    const end = startMinutes + minutes;
    return { at: clockText(end % DAY_MINUTES), nextDay: end >= DAY_MINUTES };
}

/** The window's end, as the host's clock reads it. */
export const windowEnd = (window: OwnWindow) => closingTime(window.startMinutes, window.minutes).at;
