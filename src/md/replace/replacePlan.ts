// SPDX-License-Identifier: LGPL-2.1-or-later
// The commands that put a new disk in an array (issue #34): wipe the signatures the admin chose to
// wipe; where the members are partitions, give the disk a working member's partition table (sfdisk
// fed the script partitionCopy.ts makes); then, per array, fill an empty slot (`--add`) or take the
// place of a member that still works (`--add-spare`, then `--replace ... --with`: md copies onto the
// new device while the old one still serves, so the array is never without its redundancy, and
// marks the old one faulty at the end; it is removed after that, as any failed member is).

import { msg, N_ } from '../message';
import type { ArrayModel } from '../modelTypes';
import type { Plan, RunCommandStep } from '../plan';
import { partitionName, partitionNumberOn } from './partitionCopy';

/** One array's part of a replacement. */
export interface ReplacementTarget {
    /** The array's device (/dev/md2). */
    device: string;
    /** The new member's kernel name (sdd3, or sdd for a whole-device member). */
    newMember: string;
    /** The working member it takes the place of; null when it fills an empty slot. */
    replaces: string | null;
}

export interface Replacement {
    /** The new disk, by its kernel name (sdd). */
    disk: string;
    /** Devices whose signatures the admin chose to wipe, each partition before its disk. */
    wipe: string[];
    /** sfdisk's script for the new disk (partitionCopy.ts); null where the members are whole devices. */
    partitionScript: string | null;
    targets: ReplacementTarget[];
}

const dev = (name: string) => `/dev/${name}`;

/** A member that still serves: neither failed nor still being built. */
function working(role: ArrayModel['members'][number]['role']): boolean {
    return role === 'active';
}

/**
 * Where the members are partitions: each array with a member on `sourceDisk` (the disk whose table
 * the new disk gets) and none on the new disk, that either has a working member on `oldDisk` (the
 * disk being replaced, while it still works) or misses a member. The new disk's partition with the
 * same number takes that member's place, or the empty slot.
 */
export function partitionTargets(arrays: readonly ArrayModel[], sourceDisk: string, newDisk: string,
    oldDisk: string | null): ReplacementTarget[] {
    return arrays.flatMap((array): ReplacementTarget[] => {
        const source = array.members.find(m => m.disk === sourceDisk && partitionNumberOn(sourceDisk, m.name) !== null);
        if (!source || array.members.some(m => m.disk === newDisk)) return [];
        const newMember = partitionName(newDisk, partitionNumberOn(sourceDisk, source.name)!);
        const old = oldDisk === null ? undefined : array.members.find(m => m.disk === oldDisk && working(m.role));
        if (old) return [{ device: array.device, newMember, replaces: old.name }];
        return array.missingSlots.length > 0 ? [{ device: array.device, newMember, replaces: null }] : [];
    });
}

function wipeStep(devices: string[]): RunCommandStep {
    return {
        kind: 'run', setting: msg(N_('signatures on $0'), devices.join(', ')),
        argv: ['wipefs', '--all', ...devices.map(dev)], undoArgv: null,
    };
}

function partitionStep(disk: string, script: string): RunCommandStep {
    return {
        kind: 'run', setting: msg(N_('partition table of $0'), disk),
        argv: ['sfdisk', dev(disk)], undoArgv: ['wipefs', '--all', dev(disk)], stdin: script,
    };
}

function memberSteps(target: ReplacementTarget): RunCommandStep[] {
    const setting = msg(N_('members of $0'), target.device);
    const member = dev(target.newMember);
    const takeOut = ['mdadm', target.device, '--fail', member, '--remove', member];
    // mdadm says "added" and exits 0 before md has taken the device: the kernel's list decides.
    const verify = { memberAdded: { array: target.device.replace(/^\/dev\//, ''), member: target.newMember } };
    if (target.replaces === null) {
        return [{ kind: 'run', setting, argv: ['mdadm', target.device, '--add', member], undoArgv: takeOut, verify }];
    }
    return [
        { kind: 'run', setting, argv: ['mdadm', target.device, '--add-spare', member], undoArgv: takeOut, verify },
        { kind: 'run', setting, argv: ['mdadm', target.device, '--replace', dev(target.replaces), '--with', member], undoArgv: null },
    ];
}

export function replacementPlan(replacement: Replacement): Plan {
    const { disk, wipe, partitionScript, targets } = replacement;
    const steps: RunCommandStep[] = [
        ...(wipe.length ? [wipeStep(wipe)] : []),
        ...(partitionScript === null ? [] : [partitionStep(disk, partitionScript)]),
        ...targets.flatMap(memberSteps),
    ];
    const arrays = targets.map(t => t.device.replace(/^\/dev\//, '')).join(', ');
    return { title: msg(N_('Put $0 in $1'), disk, arrays), steps };
}
