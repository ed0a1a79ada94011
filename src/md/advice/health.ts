// SPDX-License-Identifier: LGPL-2.1-or-later
// What to do about an array that lost disks, or one whose disk is failing, as an admin reads it on
// Cockpit's Storage page: which slot is empty or which disk failed (with the WWID and serial
// printed on its label, so the right disk is pulled), and the usual next mdadm commands. Only the
// removal of a failed member becomes a plan (it names a member the model knows); a new disk is
// something only the admin knows, so adding one is a command to copy with a placeholder.

import { failuresLeft, failuresTolerated } from '../levels';
import { msg, N_, type Message } from '../message';
import type { ArrayModel, DiskModel, EnclosureSlot, MemberModel } from '../modelTypes';
import { parseMdstat } from '../mdstat';
import type { RunCommandStep } from '../plan';
import type { PlanResult } from '../tuning/result';

/** What an admin replaces the placeholders with: a disk or partition the page cannot know. */
export const NEW_DEVICE_PLACEHOLDER = '/dev/sdX';
export const REPLACEMENT_PLACEHOLDER = '/dev/sdY';

export interface DiskIdentity {
    /** The whole disk (sdc for sdc1). */
    disk: string;
    /** Whitespace runs shown as one blank (SATA wwids are padded). */
    wwid: string | null;
    serial: string | null;
    /** udev's by-path name (its port or bay), where udev gives one. */
    byPath: string | null;
    /** Where it sits in the rack, where an enclosure says. */
    enclosureSlot: EnclosureSlot | null;
}

export interface MemberTrouble {
    member: string;
    identity: DiskIdentity;
    errors: number | null;
}

/**
 * `inactive`: not running; `failed`: running with fewer members than its level needs; `degraded`:
 * an empty slot nothing rebuilds; `rebuilding`: every missing slot is being rebuilt; `member-trouble`:
 * no slot missing, but a failed member is still listed or a working one has read errors.
 */
export type HealthSituation = 'inactive' | 'failed' | 'degraded' | 'rebuilding' | 'member-trouble';

export interface HealthCommand {
    argv: string[];
    /** remove: a plan the page can run (removeFailedPlan); the others are to copy. */
    purpose: 'remove' | 'add' | 'replace' | 'run' | 'examine' | 'stop' | 'assemble' | 'disk-health';
    /** The member a remove command removes. */
    member?: string;
}

export interface HealthAdvice {
    situation: HealthSituation;
    /**
     * By the redundancy left, as Cockpit's Storage page marks a degraded array: danger where one
     * more failure loses data (or it is lost, or the array is not running), warning otherwise.
     */
    severity: 'danger' | 'warning';
    /** How many more members can fail before data is lost (levels.ts failuresLeft); null: unknown. */
    failuresLeft: number | null;
    emptySlots: number[];
    rebuilding: { slot: number; member: string }[];
    failed: MemberTrouble[];
    /** Working members with read errors md corrected: candidates for --replace. */
    failing: MemberTrouble[];
    /** Working members the running sync waits for (diagnosis/slowMembers.ts): candidates for --replace too. */
    slow: MemberTrouble[];
    /** Members present, and how many the level needs to run (inactive and failed arrays). */
    present: number;
    needed: number | null;
    commands: HealthCommand[];
}

/** The SATA serial is the last word of libata's "t10.ATA <model> <serial>" wwid. */
function serialFromWwid(wwid: string | null): string | null {
    const m = wwid === null ? null : /^t10\.ATA\s.*\s(\S+)\s*$/.exec(wwid);
    return m ? m[1] : null;
}

export function diskIdentity(diskName: string, disk: DiskModel | undefined): DiskIdentity {
    const wwid = disk?.wwid?.trim().replace(/\s+/g, ' ') || null;
    return {
        disk: diskName, wwid, serial: disk?.serial ?? serialFromWwid(disk?.wwid ?? null), byPath: disk?.byPath ?? null,
        enclosureSlot: disk?.enclosureSlot ?? null,
    };
}

