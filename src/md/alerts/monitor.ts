// SPDX-License-Identifier: LGPL-2.1-or-later
// Whether `mdadm --monitor` will tell anyone that a disk failed: which mdadm.conf it reads and what
// that names (MAILADDR, MAILFROM, PROGRAM), and the state of the service that runs it (RHEL/Fedora
// and Debian 12: mdmonitor.service; older Debian: mdadm.service). Parsed from the output of the
// host's fixed read script (src/host/monitorAlerts.ts): `@@file PATH` then the file's lines, each
// behind a '|' (so no line of the file reads as a marker; `@@noeol` after one whose last line has
// no newline), `@@sendmail yes|no` (whether the mail program mdadm hands its alerts to exists),
// then `@@units` and `systemctl show`'s key=value blocks when the host has systemctl.

import { msg, N_, type Message } from '../message';
import { parseMonitorConf, type MonitorConf } from './mdadmConf';
import { parseCheckEnds } from './checkJournal';

/** The units that run mdadm --monitor, in the order they are looked for. */
export const MONITOR_UNITS = ['mdmonitor.service', 'mdadm.service'] as const;
/** The timers of a periodic check (RHEL/Fedora's raid-check, mdadm's own mdcheck): checkSchedule.ts. */
export const CHECK_TIMERS = ['raid-check.timer', 'mdcheck_start.timer', 'mdcheck_continue.timer'] as const;
/** The services whose Environment holds mdcheck's window (checkWindow.ts). */
export const CHECK_SERVICES = ['mdcheck_start.service', 'mdcheck_continue.service'] as const;
/** raidtune's own check window's edges (ownWindow.ts), installed with the plugin. */
export const OWN_WINDOW_TIMERS = ['raidtune-check-window-start.timer', 'raidtune-check-window-end.timer'] as const;
/** The window's limits, relative to the configured /etc (the units pass the same path to the tool). */
export const WINDOW_LIMITS_FILE = 'raidtune/check-window-limits';
/** The window's limits file on the host, as the plan writes it and the card names it. */
export const windowLimitsPath = (state: MonitorState) => `${state.etcDir}/${WINDOW_LIMITS_FILE}`;
export const UNIT_PROPERTIES = 'Id,LoadState,ActiveState,UnitFileState,NextElapseUSecRealtime,TimersCalendar,Environment,ExecStart';

/** raidtune's drop-in on a unit, relative to the configured /etc (one name for every unit it sets). */
export const raidtuneDropIn = (unit: string) => `systemd/system/${unit}.d/raidtune.conf`;

/** The files that say whether and how the host checks its arrays, relative to the configured /etc. */
export const SCHEDULE_FILES: readonly string[] = [
    'sysconfig/raid-check', 'default/mdadm', 'cron.d/mdadm', 'cron.d/raid-check',
    // raidtune's own drop-ins: a timer's OnCalendar (schedulePlan.ts), mdcheck's window
    // (checkWindow.ts), raidtune's own window's edges (ownWindow.ts); and that window's limits.
    ...['raid-check.timer', 'mdcheck_start.timer', ...CHECK_SERVICES, ...OWN_WINDOW_TIMERS].map(raidtuneDropIn),
    WINDOW_LIMITS_FILE,
];

/** mdadm's own order: /etc/mdadm.conf, then /etc/mdadm/mdadm.conf (relative to the configured /etc). */
export const CONF_FILES = ['mdadm.conf', 'mdadm/mdadm.conf'] as const;

export interface ConfFile {
    path: string;
    text: string;
}

export interface MonitorUnit {
    id: string;
    /** "loaded", "not-found", "masked" */
    loadState: string;
    /** "active", "inactive", "failed", "activating" */
    activeState: string;
    /** "enabled", "disabled", "static", "masked", "" */
    unitFileState: string;
    /** A timer's next run as systemctl prints it ("Sun 2026-12-06 01:00:00 UTC"); null when none. */
    nextElapse: string | null;
    /** A timer's OnCalendar as systemd holds it (normalized); null for a service. */
    calendar: string | null;
    /** The Environment property as systemctl prints it; null when empty. */
    environment: string | null;
    /** A service's ExecStart as systemctl prints it ("{ path=... ; argv[]=... ; ... }"); null when none. */
    execStart: string | null;
}

export interface MonitorState {
    /** The files found, in mdadm's order; the first is the one mdadm reads. */
    confFiles: ConfFile[];
    /** The file raidtune shows and edits: the first found, or where a new one goes. */
    confPath: string;
    conf: MonitorConf;
    /** null: the host has no systemctl (the monitor's state is unknown). */
    units: MonitorUnit[] | null;
    /** The check scheduler's files found (SCHEDULE_FILES), by path relative to the configured /etc. */
    scheduleFiles: Map<string, string>;
    /** The configured /etc the files above are relative to. */
    etcDir: string;
    /** Whether the mail program mdadm hands its alerts to exists; null: not read. */
    sendmail: boolean | null;
    /** Each array's last completed check or repair in the kernel's journal (checkJournal.ts); null: no journalctl. */
    checkEnds: Map<string, number> | null;
}

export type AlertProblem =
    /** No MAILADDR and no PROGRAM: mdadm --monitor refuses to run. */
    | 'no-recipient'
    /** Someone is named, but no service runs the monitor. */
    | 'not-running'
    /** A MAILADDR, but no mail program (no mail transfer agent): the mail never leaves the host. */
    | 'no-mta';

