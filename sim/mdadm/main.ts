// SPDX-License-Identifier: LGPL-2.1-or-later
// The simulated mdadm as a program (bundled to build/mdadm-sim.mjs by build.mjs). It acts on the
// simulated md host whose root is in $MDSIM_ROOT; the wrapper from writeMdadmWrapper() sets it,
// so raidtune's `mdadm` config can name a single executable. See sim/mdadm/README.md.

import { runAsProgram } from '../program';
import { runSimulatedMdadm } from './client';

runAsProgram('mdadm', () => runSimulatedMdadm(process.argv.slice(2), process.env.MDSIM_ROOT));
