// SPDX-License-Identifier: LGPL-2.1-or-later
// The Replace disk dialog's decisions (issue #34), from what it read when it opened: which member
// or slot is being replaced, which devices can take its place and why the others cannot, and the
// plan for the device chosen. Where the members are whole devices, any device md can use is a
// candidate; where they are partitions, only a whole disk, which gets a working member's partition
// table and then one partition in each array that had one on the old disk.

import { msg, N_, type Message } from '../message';
import type { ArrayModel, HostModel } from '../modelTypes';
import { removeFailedPlan } from '../advice/health';
import type { Plan } from '../plan';
import { withDescendants, type BlockDevice, type Signature } from './blockDevices';
import {
    judgeCandidates, offeredCandidates, replacementNeeds,
    type ArrayBlockFacts, type CandidateVerdict, type ReplacementNeeds,
} from './candidates';
import { partitionNumberOn, replicaScript, type PartitionTable } from './partitionCopy';
import { partitionTargets, replacementPlan, type ReplacementTarget } from './replacePlan';

/** What the dialog was opened for. */
export type Replacing =
    | { kind: 'empty-slot' }
    /** A failed member md still lists: removed first. */
    | { kind: 'failed'; member: string }
    /** A member that still works (read errors, far slower): replaced while it serves (mdadm --replace). */
    | { kind: 'working'; member: string };

/** What the dialog read when it opened (src/host/replaceReads.ts). */
export interface ReplaceReads {
    devices: BlockDevice[];
    facts: ArrayBlockFacts;
    /** Per device name: its signatures, or why wipefs could not read it. */
    signatures: ReadonlyMap<string, Signature[] | { failed: string }>;
    /** Where the members are partitions: the table of `sourceDisk`. */
    table: PartitionTable | null;
}

export interface ReplaceSituation {
    array: ArrayModel;
    /** Every array of the host: on partitions, the new disk joins each that had a member on the old one. */
    arrays: readonly ArrayModel[];
    host: HostModel;
    replacing: Replacing;
}

/** The disk whose partition table a new disk gets: a working member's, not the one being replaced. */
export function partitionSourceDisk(situation: ReplaceSituation): string | null {
    const { array, replacing } = situation;
    const old = replacing.kind === 'empty-slot' ? null : array.members.find(m => m.name === replacing.member)?.disk ?? null;
    const source = array.members.find(m => m.role === 'active' && m.disk !== old && partitionNumberOn(m.disk, m.name) !== null);
    return source?.disk ?? null;
}

/** The bytes a disk needs for the table's partitions: the last one's end, and GPT's backup header after it. */
export function tableBytes(table: PartitionTable): number {
    const sectorBytes = Number(table.headers.find(h => h.key === 'sector-size')?.value ?? 512);
    const ends = table.partitions.map(p => {
        const field = (name: string) => Number(p.fields.find(f => f.startsWith(`${name}=`))?.slice(name.length + 1).trim() ?? 0);
        return field('start') + field('size');
    });
    const gptBackupSectors = table.label === 'gpt' ? 33 : 0;
    return (Math.max(0, ...ends) + gptBackupSectors) * sectorBytes;
}

function signaturesOf(reads: ReplaceReads): Map<string, Signature[]> {
    return new Map([...reads.signatures].flatMap(([name, read]) => Array.isArray(read) ? [[name, read] as const] : []));
}

/** Devices wipefs could not read: refused, as nothing can be said of what is on them. */
function unreadable(verdict: CandidateVerdict, reads: ReplaceReads): Message[] {
    return withDescendants(verdict.device).flatMap(d => {
        const read = reads.signatures.get(d.name);
        return read && !Array.isArray(read) ? [msg(N_('wipefs could not read $0: $1'), d.path, read.failed)] : [];
    });
}

export interface ReplaceChoices {
    needs: ReplacementNeeds;
    /** Members are partitions: the new disk gets `sourceDisk`'s partition table; null where they are whole devices. */
    tableCopy: { sourceDisk: string; table: PartitionTable } | null;
    /** Every device considered, the usable ones first. */
    verdicts: CandidateVerdict[];
}

