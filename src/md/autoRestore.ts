// SPDX-License-Identifier: LGPL-2.1-or-later
// "Restore automatically when the rebuild of mdX finishes": the arm and cancel plans, and what the
// host's auto-restore folder says (which arrays are armed, the history their waiters kept).
// The waiting itself is done on the host by WAITER_SCRIPT (src/md/waiterScript.ts), so it happens
// with the browser closed. See that file for the files' formats.

import type { Journal } from './journal';
import { restorePlan, serializeJournal } from './journal';
import { msg, N_, type Message } from './message';
import type { Plan, Step } from './plan';
import { parseTrendLine, type TrendSample } from './trend';
import { WAITER_HISTORY_LINES, WAITER_IDLE_POLLS, WAITER_POLL_SECONDS, WAITER_SCRIPT } from './waiterScript';

export const AUTO_RESTORE_DIR = 'auto-restore';
/** Where the gather script puts the folder's files in a snapshot (its `raidtune-state` root). */
export const AUTO_RESTORE_SNAPSHOT_DIR = `/raidtune-state/${AUTO_RESTORE_DIR}/`;
export const ARMED_SUFFIX = '.armed';
export const HISTORY_SUFFIX = '.history';
const JOURNAL_COPY_SUFFIX = '.journal';

/** Where the waiter reads its roots and state folder (the host config's, a simulated host in tests). */
export interface WaiterRoots {
    sysRoot: string;
    procRoot: string;
    stateDir: string;
}

export interface ArmedRestore {
    /** Attribute path (canonical /sys or /proc) and the value the waiter writes back, in order. */
    writes: [string, string][];
    /** Samples the waiter kept while the sync ran (oldest first). */
    history: TrendSample[];
}

/** Array names become file, unit and path names: only what md itself names arrays. */
const ARRAY_NAME = /^md[A-Za-z0-9_]+$/;

export function waiterUnit(array: string): string {
    return `raidtune-restore-${array}`;
}

function isSafePath(path: string): boolean {
    return /^\/(sys|proc)\//.test(path) && !path.split('/').includes('..') && !/[\t\n]/.test(path);
}

/** The "path<TAB>value" lines the waiter writes back: the journal's originals in restore order. */
export function armedFileContent(journal: Journal): string | null {
    const lines: string[] = [];
    for (const step of restorePlan(journal).steps) {
        if (step.kind !== 'write-attribute' || !isSafePath(step.path) || /[\t\n]/.test(step.to)) return null;
        lines.push(`${step.path}\t${step.to}`);
    }
    return lines.join('\n') + '\n';
}

export function parseArmedFile(text: string): [string, string][] {
    return text.split('\n').flatMap(line => {
        const tab = line.indexOf('\t');
        if (tab <= 0) return [];
        const path = line.slice(0, tab);
        return isSafePath(path) ? [[path, line.slice(tab + 1)] as [string, string]] : [];
    });
}

/** Armed arrays, from the snapshot's auto-restore files (armed = its .armed file exists). */
export function parseAutoRestore(files: ReadonlyMap<string, string>): Map<string, ArmedRestore> {
    const armed = new Map<string, ArmedRestore>();
    for (const [path, text] of files) {
        if (!path.startsWith(AUTO_RESTORE_SNAPSHOT_DIR) || !path.endsWith(ARMED_SUFFIX)) continue;
        const array = path.slice(AUTO_RESTORE_SNAPSHOT_DIR.length, -ARMED_SUFFIX.length);
        if (!ARRAY_NAME.test(array)) continue;
        const history = files.get(`${AUTO_RESTORE_SNAPSHOT_DIR}${array}${HISTORY_SUFFIX}`) ?? '';
        armed.set(array, {
            writes: parseArmedFile(text),
            history: history.split('\n').map(parseTrendLine).filter((s): s is TrendSample => s !== null),
        });
    }
    return armed;
}

function waiterArgv(array: string, roots: WaiterRoots, systemd: boolean): string[] {
    const script = ['sh', '-c', WAITER_SCRIPT, 'raidtune-restore', array, roots.sysRoot, roots.procRoot, roots.stateDir,
        String(WAITER_POLL_SECONDS), String(WAITER_IDLE_POLLS), String(WAITER_HISTORY_LINES)];
    // A transient unit outlives the Cockpit session and shows in `systemctl`; without systemd as
    // PID 1 (containers, the test guest) the waiter gets its own session so it outlives the bridge.
    return systemd
        ? ['systemd-run', `--unit=${waiterUnit(array)}`, '--collect', '--quiet', ...script]
        : ['setsid', '-f', ...script];
}

