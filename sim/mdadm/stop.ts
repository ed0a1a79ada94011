// SPDX-License-Identifier: LGPL-2.1-or-later
// What mdadm 4.2's Manage_stop and the kernel do with `mdadm --stop /dev/mdN` on the simulated
// host: the array goes (gone from /proc/mdstat and /sys/block), a sync it ran with it, and its
// members keep their superblocks, which stay in their signatures. The simulated arrays hold no
// filesystem, so nothing keeps one open ("Cannot get exclusive access" is never the answer).

import type { HostState } from '../model/types';
import type { MdadmOutcome, StopRequest } from './args';

export function stopArray(state: HostState, request: StopRequest): MdadmOutcome {
    const index = state.arrays.findIndex(a => a.name === request.array);
    if (index < 0) return { exitCode: 1, stdout: '', stderr: `mdadm: error opening ${request.device}: No such file or directory\n` };
    state.arrays.splice(index, 1);
    return { exitCode: 0, stdout: '', stderr: `mdadm: stopped ${request.device}\n` };
}
