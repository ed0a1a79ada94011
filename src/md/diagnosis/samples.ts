// SPDX-License-Identifier: LGPL-2.1-or-later
// The raw evidence a "why is it slow?" diagnosis needs, sampled at every refresh of a running sync:
// its progress, the stripe cache in use, and each member disk's /proc/diskstats counters. Kept in
// the sync's model (bounded), like the ETA's progress samples, so a verdict rests on a minute of
// observation rather than on one refresh.

import type { ArrayModel, IoSample, MemberCounters, MemberModel } from '../modelTypes';
import type { DiskStats } from '../sysfs';


/**
 * One minute of samples: long enough to average out md's bursts (it throttles in ~0.5 s steps and
 * the kernel's own speed averages ~30 s), short enough that a change (a new limit, a backup that
 * stopped) shows within a minute. At the 2 s refresh that is 30 samples; the cap only matters when
 * refreshes come faster.
 */
export const DIAGNOSIS_WINDOW_MS = 60 * 1000;
const MAX_SAMPLES = 40;

/** Members that take part in a sync: they hold a slot and are not faulty. */
function syncingMembers(array: ArrayModel): MemberModel[] {
    return array.members.filter(m => m.slot !== null && (m.role === 'active' || m.role === 'rebuilding' || m.role === 'replacement'));
}

/** The other arrays with a member on one of `array`'s member disks (partitions of the same disks). */
export function siblingArrays(array: ArrayModel, arrays: readonly ArrayModel[]): string[] {
    const disks = new Set(array.members.map(m => m.disk));
    return arrays.filter(a => a.name !== array.name && a.members.some(m => disks.has(m.disk))).map(a => a.name);
}

const ioSectors = (stats: DiskStats) => stats.readSectors + stats.writeSectors;

export function takeIoSample(array: ArrayModel, diskStats: ReadonlyMap<string, DiskStats>,
    at: number, siblings: readonly string[] = []): IoSample | null {
    const doneKiB = array.sync?.doneKiB;
    if (array.sync?.runState !== 'running' || doneKiB === null || doneKiB === undefined) return null;
    const members: MemberCounters[] = [];
    for (const m of syncingMembers(array)) {
        const stats = diskStats.get(m.disk);
        if (stats)
            members.push({ member: m.name, disk: m.disk, role: m.role, sectors: ioSectors(stats), ioMs: stats.ioMs });
    }
    return {
        at,
        doneKiB,
        stripeCacheActive: array.stripeCache?.active ?? null,
        stripeCacheSize: array.stripeCache?.size ?? null,
        minKiBs: array.speedMin?.kiBs ?? null,
        maxKiBs: array.speedMax?.kiBs ?? null,
        members,
        siblings: siblings.flatMap(name => {
            const stats = diskStats.get(name);
            return stats ? [{ array: name, sectors: ioSectors(stats) }] : [];
        }),
    };
}

/** Samples taken under other limits or another stripe cache size describe another situation. */
function sameSettings(a: IoSample, b: IoSample): boolean {
    return a.minKiBs === b.minKiBs && a.maxKiBs === b.maxKiBs && a.stripeCacheSize === b.stripeCacheSize;
}

/**
 * Appends a sample. The history starts over when progress goes backwards (a new sync) or a setting
 * changed: a verdict about the old limits would be wrong about the new ones for a whole minute.
 */
export function addIoSample(history: readonly IoSample[], sample: IoSample): IoSample[] {
    const last = history[history.length - 1];
    if (last && (sample.doneKiB < last.doneKiB || !sameSettings(last, sample))) return [sample];
    if (last && sample.at <= last.at) return [...history];
    const kept = history.filter(s => sample.at - s.at <= DIAGNOSIS_WINDOW_MS);
    kept.push(sample);
    return kept.length > MAX_SAMPLES ? kept.slice(kept.length - MAX_SAMPLES) : kept;
}

/**
 * Called by buildModel once the disks are known: each running sync gets its previous samples
 * (same array, same action) plus this refresh's.
 */
export function recordIoSamples(arrays: ArrayModel[], diskStats: ReadonlyMap<string, DiskStats>,
    previous: ReadonlyMap<string, ArrayModel>, at: number): void {
    for (const array of arrays) {
        const sync = array.sync;
        if (!sync) continue;
        const before = previous.get(array.name)?.sync;
        const history = before && before.action === sync.action ? before.ioSamples : [];
        const sample = takeIoSample(array, diskStats, at, siblingArrays(array, arrays));
        sync.ioSamples = sample ? addIoSample(history, sample) : [];
    }
}
