// SPDX-License-Identifier: LGPL-2.1-or-later
// The simulated lsblk, wipefs and sfdisk as one program (bundled to build/blockdev-sim.mjs by
// build.mjs): `blockdev-sim.mjs TOOL ARGS...` acts on the simulated host whose root is in
// $MDSIM_ROOT. The wrappers tools/cockpit/sim.ts writes pass the tool and set the root.

import { runAsProgram } from '../program';
import { runSimulatedBlockdev } from './client';

async function readStdin(): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
}

const [tool = '', ...argv] = process.argv.slice(2);
runAsProgram(tool || 'blockdev-sim', () => runSimulatedBlockdev(tool, argv, process.env.MDSIM_ROOT, { readStdin }));