/** The output of the read script -> what the monitor will do. */
export function parseMonitorRead(output: string, confDir: string): MonitorState {
    const files: ConfFile[] = [];
    let units: MonitorUnit[] | null = null;
    let current: string[] | null = null;
    let unitLines: string[] | null = null;
    let journalLines: string[] | null = null;
    let sendmail: boolean | null = null;
    for (const line of output.split('\n')) {
        const file = /^@@file (.+)$/.exec(line);
        if (file) {
            current = [];
            files.push({ path: file[1], text: '' });
            unitLines = null;
        } else if (line === '@@sendmail yes' || line === '@@sendmail no') {
            current = null;
            sendmail = line.endsWith('yes');
        } else if (line === '@@units') {
            current = null;
            unitLines = [];
        } else if (line === '@@journal') {
            current = null;
            journalLines = [];
        } else if (line === '@@noeol' && current) {
            files[files.length - 1].text = current.join('\n');
        } else if (line === '@@end') {
            break;
        } else if (current && line.startsWith('|')) {
            current.push(line.slice(1));
            files[files.length - 1].text = current.join('\n') + '\n';
        } else if (journalLines) {
            journalLines.push(line);
        } else if (unitLines) {
            unitLines.push(line);
        }
    }
    if (unitLines) units = parseUnits(unitLines);
    const relative = (f: ConfFile) => f.path.slice(confDir.length + 1);
    const confFiles = files.filter(f => (CONF_FILES as readonly string[]).includes(relative(f)));
    const scheduleFiles = new Map(files.filter(f => (SCHEDULE_FILES as readonly string[]).includes(relative(f)))
        .map(f => [relative(f), f.text]));
    const confPath = confFiles[0]?.path ?? `${confDir}/${CONF_FILES[0]}`;
    return {
        confFiles, confPath, conf: parseMonitorConf(confFiles[0]?.text ?? ''), units, scheduleFiles, etcDir: confDir, sendmail,
        checkEnds: journalLines && parseCheckEnds(journalLines),
    };
}

/**
 * `systemctl show` blocks (blank-line separated key=value lines) -> the units that exist; null when
 * it printed none at all (it prints a not-found block for a unit it does not know, and nothing
 * where systemd does not run, as in a container): the monitor's state is then unknown.
 */
function parseUnits(lines: string[]): MonitorUnit[] | null {
    const blocks: Record<string, string>[] = [{}];
    for (const line of lines) {
        const kv = /^(\w+)=(.*)$/.exec(line);
        if (kv) blocks[blocks.length - 1][kv[1]] = kv[2];
        else if (line.trim() === '' && Object.keys(blocks[blocks.length - 1]).length) blocks.push({});
    }
    if (!blocks.some(b => b.Id)) return null;
    return blocks.filter(b => b.Id && b.LoadState === 'loaded').map(b => ({
        id: b.Id, loadState: b.LoadState, activeState: b.ActiveState ?? '', unitFileState: b.UnitFileState ?? '',
        nextElapse: b.NextElapseUSecRealtime && b.NextElapseUSecRealtime !== 'n/a' ? b.NextElapseUSecRealtime : null,
        calendar: timerCalendar(b.TimersCalendar),
        environment: b.Environment || null,
        execStart: b.ExecStart || null,
    }));
}

/** A timer's OnCalendar from `TimersCalendar={ OnCalendar=Sun *-*-* 01:00:00 ; next_elapse=... }`. */
function timerCalendar(value: string | undefined): string | null {
    return /^\{ OnCalendar=(.*?) ;/.exec(value ?? '')?.[1] ?? null;
}

/** The unit `id` as systemd holds it; null when systemd does not know it (or does not run). */
export function unitOf(state: MonitorState, id: string): MonitorUnit | null {
    return state.units?.find(u => u.id === id) ?? null;
}

/** The setting a plan step that writes one of raidtune's drop-ins names. */
export const dropInSetting = (state: MonitorState, relative: string): Message =>
    msg(N_('drop-in $0'), `${state.etcDir}/${relative}`);

/** The values of a drop-in's `key=` lines, in order (the last is the one systemd keeps). */
export function dropInValues(text: string | undefined, key: string): string[] {
    const line = new RegExp(`^\\s*${key}\\s*=\\s*(.*?)\\s*$`);
    return (text ?? '').split('\n').map(l => line.exec(l)?.[1]).filter((v): v is string => v !== undefined);
}

/** The unit that runs the monitor: an active one first, else the first that exists. */
export function monitorUnit(state: MonitorState): MonitorUnit | null {
    const units = state.units?.filter(u => (MONITOR_UNITS as readonly string[]).includes(u.id)) ?? [];
    return units.find(u => u.activeState === 'active') ?? units[0] ?? null;
}

/** Why nobody would be told when a disk fails; null when someone will be (or it cannot be known). */
export function alertProblem(state: MonitorState): AlertProblem | null {
    if (!state.conf.mailAddr && !state.conf.program) return 'no-recipient';
    if (state.units !== null && monitorUnit(state)?.activeState !== 'active') return 'not-running';
    if (state.conf.mailAddr && state.sendmail === false) return 'no-mta';
    return null;
}
