// SPDX-License-Identifier: LGPL-2.1-or-later
// Child processes that are always reaped and can be stopped as a group.
//
// PID 1 on the build machines does not reap zombies, so every helper process is a direct child of
// this Node process (no double forks) and is waited for. Each child gets its own process group so
// stop() also ends what it spawned (cockpit-ws -> cockpit-bridge -> spawned commands).
//
// When RAIDTUNE_HARNESS_RUN is set (the jest globalSetup sets it to a fresh id), every child started
// here gets RAIDTUNE_HARNESS_CHILD=<id> in its environment, so the globalTeardown can find anything a
// crashed test left behind by that tag (never by process name).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface Exit {
    code: number | null;
    signal: NodeJS.Signals | null;
}

export interface Child {
    readonly name: string;
    readonly pid: number;
    readonly proc: ChildProcess;
    /** Resolves when the process has exited and been reaped. Never rejects. */
    readonly exited: Promise<Exit>;
    hasExited(): boolean;
    /** The last ~64 KB of stdout+stderr (only when output is captured). */
    output(): string;
    /** SIGTERM, after `graceMs` SIGKILL to the process group, wait; then SIGKILL any rest of the group. Idempotent. */
    stop(graceMs?: number): Promise<Exit>;
}

export interface StartChildOptions {
    name?: string;
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    /** Called with every chunk of stdout (as text), e.g. to look for a readiness line. */
    onStdout?: (text: string) => void;
    /** Run as this user and group (ids) instead of ours; supplementary groups are dropped. */
    user?: { uid: number; gid: number };
}

const OUTPUT_LIMIT = 64 * 1024;

// Process groups started here and not yet stopped. Children run in their own groups (so a Ctrl-C
// in the terminal reaches only us and we stop them in order); if this process exits without
// stopping them (a crash, process.exit()), they are killed here rather than left running.
// (Kept on `process` so that jest, which loads this module once per test file, registers one
// 'exit' listener only.)
const LIVE = Symbol.for('raidtune.harness.liveGroups');
const holder = process as unknown as { [LIVE]?: Set<number> };
const liveGroups: Set<number> = holder[LIVE] ??= (() => {
    const groups = new Set<number>();
    process.on('exit', () => {
        for (const pgid of groups)
            signalGroup(pgid, 'SIGKILL');
    });
    return groups;
})();

export function startChild(command: string, args: string[], options: StartChildOptions = {}): Child {
    const name = options.name ?? command;
    const proc = spawn(command, args, {
        env: tagEnv(options.env ?? process.env),
        cwd: options.cwd,
        uid: options.user?.uid,
        gid: options.user?.gid,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true, // own process group: stop() reaches grandchildren too
    });

    let output = '';
    const append = (text: string) => {
        output += text;
        if (output.length > OUTPUT_LIMIT)
            output = output.slice(output.length - OUTPUT_LIMIT);
    };
    proc.stdout!.setEncoding('utf8');
    proc.stderr!.setEncoding('utf8');
    proc.stdout!.on('data', (text: string) => {
        append(text);
        options.onStdout?.(text);
    });
    proc.stderr!.on('data', append);

    let done = false;
    if (proc.pid)
        liveGroups.add(proc.pid);
    const exited = new Promise<Exit>(resolve => {
        proc.on('error', err => {
            append(`\n[${name}: ${err.message}]\n`);
            done = true;
            resolve({ code: null, signal: null });
        });
        proc.on('exit', (code, signal) => {
            done = true;
            resolve({ code, signal });
        });
    });

    let stopping: Promise<Exit> | undefined;
    const stop = (graceMs = 3000): Promise<Exit> => {
        if (stopping)
            return stopping;
        stopping = (async () => {
            // Bottom-up: end the leader's descendants first, leaves before their parents, so every
            // process is reaped by its own (still running) parent. Killing the whole group at once
            // would orphan them to PID 1, which here never reaps them (zombies).
            if (!done && proc.pid) {
                await stopDescendants(proc.pid, graceMs);
                try {
                    process.kill(proc.pid, 'SIGTERM');
                } catch {
                    // already gone
                }
            }
            let timer: NodeJS.Timeout | undefined;
            const timedOut = new Promise<'timeout'>(resolve => {
                timer = setTimeout(() => resolve('timeout'), graceMs);
            });
            const first = await Promise.race([exited, timedOut]);
            clearTimeout(timer);
            if (first === 'timeout' && proc.pid)
                signalGroup(proc.pid, 'SIGKILL');
            const exit = await exited;
            // Whatever else is left in the group (the leader is gone): end it too.
            if (proc.pid) {
                signalGroup(proc.pid, 'SIGKILL');
                liveGroups.delete(proc.pid);
            }
            return exit;
        })();
        return stopping;
    };

    return {
        name,
        pid: proc.pid ?? -1,
        proc,
        exited,
        hasExited: () => done,
        output: () => output,
        stop,
    };
}

interface ProcEntry {
    pid: number;
    ppid: number;
    zombie: boolean;
}

function processTable(): ProcEntry[] {
    const table: ProcEntry[] = [];
    for (const entry of readdirSync('/proc')) {
        const pid = Number(entry);
        if (!Number.isInteger(pid))
            continue;
        try {
            const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
            const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
            table.push({ pid, ppid: Number(fields[1]), zombie: fields[0] === 'Z' });
        } catch {
            // gone meanwhile
        }
    }
    return table;
}

