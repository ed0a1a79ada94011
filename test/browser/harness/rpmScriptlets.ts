// SPDX-License-Identifier: LGPL-2.1-or-later
// An RPM's scriptlets run as rpm would run them on install, upgrade and removal, against a
// stand-in systemctl that records what it is asked: the package test asserts what systemd would be
// asked to do, on a machine where nothing may be enabled or stopped for real. Given a scratch root,
// the stand-in also passes each call on to the real systemctl with --root, which changes only the
// unit files there (enablement links): what the host would hold after each phase.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';

/** rpm's names for the scriptlets (`%post`...), from the words `rpm -qp --scripts` heads them with. */
const SCRIPTLET_NAMES: Record<string, string> = {
    preinstall: 'pre', postinstall: 'post', preuninstall: 'preun', postuninstall: 'postun',
};

/** Each scriptlet's body by rpm's name; the interpreter must be /bin/sh (the stand-in runs sh). */
export function rpmScriptlets(rpm: string): Map<string, string> {
    const output = execFileSync('rpm', ['-qp', '--scripts', rpm], { encoding: 'utf8' });
    const lines = new Map<string, string[]>();
    let current: string[] = [];
    for (const line of output.split('\n')) {
        const head = line.match(/^(\w+) scriptlet \(using ([^)]+)\):$/);
        if (!head) {
            current.push(line);
            continue;
        }
        if (head[2] !== '/bin/sh') throw new Error(`${head[1]} scriptlet runs ${head[2]}, not /bin/sh`);
        current = [];
        lines.set(SCRIPTLET_NAMES[head[1]] ?? head[1], current);
    }
    return new Map([...lines].map(([name, body]) => [name, body.join('\n')]));
}

/**
 * The scriptlets rpm runs, in its order, with the count it passes as $1 (the number of installed
 * packages of this name once the step is done): a first install; an upgrade (the new package's
 * pre and post, then the old one's preun and postun: the same package here); a removal.
 */
export const PHASES = {
    install: [['pre', 1], ['post', 1]],
    upgrade: [['pre', 2], ['post', 2], ['preun', 1], ['postun', 1]],
    removal: [['preun', 0], ['postun', 0]],
} as const satisfies Record<string, readonly (readonly [string, number])[]>;
export type Phase = keyof typeof PHASES;

/** Fedora's macros call systemd's helper by its absolute path; the stand-in takes its place. */
const UPDATE_HELPER = '/usr/lib/systemd/systemd-update-helper';

const STAND_IN_SYSTEMCTL = `#!/bin/sh
printf '%s\\n' "$*" >> "$RAIDTUNE_SYSTEMCTL_LOG"
[ -z "$RAIDTUNE_UNIT_ROOT" ] || exec "$RAIDTUNE_REAL_SYSTEMCTL" --root="$RAIDTUNE_UNIT_ROOT" "$@"
`;

// What systemd's helper asks systemctl for each verb Fedora's macros use. It marks units for a
// restart that systemd's own file trigger does at the end of the transaction, after a reload: the
// stand-in asks for both at once, which is what systemd is asked by the time rpm is done.
const STAND_IN_HELPER = `#!/bin/sh
verb=$1; shift
case $verb in
install-system-units) systemctl --no-reload preset "$@" ;;
remove-system-units) systemctl --no-reload disable --now "$@" ;;
mark-restart-system-units) systemctl daemon-reload; systemctl try-restart "$@" ;;
*) echo "stand-in systemd-update-helper: unknown verb $verb" >&2; exit 1 ;;
esac
`;

/** One call as systemctl would read it: the verb, its options and its units (and the line as given). */
export interface SystemctlCall {
    line: string;
    verb: string;
    options: string[];
    units: string[];
}

function parseCall(line: string): SystemctlCall {
    const words = line.split(' ').filter(Boolean);
    const [verb = '', ...units] = words.filter(w => !w.startsWith('-'));
    return { line, verb, options: words.filter(w => w.startsWith('-')), units };
}

/** The system's systemctl, which a test needs for a unit-file root (null: there is none). */
export function realSystemctl(): string | null {
    const found = spawnSync('sh', ['-c', 'command -v systemctl'], { encoding: 'utf8' });
    return found.status === 0 ? found.stdout.trim() : null;
}

/**
 * Runs one phase's scriptlets with sh, each with its $1, the stand-ins first in PATH, and returns
 * the systemctl calls they made, in order. A scriptlet that fails fails the phase, as it would
 * fail rpm's transaction step. With `unitRoot`, the real systemctl also acts on that root's unit
 * files; what it cannot do there (stop, reload, restart: no systemd runs it) fails as in a chroot.
 */
export function runPhase(scriptlets: Map<string, string>, phase: Phase, unitRoot?: string): SystemctlCall[] {
    const work = mkdtempSync(join(tmpdir(), 'raidtune-scriptlets-'));
    try {
        const log = join(work, 'systemctl.log');
        writeStandIn(join(work, 'systemctl'), STAND_IN_SYSTEMCTL);
        writeStandIn(join(work, 'systemd-update-helper'), STAND_IN_HELPER);
        const env = {
            ...process.env, PATH: `${work}:${process.env.PATH}`, RAIDTUNE_SYSTEMCTL_LOG: log,
            RAIDTUNE_UNIT_ROOT: unitRoot ?? '', RAIDTUNE_REAL_SYSTEMCTL: unitRoot ? realSystemctl() ?? 'false' : '',
        };
        for (const [name, count] of PHASES[phase]) {
            const body = scriptlets.get(name);
            if (body === undefined) continue;
            const script = join(work, `${name}.sh`);
            writeFileSync(script, body.split(UPDATE_HELPER).join(join(work, 'systemd-update-helper')));
            execFileSync('sh', [script, String(count)], { env, stdio: 'pipe' });
        }
        return existsSync(log) ? readFileSync(log, 'utf8').trimEnd().split('\n').map(parseCall) : [];
    } finally {
        rmSync(work, { recursive: true, force: true });
    }
}

function writeStandIn(path: string, text: string): void {
    writeFileSync(path, text);
    chmodSync(path, 0o755);
}
