// SPDX-License-Identifier: LGPL-2.1-or-later
// One refresh = one bridge round trip: a single spawn of the fixed gather script. Its output is
// parsed by the caller (parseGatherOutput), which times the parse apart from the read.

import { cockpitApi, type CockpitProblem } from './cockpit';
import type { HostConfig } from './config';
import { GATHER_SCRIPT } from './gatherScript';
import { _, fmt } from './i18n';

/** A full read, or a fast one without what a sync does not change, `diskstatsOf` some disks only (gatherScript.ts). */
export type GatherRead = { full: true } | { full: false; diskstatsOf: string };

export async function readGatherOutput(config: HostConfig, withPageSize: boolean,
    read: GatherRead = { full: true }): Promise<string> {
    const argv = ['sh', '-c', GATHER_SCRIPT, 'raidtune-gather', config.procRoot, config.sysRoot,
        withPageSize ? 'pagesize' : '', config.stateDir, config.sysctlDir, config.udevRulesDir, config.modulesLoadDir,
        read.full ? '' : 'fast', read.full ? '' : read.diskstatsOf, config.udevDataDir];
    try {
        return await cockpitApi().spawn(argv, { err: 'message', environ: ['LC_ALL=C'] });
    } catch (error) {
        const problem = error as CockpitProblem;
        throw new Error(fmt(_('Reading the md state failed: $0'), problem.message || problem.problem || String(error)));
    }
}
