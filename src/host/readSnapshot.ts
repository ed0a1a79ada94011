// One refresh = one bridge round trip: a single spawn of the fixed gather script.

import { cockpitApi, type CockpitProblem } from './cockpit';
import type { HostConfig } from './config';
import { GATHER_SCRIPT } from './gatherScript';
import { parseGatherOutput, type Snapshot } from '../md/snapshot';

export async function readSnapshot(config: HostConfig, withPageSize: boolean): Promise<Snapshot> {
    const argv = ['sh', '-c', GATHER_SCRIPT, 'raidtune-gather', config.procRoot, config.sysRoot];
    if (withPageSize) argv.push('pagesize');
    try {
        const output = await cockpitApi().spawn(argv, { err: 'message', environ: ['LC_ALL=C'] });
        return parseGatherOutput(output);
    } catch (error) {
        const problem = error as CockpitProblem;
        throw new Error(`Reading the md state failed: ${problem.message || problem.problem || String(error)}`);
    }
}
