// The simulated mdadm as a program (bundled to build/mdadm-sim.mjs by build.mjs). It acts on the
// simulated md host whose root is in $MDSIM_ROOT; the wrapper from writeMdadmWrapper() sets it,
// so raidtune's `mdadm` config can name a single executable. See sim/mdadm/README.md.

import { runSimulatedMdadm } from './client';

async function main(): Promise<void> {
    const outcome = await runSimulatedMdadm(process.argv.slice(2), process.env.MDSIM_ROOT);
    process.stdout.write(outcome.stdout);
    process.stderr.write(outcome.stderr);
    process.exitCode = outcome.exitCode;
}

main().catch(error => {
    process.stderr.write(`mdadm (simulated): ${(error as Error).stack}\n`);
    process.exitCode = 1;
});
