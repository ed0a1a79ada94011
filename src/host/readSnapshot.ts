// One refresh = one bridge round trip: a single spawn of the fixed gather script.

import { cockpitApi, type CockpitProblem } from './cockpit';
import type { HostConfig } from './config';
import { GATHER_SCRIPT } from './gatherScript';
import { _, fmt } from './i18n';
import { parseGatherOutput, type Snapshot } from '../md/snapshot';

export async function readSnapshot(config: HostConfig, withPageSize: boolean): Promise<Snapshot> {
    const argv = ['sh', '-c', GATHER_SCRIPT, 'raidtune-gather', config.procRoot, config.sysRoot,
        withPageSize ? 'pagesize' : '', config.stateDir, config.sysctlDir, config.udevRulesDir, config.modulesLoadDir];
    try {
        const output = await cockpitApi().spawn(argv, { err: 'message', environ: ['LC_ALL=C'] });
        return parseGatherOutput(output);
    } catch (error) {
        const problem = error as CockpitProblem;
        throw new Error(fmt(_('Reading the md state failed: $0'), problem.message || problem.problem || String(error)));
    }
}
