// SPDX-License-Identifier: LGPL-2.1-or-later
// Applies a Plan on the host, step by step: kernel attributes through `tee` (a temp file + rename,
// as cockpit.file().replace() does, fails on sysfs and procfs), then read back; commands as argv
// (never a shell string built from data); files written atomically. Stops at the first failure
// and reports which step failed with the kernel's or the command's own words.

import { cockpitApi, type CockpitProblem } from './cockpit';
import type { HostConfig } from './config';
import { _, fmt } from './i18n';
import { memberStillListed } from '../md/advice/health';
import { JOURNAL_FILE, parseJournal, type Journal } from '../md/journal';
import type { Message } from '../md/message';
import { sameFileText } from '../md/openedValues';
import { editedText, type EditFileStep, type RunCommandStep, type Step, type WriteFileStep } from '../md/plan';
import { applierAlive, HEARTBEAT_SECONDS, recordEndStep, recordStartStep, stepCheckPath, type PlanRecord } from '../md/planRecord';
import { readBackMatches } from '../md/readBack';

export interface StepOutcome {
    step: Step;
    /** The attribute's value read back after writing it. */
    readBack: string | null;
    /** True when the kernel kept something else than what was written (clamped, allocated less). */
    differs: boolean;
}

export interface ApplyResult {
    done: StepOutcome[];
    failed: { step: Step; reason: string } | null;
}

/** The programs a plan runs that a simulated host has stand-ins for; others run as named. */
const CONFIGURED_PROGRAMS = ['mdadm', 'wipefs', 'sfdisk', 'ledctl'] as const;

/** The program to run for a plan's command: the configured one for mdadm, wipefs, sfdisk and ledctl. */
export function configuredProgram(config: HostConfig, program: string): string {
    const configured = CONFIGURED_PROGRAMS.find(name => name === program);
    return configured ? config[configured] : program;
}

/** A canonical /sys or /proc path on the configured roots (a simulated host in tests). */
export function hostPath(config: HostConfig, path: string): string {
    if (path.startsWith('/sys/')) return config.sysRoot + path.slice(4);
    if (path.startsWith('/proc/')) return config.procRoot + path.slice(5);
    return path;
}

// Writes a file atomically: a temp file in the same folder, then rename. The temp file gets the
// original's owner, mode and SELinux label first (an mdadm.conf made 0600 by its admin stays so);
// a new file gets 644. Path and content are data (argument and stdin), never part of the script.
const WRITE_FILE_SCRIPT = `set -e; f=$1; tmp="$f.raidtune-new"; mkdir -p "$(dirname "$f")"; cat > "$tmp"
if [ -e "$f" ]; then
  chown --reference="$f" "$tmp"; chmod --reference="$f" "$tmp"
  if command -v selinuxenabled >/dev/null && selinuxenabled; then chcon --reference="$f" "$tmp"; fi
else chmod 644 "$tmp"; fi
mv -f "$tmp" "$f"`;

// Prints "present" and the file's text, or nothing when there is no file: an empty file and none
// are told apart. The path is an argument.
const READ_FILE_SCRIPT = '[ ! -e "$1" ] || { echo present; cat -- "$1"; }';

function reasonOf(error: unknown): string {
    const problem = error as CockpitProblem;
    if (problem.problem === 'access-denied' || problem.problem === 'authentication-failed') {
        return _('Administrative access is required.');
    }
    const text = (problem.message || problem.problem || String(error)).trim();
    // Keep every line of the tool's own words, without "tee: /sys/...: " / "mdadm: " prefixes:
    // mdadm explains in its first line ("Cannot add bitmap while array is resyncing") and only
    // concludes in the last ("failed to set internal bitmap.").
    return text.split('\n')
        .map(line => line.trim().replace(/^[\w.-]+: (?:\/[^:]*: )?/, ''))
        .filter(Boolean)
        .join(' ');
}

