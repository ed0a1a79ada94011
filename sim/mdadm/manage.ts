// SPDX-License-Identifier: LGPL-2.1-or-later
// What mdadm 4.2's Manage_subdevs and the kernel do with `mdadm /dev/mdN --fail X --remove X`,
// `--add X`, `--add-spare X` and `--replace OLD --with NEW`, applied to the simulated host's state:
// operations in order, stopping at the first refusal, with mdadm's messages (SET_DISK_FAULTY,
// HOT_REMOVE_DISK, ADD_NEW_DISK and their errno). A member that fails leaves its slot at once (md's
// remove_and_add_spares), so a spare starts rebuilding into it; so does a device added to an
// array with an empty slot.

import { degradedCount, isStarted } from '../model/array';
import { maxDegraded } from '../model/levels';
import { interruptSync } from '../model/sync';
import type { HostState, MdArray, Member } from '../model/types';
import { scheduleSyncs } from '../physics/scheduler';
import { addMember } from './addMember';
import type { ManageOperation, ManageRequest, MdadmOutcome } from './args';
import { makeReplacement, markForReplacement } from './replaceMember';

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

/** One operation: what mdadm prints for it (its words on success, or the refusal's). */
type Step = { said: string[] } | { refused: string[] };

class ManageRun {
    /** --with devices paired with the slot of the --replace before them (Manage_replace's 'w'). */
    private readonly withSlots = new Map<number, number>();

    constructor(private readonly state: HostState, private readonly array: MdArray,
        private readonly request: ManageRequest) {}

    step(index: number, operation: ManageOperation, name: string): Step {
        const { array, request } = this;
        const path = `/dev/${name}`;
        const member = array.members.find(m => m.name === name);
        switch (operation) {
            case 'fail': {
                const refused = member ? failMember(array, member) : 'No such device';
                return refused ? { refused: [`set device faulty failed for ${path}:  ${refused}`] } : { said: [`set ${path} faulty in ${request.device}`] };
            }
            case 'remove': {
                const refused = member ? removeMember(array, member) : 'No such device or address';
                return refused ? { refused: [`hot remove failed for ${path}: ${refused}`] } : { said: [`hot removed ${path} from ${request.device}`] };
            }
            case 'add':
            case 'add-spare': {
                const refused = addMember(this.state, array, path, request.device);
                return refused ? { refused } : { said: [`added ${path}`] };
            }
            case 'replace': return this.replace(index, name, path);
            case 'with': {
                const slot = this.withSlots.get(index);
                if (slot === undefined) return { refused: [`No matching --replace device for --with ${path}`] };
                const refused = makeReplacement(array, name, slot, path, request.device);
                return refused ? { refused: [refused] } : { said: [`Marked ${path} in ${request.device} as replacement for device ${slot}`] };
            }
        }
    }

    private replace(index: number, name: string, path: string): Step {
        // mdadm freezes the array first: a running sync stops where it is (and resumes with the replacement).
        if (this.array.sync) interruptSync(this.array);
        const marked = markForReplacement(this.array, name, path, this.request.device);
        if ('refused' in marked) return { refused: [marked.refused] };
        const pairs = this.request.operations.map((o, i) => ({ ...o, i }));
        const next = pairs.find(o => o.i > index && o.operation === 'with' && !this.withSlots.has(o.i));
        if (next) this.withSlots.set(next.i, marked.slot);
        return { said: [`Marked ${path} (device ${marked.slot} in ${this.request.device}) for replacement`] };
    }
}

/** Apply `mdadm DEVICE --fail ... --add ... --replace ... --with ...`; what mdadm prints and its exit status. */
export function manageMembers(state: HostState, request: ManageRequest): MdadmOutcome {
    const array = state.arrays.find(a => a.name === request.array);
    if (!array) return { exitCode: 1, stdout: '', stderr: line(`error opening ${request.device}: No such file or directory`) };
    if (!isStarted(array)) return { exitCode: 1, stdout: '', stderr: line(`Cannot get array info for ${request.device}`) };
    const run = new ManageRun(state, array, request);
    let stderr = '';
    let exitCode = 0;
    let gainedWork = false;
    for (const [index, { operation, member }] of request.operations.entries()) {
        const step = run.step(index, operation, member);
        if ('refused' in step) {
            stderr += step.refused.map(line).join('');
            exitCode = 1;
            break;
        }
        stderr += step.said.map(line).join('');
        if (operation !== 'fail' && operation !== 'remove') gainedWork = true;
    }
    // md_check_recovery runs as soon as mdadm is done: a spare fills an empty slot, a replacement starts.
    if (gainedWork) scheduleSyncs(state);
    return { exitCode, stdout: '', stderr };
}
