// SPDX-License-Identifier: LGPL-2.1-or-later
// The simulated mdadm's own side: parse the command line like mdadm, hand the request to the
// simulator running on <root>, wait for its answer.

import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseMdadmArgs, type MdadmOutcome, type MdadmRequest } from './args';
import { answerPath, inboxDir, requestPath, writeAtomically } from './protocol';
import type { WriteRequest } from '../tee/request';
import type { BlockdevRequest } from '../blockdev/request';
import { isTestAlert, runTestAlert } from '../monitor/testAlert';

export interface AskOptions {
    /** Who asks, for the failure messages (default mdadm). */
    program?: string;
    /** How long to wait for the simulator's next tick (default 15 s; it ticks every second by default). */
    timeoutMs?: number;
    pollMs?: number;
}

function failure(text: string, program = 'mdadm'): MdadmOutcome {
    return { exitCode: 1, stdout: '', stderr: `${program} (simulated): ${text}\n` };
}

function readAnswer(path: string): MdadmOutcome | null {
    let data: MdadmOutcome;
    try {
        data = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
        return null; // not there yet
    }
    rmSync(path, { force: true });
    return typeof data?.exitCode === 'number' ? { exitCode: data.exitCode, stdout: String(data.stdout ?? ''), stderr: String(data.stderr ?? '') }
        : failure('the simulator gave an unreadable answer');
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/** Ids sort by time, so the simulator applies requests in the order they were made. */
function newRequestId(): string {
    return `${String(Date.now()).padStart(15, '0')}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Send one request to the simulator running on `root` and wait for what the program would print. */
export async function askSimulator(root: string, request: MdadmRequest | WriteRequest | BlockdevRequest,
    options: AskOptions = {}): Promise<MdadmOutcome> {
    if (!existsSync(join(root, '.ready')) || !existsSync(inboxDir(root))) return failure(`no simulated md host at ${root}`, options.program);
    const id = newRequestId();
    const request_ = requestPath(root, id);
    writeAtomically(request_, request);
    const deadline = Date.now() + (options.timeoutMs ?? 15000);
    for (;;) {
        const answer = readAnswer(answerPath(root, id));
        if (answer) return answer;
        if (Date.now() > deadline) break;
        await sleep(options.pollMs ?? 20);
    }
    // Withdrawn, so a simulator that wakes up later does not act on a request reported as failed.
    const taken = !existsSync(request_);
    rmSync(request_, { force: true });
    return failure(taken ? 'the simulator took the request but did not answer in time; look at the tree for its effect'
        : `the simulated md host at ${root} did not answer (is mdsim still running?)`, options.program);
}

/** The whole program: mdadm's argv (without "mdadm") against the simulated host at `root`. */
export async function runSimulatedMdadm(argv: readonly string[], root: string | undefined,
    options: AskOptions = {}): Promise<MdadmOutcome> {
    if (root && isTestAlert(argv)) return runTestAlert(argv, root);
    const parsed = parseMdadmArgs(argv);
    if ('refused' in parsed) return parsed.refused;
    if (!root) return failure('MDSIM_ROOT is not set: run it through the wrapper from writeMdadmWrapper() (sim/mdadm/README.md)');
    return askSimulator(root, parsed.request, options);
}