function trouble(member: MemberModel, disks: ReadonlyMap<string, DiskModel>): MemberTrouble {
    return { member: member.name, identity: diskIdentity(member.disk, disks.get(member.disk)), errors: member.errors };
}

const dev = (name: string) => `/dev/${name}`;

function removeArgv(array: ArrayModel, member: string): string[] {
    return ['mdadm', array.device, '--fail', dev(member), '--remove', dev(member)];
}

/** Empty slots to fill: one placeholder each (sdX, then sdX2...), in one --add. */
function addCommand(array: ArrayModel, count: number): HealthCommand {
    const devices = Array.from({ length: count }, (_, i) => (i === 0 ? NEW_DEVICE_PLACEHOLDER : `${NEW_DEVICE_PLACEHOLDER}${i + 1}`));
    return { argv: ['mdadm', array.device, '--add', ...devices], purpose: 'add' };
}

/** A spare takes over a failing member's slot while it still serves reads (no degraded window). */
function replaceCommands(array: ArrayModel, failing: readonly MemberTrouble[], spares: MemberModel[]): HealthCommand[] {
    const commands: HealthCommand[] = [];
    failing.forEach((f, i) => {
        const spare = spares[i] ? dev(spares[i].name) : null;
        if (!spare) commands.push({ argv: ['mdadm', array.device, '--add', REPLACEMENT_PLACEHOLDER], purpose: 'add' });
        commands.push({ argv: ['mdadm', array.device, '--replace', dev(f.member), '--with', spare ?? REPLACEMENT_PLACEHOLDER], purpose: 'replace' });
    });
    return commands;
}

/** md needs this many members to run the level (raid10: unknown without its layout). */
function membersNeeded(array: ArrayModel): number | null {
    const tolerated = failuresTolerated(array.level, array.raidDisks);
    return tolerated === null || array.raidDisks === null ? null : array.raidDisks - tolerated;
}

function notRunningCommands(array: ArrayModel, present: MemberModel[], enough: boolean): HealthCommand[] {
    if (enough) return [{ argv: ['mdadm', '--run', array.device], purpose: 'run' }];
    return [
        { argv: ['mdadm', '--examine', ...present.map(m => dev(m.name))], purpose: 'examine' },
        { argv: ['mdadm', '--stop', array.device], purpose: 'stop' },
        { argv: ['mdadm', '--assemble', '--scan'], purpose: 'assemble' },
    ];
}

/** Every member, failed ones too: --force picks the ones with the newest event counts. */
function failedCommands(array: ArrayModel): HealthCommand[] {
    const all = array.members.map(m => dev(m.name));
    return [
        { argv: ['mdadm', '--examine', ...all], purpose: 'examine' },
        { argv: ['mdadm', '--stop', array.device], purpose: 'stop' },
        { argv: ['mdadm', '--assemble', '--force', array.device, ...all], purpose: 'assemble' },
    ];
}

/**
 * What the array's card says and offers about lost or failing disks; null when there is nothing to
 * say. `slowMembers`: the members its running sync waits for (diagnosis/slowMembers.ts).
 */