async function applyStep(config: HostConfig, step: Step): Promise<StepOutcome> {
    const cockpit = cockpitApi();
    const options = { superuser: 'require' as const, err: 'message' as const };
    switch (step.kind) {
    case 'write-attribute': {
        const path = hostPath(config, step.path);
        await cockpit.spawn([config.tee, path], options).input(`${step.to}\n`);
        const readBack = (await cockpit.spawn(['cat', path], options)).trim();
        return { step, readBack, differs: !readBackMatches(step.path, step.to, readBack) };
    }
    case 'run': {
        const argv = [configuredProgram(config, step.argv[0]), ...step.argv.slice(1)];
        const spawned = cockpit.spawn(argv, options);
        await (step.stdin === undefined ? spawned : spawned.input(step.stdin));
        await verifyRun(config, step, options);
        return { step, readBack: null, differs: false };
    }
    case 'write-file':
        if (step.checked) await refuseChanged(step, step.previous);
        if (step.content === null) await cockpit.spawn(['rm', '-f', step.path], options);
        else await writeFile(step.path, step.content);
        return { step, readBack: null, differs: false };
    case 'edit-file':
        return { step: await editFile(step), readBack: null, differs: false };
    }
}

function writeFile(path: string, content: string): Promise<string> {
    return cockpitApi().spawn(['sh', '-c', WRITE_FILE_SCRIPT, 'raidtune-write', path], { superuser: 'require', err: 'message' })
        .input(content);
}

/** A file's text as root (null: there is none); fails when it cannot be read. */
export async function readHostFile(path: string, superuser: 'require' | 'try' = 'require'): Promise<string | null> {
    const output = await cockpitApi().spawn(['sh', '-c', READ_FILE_SCRIPT, 'raidtune-read', path], { superuser, err: 'message' });
    return output === '' ? null : output.slice('present\n'.length);
}

/** The file's text now; fails when it is not the text the change was decided on (`was`). */
async function refuseChanged(step: EditFileStep | WriteFileStep, was: string | null): Promise<string | null> {
    const current = await readHostFile(step.path);
    if (!sameFileText(was, current)) throw new Error(fmt(_('$0 changed on the host since this dialog opened.'), step.path));
    return current;
}

/**
 * Applies the edits to the file as it is now; refuses when it is not the text the change was
 * decided on (the dialog checked just before, so only a change in that instant gets here). The step
 * returned holds the text it was applied to, which its undo is computed from.
 */
async function editFile(step: EditFileStep): Promise<EditFileStep> {
    const current = await refuseChanged(step, step.opened);
    const next = editedText(step, current);
    if (next === null && current !== null) await cockpitApi().spawn(['rm', '-f', step.path], { superuser: 'require', err: 'message' });
    else if (next !== null && next !== current) await writeFile(step.path, next);
    return { ...step, opened: current };
}

/**
 * Reads the kernel's view after a command: a removed member must be gone from /proc/mdstat, an
 * added one listed there (mdadm --add reports success before md has taken the device).
 */
async function verifyRun(config: HostConfig, step: RunCommandStep, options: { superuser: 'require'; err: 'message' }): Promise<void> {
    if (!step.verify) return;
    if ('attributeReads' in step.verify) {
        const { path, value } = step.verify.attributeReads;
        const read = (await cockpitApi().spawn(['cat', hostPath(config, path)], options)).trim();
        if (read !== value) throw new Error(fmt(_('$0 finished, but $1 reads $2.'), step.argv[0], path, read));
        return;
    }
    const mdstat = await cockpitApi().spawn(['cat', hostPath(config, '/proc/mdstat')], options);
    if ('memberRemoved' in step.verify) {
        const { array, member } = step.verify.memberRemoved;
        if (memberStillListed(mdstat, array, member)) {
            throw new Error(fmt(_('mdadm finished, but the kernel still lists $0 in $1.'), member, array));
        }
    } else {
        const { array, member } = step.verify.memberAdded;
        if (!memberStillListed(mdstat, array, member)) {
            throw new Error(fmt(_('mdadm finished, but the kernel does not list $0 in $1.'), member, array));
        }
    }
}

/**
 * A file's content, read as root where the session may (like the writes), else as the user: a page
 * without administrative access still shows what the host holds. null when it cannot be read.
 */