/** Live (non-zombie) descendants of `root`. */
function descendants(root: number): ProcEntry[] {
    const table = processTable();
    const found: ProcEntry[] = [];
    const parents = new Set([root]);
    for (let grew = true; grew;) {
        grew = false;
        for (const p of table) {
            if (!parents.has(p.pid) && parents.has(p.ppid)) {
                parents.add(p.pid);
                found.push(p);
                grew = true;
            }
        }
    }
    return found.filter(p => !p.zombie);
}

/** SIGTERM the leaves of the tree below `root`, wait for them to be reaped, repeat upwards. */
async function stopDescendants(root: number, graceMs: number): Promise<void> {
    for (let round = 0; round < 20; round++) {
        const tree = descendants(root);
        if (!tree.length)
            return;
        const leaves = tree.filter(p => !tree.some(q => q.ppid === p.pid));
        for (const leaf of leaves)
            trySignal(leaf.pid, 'SIGTERM');
        const deadline = performance.now() + graceMs;
        const remaining = (includeZombies: boolean) => {
            const table = new Map(processTable().map(p => [p.pid, p]));
            return leaves.filter(l => table.has(l.pid) && (includeZombies || !table.get(l.pid)!.zombie));
        };
        let left = remaining(false);
        while (left.length && performance.now() < deadline) {
            await sleep(10);
            left = remaining(false);
        }
        for (const leaf of left)
            trySignal(leaf.pid, 'SIGKILL');
        // Give the parents a moment to reap (gone from the table = reaped).
        for (let i = 0; i < 20 && remaining(true).length; i++)
            await sleep(10);
    }
}

function trySignal(pid: number, signal: NodeJS.Signals): void {
    try {
        process.kill(pid, signal);
    } catch {
        // ESRCH
    }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
    try {
        process.kill(-pgid, signal);
    } catch {
        // ESRCH: the group is already gone
    }
}

/** Describes an exit for error messages, with the tail of the process output. */
export function describeExit(child: Child, exit: Exit): string {
    const how = exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
    return `${child.name} exited (${how})${formatOutput(child)}`;
}

export function formatOutput(child: Child): string {
    const tail = child.output().trim().split('\n').slice(-25).join('\n');
    return tail ? `; its output:\n${tail}` : '';
}

export function sleep(ms: number): Promise<void> {
    return new Promise(resolve => setTimeout(resolve, ms));
}

/** The repository root: the nearest folder above cwd whose package.json is named "raidtune". */
export function repoRoot(): string {
    let dir = process.cwd();
    for (;;) {
        const pkg = join(dir, 'package.json');
        if (existsSync(pkg)) {
            try {
                if (JSON.parse(readFileSync(pkg, 'utf8')).name === 'raidtune')
                    return realpathSync(dir);
            } catch {
                // not ours, keep looking
            }
        }
        const up = dirname(dir);
        if (up === dir)
            return process.cwd();
        dir = up;
    }
}

export const HARNESS_RUN = 'RAIDTUNE_HARNESS_RUN';
export const HARNESS_CHILD = 'RAIDTUNE_HARNESS_CHILD';

/** `env` plus the child tag of the current harness run, if there is one. */
export function tagEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
    const run = process.env[HARNESS_RUN];
    return run ? { ...env, [HARNESS_CHILD]: run } : env;
}

/**
 * The fields of /proc/PID/stat after the command name (which may hold spaces and parentheses):
 * [0] the state (R, S, D, T, Z...), [11] utime and [12] stime in clock ticks. Throws when gone.
 */
export function procStat(pid: number): string[] {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * Processes (not zombies) whose environment carries RAIDTUNE_HARNESS_CHILD=<run>, i.e. started by
 * this library during that run, excluding this process. Used to find leftovers of a test run.
 */
export function processesTagged(run: string): { pid: number; cmd: string }[] {
    const needle = `\0${HARNESS_CHILD}=${run}\0`;
    const exclude = new Set<number>([process.pid]);
    const found: { pid: number; cmd: string }[] = [];
    for (const entry of readdirSync('/proc')) {
        const pid = Number(entry);
        if (!Number.isInteger(pid) || exclude.has(pid))
            continue;
        try {
            if (procStat(pid)[0] === 'Z')
                continue;
            const environ = '\0' + readFileSync(`/proc/${pid}/environ`, 'utf8') + '\0';
            if (!environ.includes(needle))
                continue;
            const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
            found.push({ pid, cmd });
        } catch {
            // gone meanwhile, or not readable
        }
    }
    return found;
}

/** Tags this test run (jest globalSetup) so its teardown can find what a crashed test left behind. */
export function startHarnessRun(): void {
    process.env[HARNESS_RUN] = `${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * jest globalTeardown: nothing the harness started may still run. Leftovers of this run (found by
 * its environment tag, never by name) get a moment to exit, are then killed and fail the run.
 */
export async function failOnLeftoverProcesses(tier: string): Promise<void> {
    const run = process.env[HARNESS_RUN];
    if (!run)
        return;
    let left = processesTagged(run);
    for (let i = 0; i < 20 && left.length; i++) {
        await sleep(100);
        left = processesTagged(run);
    }
    if (!left.length)
        return;
    for (const { pid } of left) {
        try {
            process.kill(pid, 'SIGKILL');
        } catch {
            // gone meanwhile
        }
    }
    throw new Error(`${tier} tests left processes running (now killed):\n` + left.map(p => `  ${p.pid} ${p.cmd}`).join('\n'));
}

/** Newest modification time of any file below `dir` (is the build older than its sources?). */
export function newestMtime(dir: string): number {
    let newest = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory())
            newest = Math.max(newest, newestMtime(path));
        else if (entry.isFile())
            newest = Math.max(newest, statSync(path).mtimeMs);
    }
    return newest;
}