function stopUnitArgv(array: string): string[] {
    // The unit may have ended by itself (the waiter exits when its file is gone, and --collect then
    // unloads it): `systemctl stop` of an unloaded unit fails, which is no failure of the cancel.
    return ['sh', '-c', 'systemctl stop "$1" 2>/dev/null; exit 0', 'raidtune-cancel', `${waiterUnit(array)}.service`];
}

function folder(roots: WaiterRoots): string {
    return `${roots.stateDir}/${AUTO_RESTORE_DIR}`;
}

const setting = (array: string): Message => msg(N_('automatic restore after the sync of $0'), array);

export type ArmResult = { plan: Plan } | { reason: Message };

/** Why arming is not offered for this array now, or null. */
export function armRefusal(array: { name: string; sync: { runState: string } | null }, journal: Journal | null,
    armed: ReadonlyMap<string, ArmedRestore>): Message | null {
    if (!ARRAY_NAME.test(array.name)) return msg(N_('$0 is not a name raidtune can use for a file.'), array.name);
    if (!journal) return msg(N_('raidtune has not changed any setting: there is nothing to restore.'));
    if (!array.sync || array.sync.runState === 'pending') return msg(N_('No sync is running on $0.'), array.name);
    if (armed.has(array.name)) return msg(N_('Already armed.'));
    if (armedFileContent(journal) === null) return msg(N_('A recorded value cannot be handed to the waiter.'));
    return null;
}

/** Write what to restore, then start the waiter on the host. */
export function armPlan(array: string, journal: Journal, roots: WaiterRoots, systemd: boolean): Plan {
    const dir = folder(roots);
    const steps: Step[] = [
        { kind: 'write-file', setting: setting(array), path: `${dir}/${array}${JOURNAL_COPY_SUFFIX}`, content: serializeJournal(journal), previous: null },
        { kind: 'write-file', setting: setting(array), path: `${dir}/${array}${ARMED_SUFFIX}`, content: armedFileContent(journal), previous: null },
        { kind: 'run', setting: setting(array), argv: waiterArgv(array, roots, systemd), undoArgv: systemd ? stopUnitArgv(array) : null },
    ];
    return { title: msg(N_('Restore automatically when the sync of $0 finishes'), array), steps };
}

// Rewrites an armed waiter's files, only while it is armed: the page's model may be a refresh late,
// and a waiter that already restored and removed its .armed file must not look armed again. The
// .armed file comes before the journal copy: a waiter that restores between the two writes finds
// its copy differing from the journal and keeps the journal (the banner still offers the restore);
// the other order could remove a journal whose newest original was never written back.
// $1 .armed path  $2 its content  $3 journal copy path  $4 its content (data, never script text).
const FOLLOW_SCRIPT = `set -e; umask 022; [ -f "$1" ] || exit 0
printf '%s' "$2" > "$1.raidtune-new"; mv -f "$1.raidtune-new" "$1"
printf '%s' "$4" > "$3.raidtune-new"; mv -f "$3.raidtune-new" "$3"`;

/**
 * When a change made while restores are armed records new originals, each armed waiter's files
 * follow the journal, so the waiter restores that change too.
 */
export function armedFollowSteps(journal: Journal, armed: ReadonlyMap<string, ArmedRestore>,
    roots: WaiterRoots): Step[] {
    const content = armedFileContent(journal);
    if (content === null) return [];
    const dir = folder(roots);
    return [...armed.keys()].map((array): Step => ({
        kind: 'run', setting: setting(array), undoArgv: null,
        argv: ['sh', '-c', FOLLOW_SCRIPT, 'raidtune-follow', `${dir}/${array}${ARMED_SUFFIX}`, content,
            `${dir}/${array}${JOURNAL_COPY_SUFFIX}`, serializeJournal(journal)],
    }));
}

/** The journal's settings that an armed waiter does not write back (what "Restore previous settings" still must do). */
export function notRestoredBy(armed: ArmedRestore, journal: Journal | null): Message[] {
    const paths = new Set(armed.writes.map(([path]) => path));
    return (journal?.entries ?? []).filter(e => !paths.has(e.path)).map(e => e.setting);
}

function armedText(armed: ArmedRestore): string {
    return armed.writes.map(([path, value]) => `${path}\t${value}`).join('\n') + '\n';
}

/** Removing the .armed file is the cancel: the waiter ends at its next poll (a unit is stopped at once). */
export function cancelPlan(array: string, armed: ArmedRestore, roots: WaiterRoots, systemd: boolean): Plan {
    const steps: Step[] = [
        { kind: 'write-file', setting: setting(array), path: `${folder(roots)}/${array}${ARMED_SUFFIX}`, content: null, previous: armedText(armed) },
    ];
    if (systemd) steps.push({ kind: 'run', setting: setting(array), argv: stopUnitArgv(array), undoArgv: null });
    return { title: msg(N_('Cancel the automatic restore of $0'), array), steps };
}