export function healthAdvice(array: ArrayModel, disks: ReadonlyMap<string, DiskModel>,
    slowMembers: readonly string[] = []): HealthAdvice | null {
    const failedMembers = array.members.filter(m => m.role === 'faulty');
    const failing = array.members.filter(m => m.role === 'active' && (m.errors ?? 0) > 0).map(m => trouble(m, disks));
    const slow = array.members.filter(m => m.role === 'active' && slowMembers.includes(m.name) && !failing.some(f => f.member === m.name))
        .map(m => trouble(m, disks));
    const rebuilding = array.members.flatMap(m => (m.role === 'rebuilding' && m.slot !== null ? [{ slot: m.slot, member: m.name }] : []));
    const emptySlots = array.missingSlots.filter(slot => !rebuilding.some(r => r.slot === slot));
    const present = array.members.filter(m => m.role !== 'faulty');
    const needed = membersNeeded(array);
    const left = failuresLeft(array.level, array.raidDisks, array.layout, array.missingSlots);
    const base = {
        emptySlots, rebuilding, failed: failedMembers.map(m => trouble(m, disks)), failing, slow,
        present: present.length, needed, failuresLeft: left,
    };
    // A rebuild under way does not make the array safer until it ends: the next failure counts the same.
    const byRedundancy = left === 0 ? 'danger' : 'warning';
    const removals: HealthCommand[] = failedMembers.map(m => ({ argv: removeArgv(array, m.name), purpose: 'remove', member: m.name }));

    if (array.health === 'inactive') {
        const enough = needed !== null && present.length >= needed;
        return { ...base, situation: 'inactive', severity: 'danger', commands: notRunningCommands(array, present, enough) };
    }
    if (array.health === 'failed') return { ...base, situation: 'failed', severity: 'danger', commands: failedCommands(array) };
    const spares = array.members.filter(m => m.role === 'spare');
    const replace = replaceCommands(array, [...failing, ...slow], spares.slice(emptySlots.length));
    const smart: HealthCommand[] = slow.map(m => ({ argv: ['smartctl', '-a', dev(m.identity.disk)], purpose: 'disk-health' }));
    if (emptySlots.length > 0) {
        // A spare that md has not put into the slot yet is used by the next recovery: nothing to add for it.
        const toAdd = emptySlots.length - spares.length;
        const add = toAdd > 0 ? [addCommand(array, toAdd)] : [];
        return { ...base, situation: 'degraded', severity: byRedundancy, commands: [...removals, ...smart, ...add, ...replace] };
    }
    if (rebuilding.length > 0) {
        return { ...base, situation: 'rebuilding', severity: byRedundancy, commands: [...removals, ...smart, ...replace] };
    }
    if (removals.length > 0 || failing.length > 0 || slow.length > 0) {
        return { ...base, situation: 'member-trouble', severity: 'warning', commands: [...removals, ...smart, ...replace] };
    }
    return null;
}

// --- Removing a failed member --------------------------------------------------------------

export type RemoveFailedResult = PlanResult<'member'>;

/**
 * `mdadm /dev/mdX --fail /dev/M --remove /dev/M` for a member the model shows as failed: failing it
 * again is harmless and makes the command the same for a member that is merely kicked. It cannot be
 * undone (adding it back is a new rebuild onto a disk that failed), and the executor checks in
 * /proc/mdstat that the kernel no longer lists it.
 */
export function removeFailedPlan(array: ArrayModel, member: string): RemoveFailedResult {
    const found = array.members.find(m => m.name === member);
    if (!found) return { errors: { member: msg(N_('$0 is not a member of $1.'), member, array.name) } };
    if (found.role !== 'faulty') {
        return { errors: { member: msg(N_('$0 has not failed: md removes only failed members and spares.'), member) } };
    }
    if (array.health === 'inactive') return { errors: { member: msg(N_('The array is not running.')) } };
    const step: RunCommandStep = {
        kind: 'run', setting: msg(N_('failed member $0 of $1'), member, array.name),
        argv: removeArgv(array, member), undoArgv: null, verify: { memberRemoved: { array: array.name, member } },
    };
    return { plan: { title: removeFailedTitle(array, member), steps: [step] }, warnings: [] };
}

export function removeFailedTitle(array: ArrayModel, member: string): Message {
    return msg(N_('Remove the failed $0 from $1'), member, array.name);
}

/** After the removal: the kernel's /proc/mdstat must no longer list the member in the array. */
export function memberStillListed(mdstatText: string, array: string, member: string): boolean {
    return parseMdstat(mdstatText).arrays.some(a => a.name === array && a.members.some(m => m.name === member));
}