/** What a device must have, and every device judged against it. */
export function replaceChoices(situation: ReplaceSituation, reads: ReplaceReads): ReplaceChoices {
    const sourceDisk = partitionSourceDisk(situation);
    const tableCopy = sourceDisk !== null && reads.table !== null ? { sourceDisk, table: reads.table } : null;
    const base = replacementNeeds(situation.array, situation.host, reads.facts, reads.devices);
    const needs = tableCopy ? { ...base, minimumBytes: tableBytes(tableCopy.table) } : base;
    const judged = judgeCandidates(reads.devices, signaturesOf(reads), needs)
        // A partition table is copied onto a whole disk only.
        .filter(v => !tableCopy || v.device.type === 'disk')
        .map(v => ({ ...v, refusals: [...v.refusals, ...unreadable(v, reads)] }));
    const usable = (v: CandidateVerdict) => v.refusals.length === 0 ? 0 : 1;
    return { needs, tableCopy, verdicts: [...judged].sort((a, b) => usable(a) - usable(b)) };
}

/**
 * The devices whose signatures decide whether they are offered: those nothing else refuses, with
 * what is on them (wipefs opens each, so the refused ones are left alone).
 */
export function devicesToProbe(choices: ReplaceChoices): string[] {
    const names = choices.verdicts.filter(v => v.refusals.length === 0)
        .flatMap(v => withDescendants(v.device).map(d => d.name));
    return [...new Set(names)];
}

/** The devices to wipe, each partition before its disk (wipefs --all of a disk leaves its partitions' signatures). */
function wipeOrder(device: BlockDevice): string[] {
    return withDescendants(device).reverse().map(d => d.name);
}

export type ReplacePlanResult = { plan: Plan; targets: ReplacementTarget[] } | { error: Message };

/** The plan that puts `chosen` in place of the member or slot; `wipe`: the admin chose to wipe its signatures. */
export function replaceDiskPlan(situation: ReplaceSituation, choices: ReplaceChoices,
    chosen: string, wipe: boolean): ReplacePlanResult {
    const verdict = offeredCandidates(choices.verdicts, wipe).find(v => v.device.name === chosen);
    if (!verdict) return { error: msg(N_('$0 cannot take the place of the member.'), chosen) };
    const { array, replacing } = situation;
    const replaced = replacing.kind === 'empty-slot' ? null : array.members.find(m => m.name === replacing.member) ?? null;
    if (replacing.kind !== 'empty-slot' && !replaced) return { error: msg(N_('$0 is no longer a member of $1.'), replacing.member, array.name) };
    const removals = replacing.kind === 'failed' ? removeFailedPlan(array, replacing.member) : null;
    if (removals && !removals.plan) return { error: removals.errors?.member ?? msg(N_('$0 cannot be removed.'), replaced!.name) };
    const { tableCopy } = choices;
    let targets: ReplacementTarget[];
    if (tableCopy) {
        // The old disk goes as a whole: its partitions that still work in other arrays are replaced
        // too. A failed one is no working member: its slot, empty for md, is filled.
        // In the table's order (/boot's partition first), whatever order the kernel lists the arrays in.
        targets = partitionTargets(situation.arrays, tableCopy.sourceDisk, chosen, replaced?.disk ?? null)
            .sort((x, y) => partitionOrder(chosen, x) - partitionOrder(chosen, y));
        if (targets.length === 0) return { error: msg(N_('No array has a member on $0 to take a partition of $1.'), tableCopy.sourceDisk, chosen) };
    } else {
        targets = [{ device: array.device, newMember: chosen, replaces: replacing.kind === 'working' ? replacing.member : null }];
    }
    const plan = replacementPlan({
        disk: chosen,
        wipe: wipe && verdict.signatures.length > 0 ? wipeOrder(verdict.device) : [],
        partitionScript: tableCopy ? replicaScript(tableCopy.table) : null,
        targets,
    });
    const removalSteps = removals?.plan?.steps ?? [];
    return { plan: { ...plan, steps: [...removalSteps, ...plan.steps] }, targets };
}

function partitionOrder(disk: string, target: ReplacementTarget): number {
    return partitionNumberOn(disk, target.newMember) ?? 0;
}

/**
 * How long md takes to fill the new member, before it starts: each member's used size at the
 * array's maximum speed (the shortest it can take) and at its minimum (the pace other I/O can hold
 * it to). The disks may be slower than the maximum; once it runs, the array's row measures it.
 */
export interface RebuildBounds {
    componentKiB: number;
    /** The effective limits, KiB/s, and the seconds at each; null where the limit is unknown or 0. */
    maxKiBs: number | null;
    minKiBs: number | null;
    shortestSeconds: number | null;
    longestSeconds: number | null;
}

export function rebuildBounds(componentKiB: number, minKiBs: number | null, maxKiBs: number | null): RebuildBounds {
    const at = (kiBs: number | null) => (kiBs !== null && kiBs > 0 ? componentKiB / kiBs : null);
    return { componentKiB, minKiBs, maxKiBs, shortestSeconds: at(maxKiBs), longestSeconds: at(minKiBs) };
}