function readContent(config: HostConfig, path: string): Promise<string | null> {
    return cockpitApi().spawn(['cat', hostPath(config, path)], { superuser: 'try', err: 'message' })
        .then(content => content, () => null);
}

/**
 * What each attribute holds now (null: it could not be read, the array may be gone), read just
 * before applying: a plan's `from` values are checked against it (src/md/openedValues.ts).
 */
export async function readAttributes(config: HostConfig,
    paths: readonly string[]): Promise<Map<string, string | null>> {
    const contents = await Promise.all(paths.map(path => readContent(config, path)));
    return new Map(paths.map((path, i) => [path, contents[i]]));
}

/**
 * raidtune's record of the original values as the host has it now (null: none). Read just before
 * a change adds to it: another tab may have recorded originals since this page last refreshed,
 * and writing the record from an older refresh would lose them.
 */
export async function readJournal(config: HostConfig): Promise<Journal | null> {
    return parseJournal(await readContent(config, `${config.stateDir}/${JOURNAL_FILE}`));
}

export async function applySteps(config: HostConfig, steps: readonly Step[]): Promise<ApplyResult> {
    const done: StepOutcome[] = [];
    for (const step of steps) {
        try {
            done.push(await applyStep(config, step));
        } catch (error) {
            return { done, failed: { step, reason: reasonOf(error) } };
        }
    }
    return { done, failed: null };
}

// The records this page wrote: while it applies a plan, its refreshes read that plan's record too,
// which is no plan cut short.
const ownRecords = new Set<string>();

/** crypto.randomUUID() exists only in secure contexts: a Cockpit served over plain http is none. */
function randomId(): string {
    return [...crypto.getRandomValues(new Uint8Array(16))].map(b => b.toString(16).padStart(2, '0')).join('');
}

export function isOwnRecord(record: PlanRecord): boolean {
    return ownRecords.has(record.id);
}

/** 'own': this page applies it; 'applying': another page does, alive; 'unfinished': cut short. */
export type RecordState = 'own' | 'applying' | 'unfinished';

export function recordState(record: PlanRecord): RecordState {
    if (isOwnRecord(record)) return 'own';
    return applierAlive(record, Date.now()) ? 'applying' : 'unfinished';
}

/**
 * Rewrites the record's aliveAt every few seconds until stopped; stop() waits for a write in
 * flight, so none lands after the record's removal (it would bring the record back).
 */
function startHeartbeat(config: HostConfig, record: PlanRecord): () => Promise<void> {
    let writing: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
        const beat = { ...record, aliveAt: new Date().toISOString() };
        writing = writing.then(() => applySteps(config, [recordStartStep(beat, config.stateDir)]));
    }, HEARTBEAT_SECONDS * 1000);
    return async () => {
        clearInterval(timer);
        await writing;
    };
}

/**
 * Applies `steps` (the plan with raidtune's bookkeeping, the journal first) between the writes of
 * the plan's record: `shown`, the steps the person saw, are what a later load offers to finish or
 * undo if this is cut short. Nothing is applied when the record cannot be written.
 */
export async function applyRecorded(config: HostConfig, title: Message, shown: readonly Step[],
    steps: readonly Step[]): Promise<ApplyResult> {
    const record: PlanRecord = {
        version: 1, id: randomId(), startedAt: new Date().toISOString(), title, steps: [...shown],
    };
    ownRecords.add(record.id);
    const start = await applySteps(config, [recordStartStep(record, config.stateDir)]);
    if (start.failed) return start;
    const stopHeartbeat = startHeartbeat(config, record);
    const result = await applySteps(config, steps).finally(stopHeartbeat);
    const end = await applySteps(config, [recordEndStep(config.stateDir)]);
    return result.failed || !end.failed ? result : { done: result.done, failed: end.failed };
}

/** What the host holds now for each step that shows its effect in a file (null: absent or unreadable). */
export async function readStepTargets(config: HostConfig, steps: readonly Step[]): Promise<Map<string, string | null>> {
    return readAttributes(config, [...new Set(steps.map(stepCheckPath).filter((p): p is string => p !== null))]);
}
