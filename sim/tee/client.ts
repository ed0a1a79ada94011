// SPDX-License-Identifier: LGPL-2.1-or-later
// The simulated `tee`'s own side: copy stdin to stdout and to each file like tee; a file inside the
// simulated /proc or /sys goes to the simulator running on the root and waits for its outcome.

import { writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { MdadmOutcome } from '../mdadm/args';
import { askSimulator } from '../mdadm/client';

/** "sys/block/sda/queue/nr_requests" for a file in the simulated tree, else null. */
function treePath(root: string, file: string): string | null {
    const path = relative(root, resolve(file));
    return /^(proc|sys)\//.test(path) ? path : null;
}

function writeOrdinaryFile(file: string, input: string): MdadmOutcome {
    try {
        writeFileSync(file, input);
        return { exitCode: 0, stdout: '', stderr: '' };
    } catch (error) {
        return { exitCode: 1, stdout: '', stderr: `tee: ${file}: ${(error as Error).message}\n` };
    }
}

/** tee FILE...: every file is written (as GNU tee does after a failure too); exit 1 when any failed. */
export async function runSimulatedTee(files: readonly string[], input: string,
    root: string | undefined): Promise<MdadmOutcome> {
    let exitCode = 0;
    let stderr = '';
    for (const file of files) {
        const path = root === undefined ? null : treePath(root, file);
        const result = path === null ? writeOrdinaryFile(file, input)
            : await askSimulator(root!, { write: { path, shown: file, value: input } }, { program: 'tee' });
        exitCode = Math.max(exitCode, result.exitCode);
        stderr += result.stderr;
    }
    return { exitCode, stdout: input, stderr };
}
