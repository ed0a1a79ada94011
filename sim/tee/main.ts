// SPDX-License-Identifier: LGPL-2.1-or-later
// The simulated `tee` as a program (bundled to build/tee-sim.mjs by build.mjs), for the simulated
// md host whose root is in $MDSIM_ROOT (set by the wrapper tools/cockpit/sim.ts writes).

import { runAsProgram } from '../program';
import { runSimulatedTee } from './client';

async function readStdin(): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
}

runAsProgram('tee', async () => runSimulatedTee(process.argv.slice(2), await readStdin(), process.env.MDSIM_ROOT));
