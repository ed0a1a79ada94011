// SPDX-License-Identifier: LGPL-2.1-or-later
// What mdadm 4.2's Manage_subdevs and the kernel do with `mdadm /dev/mdN --fail X --remove X`,
// applied to the simulated host's state: operations in order, stopping at the first refusal, with
// mdadm's messages (SET_DISK_FAULTY, HOT_REMOVE_DISK and their errno). A member that fails leaves
// its slot at once (md's remove_and_add_spares), so a spare starts rebuilding into it.

import { degradedCount, isStarted } from '../model/array';
import { maxDegraded } from '../model/levels';
import type { HostState, MdArray, Member } from '../model/types';
import type { ManageRequest, MdadmOutcome } from './args';

const line = (text: string) => `mdadm: ${text}\n`;

/** Marks it faulty, or the errno md answers (the last working copy is never failed). */
function failMember(array: MdArray, member: Member): string | null {
    if (member.inSync && member.slot !== null && !member.faulty && degradedCount(array) >= maxDegraded(array)) {
        return 'Device or resource busy';
    }
    member.faulty = true;
    member.inSync = false;
    member.slot = null;
    member.recoveryOffset = null;
    return null;
}

/** md removes only members the personality does not use: faulty ones and spares. */
function removeMember(array: MdArray, member: Member): string | null {
    if (member.slot !== null && !member.faulty) return 'Device or resource busy';
    array.members.splice(array.members.indexOf(member), 1);
    return null;
}

/** Apply `mdadm DEVICE --fail ... --remove ...`; what mdadm prints and its exit status. */
export function manageMembers(state: HostState, request: ManageRequest): MdadmOutcome {
    const array = state.arrays.find(a => a.name === request.array);
    if (!array) return { exitCode: 1, stdout: '', stderr: line(`error opening ${request.device}: No such file or directory`) };
    if (!isStarted(array)) return { exitCode: 1, stdout: '', stderr: line(`Cannot get array info for ${request.device}`) };
    let stderr = '';
    for (const { operation, member: name } of request.operations) {
        const member = array.members.find(m => m.name === name);
        const path = `/dev/${name}`;
        if (operation === 'fail') {
            const refused = member ? failMember(array, member) : 'No such device';
            if (refused) return { exitCode: 1, stdout: '', stderr: stderr + line(`set device faulty failed for ${path}:  ${refused}`) };
            stderr += line(`set ${path} faulty in ${request.device}`);
        } else {
            const refused = member ? removeMember(array, member) : 'No such device or address';
            if (refused) return { exitCode: 1, stdout: '', stderr: stderr + line(`hot remove failed for ${path}: ${refused}`) };
            stderr += line(`hot removed ${path} from ${request.device}`);
        }
    }
    return { exitCode: 0, stdout: '', stderr };
}
