// SPDX-License-Identifier: LGPL-2.1-or-later
// A simulated block-device tool's own side: parse the command line like the real one, hand the
// request to the simulator running on <root> (sim/mdadm/client.ts's askSimulator), print its answer.

import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { askSimulator } from '../mdadm/client';
import type { ProgramOutcome } from '../program';
import { BLOCKDEV_TOOLS, parseBlockdevArgs, type BlockdevTool } from './request';

/** Under the simulated host's root: one line per ledctl call, its arguments. */
export const LEDCTL_CALLS = '.ledctl-calls';

export interface BlockdevRunOptions {
    /** sfdisk's script: read only when a write needs it (a dump must not wait for stdin). */
    readStdin?: () => Promise<string>;
    /** The script itself (tests): sent without waiting. */
    stdin?: string;
    timeoutMs?: number;
    pollMs?: number;
}

export async function runSimulatedBlockdev(tool: string, argv: readonly string[], root: string | undefined,
    options: BlockdevRunOptions = {}): Promise<ProgramOutcome> {
    if (!BLOCKDEV_TOOLS.includes(tool as BlockdevTool))
        return { exitCode: 2, stdout: '', stderr: `blockdev-sim: the first argument names the tool (${BLOCKDEV_TOOLS.join(', ')}), not "${tool}"\n` };
    const parsed = parseBlockdevArgs(tool as BlockdevTool, argv);
    if ('refused' in parsed) return parsed.refused;
    if (!root) return { exitCode: 1, stdout: '', stderr: `${tool} (simulated): MDSIM_ROOT is not set: run it through its wrapper (sim/README.md)\n` };
    // The stand-in records every ledctl call, as tests ask what was run.
    if (tool === 'ledctl') appendFileSync(join(root, LEDCTL_CALLS), `${argv.join(' ')}\n`);
    const request = parsed.request.blockdev;
    if (request.tool === 'sfdisk' && request.mode === 'write')
        request.script = options.stdin ?? (options.readStdin ? await options.readStdin() : '');
    return askSimulator(root, parsed.request, { program: tool, timeoutMs: options.timeoutMs, pollMs: options.pollMs });
}
