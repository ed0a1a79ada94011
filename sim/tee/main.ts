// The simulated `tee` as a program (bundled to build/tee-sim.mjs by build.mjs), for the simulated
// md host whose root is in $MDSIM_ROOT (set by the wrapper tools/cockpit/sim.ts writes).

import { runSimulatedTee } from './client';

async function readStdin(): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
}

async function main(): Promise<void> {
    const outcome = await runSimulatedTee(process.argv.slice(2), await readStdin(), process.env.MDSIM_ROOT);
    process.stdout.write(outcome.stdout);
    process.stderr.write(outcome.stderr);
    process.exitCode = outcome.exitCode;
}

main().catch(error => {
    process.stderr.write(`tee (simulated): ${(error as Error).stack}\n`);
    process.exitCode = 1;
});
