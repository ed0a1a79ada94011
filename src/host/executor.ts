// Applies a Plan on the host, step by step: kernel attributes through `tee` (a temp file + rename,
// as cockpit.file().replace() does, fails on sysfs and procfs), then read back; commands as argv
// (never a shell string built from data); files written atomically. Stops at the first failure
// and reports which step failed with the kernel's or the command's own words.

import { cockpitApi, type CockpitProblem } from './cockpit';
import type { HostConfig } from './config';
import { _ } from './i18n';
import type { Step } from '../md/plan';
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

/** A canonical /sys or /proc path on the configured roots (a simulated host in tests). */
export function hostPath(config: HostConfig, path: string): string {
    if (path.startsWith('/sys/')) return config.sysRoot + path.slice(4);
    if (path.startsWith('/proc/')) return config.procRoot + path.slice(5);
    return path;
}

// Writes a file atomically: a temp file in the same folder, then rename. Path and content are data
// (argument and stdin), never part of the script.
const WRITE_FILE_SCRIPT = 'set -e; mkdir -p "$(dirname "$1")"; tmp="$1.raidtune-new"; cat > "$tmp"; chmod 644 "$tmp"; mv -f "$tmp" "$1"';

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
        const argv = step.argv[0] === 'mdadm' ? [config.mdadm, ...step.argv.slice(1)] : step.argv;
        await cockpit.spawn(argv, options);
        return { step, readBack: null, differs: false };
    }
    case 'write-file':
        if (step.content === null) await cockpit.spawn(['rm', '-f', step.path], options);
        else await cockpit.spawn(['sh', '-c', WRITE_FILE_SCRIPT, 'raidtune-write', step.path], options).input(step.content);
        return { step, readBack: null, differs: false };
    }
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
