// SPDX-License-Identifier: LGPL-2.1-or-later
// What one minute of samples says about a running sync: how fast it progressed, how much each
// member disk moved and how busy it was, how much of that was not the sync's own I/O, how often
// the stripe cache was full (src/md/stripeCacheUse.ts), and how fast the members could go at most.

import type { ArrayModel } from '../modelTypes';
import { syncedDensity } from '../llbitmapScope';
import { isStripeCacheFull } from '../stripeCacheUse';
import type { IoSample, MemberCounters, MemberRole } from '../modelTypes';

/** No verdict from fewer samples or a shorter span: at the 2 s refresh that is the first 10 s. */
export const MIN_SAMPLES = 3;
export const MIN_WINDOW_S = 10;
/**
 * Below 5% busy a disk's capacity (what it moved / the share of time it was busy) is too loose an
 * extrapolation (x20 and more) to state as a bound. The estimate errs high on SSDs, which serve
 * many requests at once: 100% busy there does not mean saturated.
 */
export const MIN_BUSY_FOR_CAPACITY = 0.05;

export interface MemberWindow {
    member: string;
    disk: string;
    role: MemberRole;
    /** KiB/s read plus written on the member's disk. */
    kiBs: number;
    /** Share of the time the disk had I/O in flight, 0..1. */
    busyShare: number;
    /** I/O time per MiB moved: a slow disk needs more. Null when it moved nothing. */
    msPerMiB: number | null;
    /** KiB of its own sync I/O per KiB of per-device progress; null when not known for the level. */
    syncFactor: number | null;
}

export interface CapacityBound {
    /** The fastest per-device progress the members allow, KiB/s. */
    kiBs: number;
    /** The member that sets it, and how busy it is now. */
    member: string;
    disk: string;
    busyShare: number;
    /**
     * That member moved mostly other I/O: its scattered requests take a hard disk longer per MiB
     * than the sync's reads in order, so what it moved per busy second is the least the sync could
     * get there, not the most (`make bench-rebuild`, seek-raid6-load: 0.4 MB/s per busy second
     * under the load, 37 MB/s once the minimum was raised).
     */
    atLeast: boolean;
}

/** A member's sync traffic under half of what it moves: its busy time is mostly other I/O's. */
export const OWN_SHARE_FOR_CAPACITY = 0.5;

/** The bound's figure where it is the most the members allow; null where unknown or only a floor. */
export function capacityCeiling(bound: CapacityBound | null): number | null {
    return bound && !bound.atLeast ? bound.kiBs : null;
}

export interface WindowFacts {
    seconds: number;
    samples: number;
    /** Per-device progress, KiB/s. */
    rateKiBs: number;
    /** Per-device KiB still to do at the last sample. */
    remainingKiB: number | null;
    members: MemberWindow[];
    /** Member disk traffic, KiB/s summed over members. */
    totalKiBs: number;
    /** The part of it that is not this sync's own I/O; null when the level's sync traffic is unknown. */
    otherKiBs: number | null;
    cache: { samples: number; fullSamples: number; size: number } | null;
    bound: CapacityBound | null;
    /** The other arrays on the same disks that moved data over the window, the busiest first. */
    siblings: SiblingIo[];
}

/** What another array on partitions of the member disks read and wrote, at its md device, KiB/s. */
export interface SiblingIo {
    array: string;
    kiBs: number;
}

/**
 * Other I/O counts as competing when it is at least 10% of what the member disks move and at least
 * 64 KiB/s: below that it is md's own bookkeeping (superblock and bitmap updates) and the error of
 * estimating the sync's share from its progress counter.
 */
export const OTHER_IO_MIN_SHARE = 0.1;
export const OTHER_IO_MIN_KIBS = 64;
/**
 * Less than 1 KiB/s of other I/O is rounding: the counters move in 512-byte sectors and 1 KiB
 * blocks of progress, which over a 10 s window leaves a fraction of a KiB/s per member.
 */
export const OTHER_IO_NOISE_KIBS = 1;

/**
 * On hard disks time tells what bytes hide. In a recovery the member md writes gets only the sync's
 * writes, in order; members it reads from that need twice its I/O time per MiB or more pay seeks for
 * requests between the sync's. A few scattered requests take a disk's time out of all proportion to
 * their bytes (`make bench-rebuild`, seek-raid6-light: other I/O 6-12% of the bytes, the members read
 * at 31-51 ms per MiB against 7-12 for the one written, and 4096 cache entries made it 3.2 to 5.6 times
 * faster; with nothing else running, seek-raid5-cache: 8.8-9.3 ms on every member).
 */
export const SEEKING_READS_RATIO = 2;

const WRITTEN_ROLES: readonly MemberRole[] = ['rebuilding', 'replacement'];

export function readsPaySeeks(facts: WindowFacts): boolean {
    const written = facts.members.filter(m => WRITTEN_ROLES.includes(m.role)).map(m => m.msPerMiB);
    const read = facts.members.filter(m => m.role === 'active' && m.syncFactor);
    if (!written.length || written.includes(null) || !read.length) return false;
    const writtenMs = Math.max(...written as number[]);
    return read.every(m => m.msPerMiB !== null && m.msPerMiB >= writtenMs * SEEKING_READS_RATIO);
}

/**
 * Other I/O enough to count as competing (and, for md, to make the array not idle): a share of the
 * bytes, or on hard disks the seeks it costs the members read (readsPaySeeks). Hard disks only: a
 * solid-state replacement writes faster per MiB than hard disks read with nothing else to do.
 */
export function otherIoCompetes(facts: WindowFacts, hardDisks: boolean): boolean {
    if (facts.otherKiBs === null || facts.totalKiBs <= 0 || facts.otherKiBs < OTHER_IO_MIN_KIBS) return false;
    return facts.otherKiBs / facts.totalKiBs >= OTHER_IO_MIN_SHARE || (hardDisks && readsPaySeeks(facts));
}

export type WindowResult = { facts: WindowFacts } | { gathering: { samples: number; seconds: number } };

/**
 * Per member, KiB read or written per KiB of per-device progress. Parity levels read every member
 * and write the rebuilt one; a raid1 resync reads one mirror and writes the others, a raid1
 * recovery reads each block from one of the in-sync mirrors; a check reads everything; a reshape
 * reads and rewrites everything. raid10 maps progress to devices by its layout, which decides
 * which members a recovery reads: only the member it writes, once per KiB, is known. Without that
 * bound the what-if promised a raised maximum on NVMe members that moved half of it
 * (`make bench-rebuild`, case nvme-raid10).
 */
function syncFactor(array: ArrayModel, member: MemberCounters, inSyncCount: number): number | null {
    const action = array.sync?.action;
    if (array.level === null || !action) return null;
    if (array.level === 'raid10') return action === 'recover' && member.role === 'rebuilding' ? 1 : null;
    if (action === 'reshape') return 2;
    if (action === 'recover' && array.level === 'raid1' && member.role === 'active') return 1 / Math.max(1, inSyncCount);
    return 1;
}

function memberWindow(array: ArrayModel, first: MemberCounters, last: MemberCounters, seconds: number,
    inSyncCount: number): MemberWindow | null {
    const sectors = last.sectors - first.sectors;
    const ioMs = last.ioMs - first.ioMs;
    // Counters going backwards: the disk was replaced or the counters wrapped; no evidence.
    if (sectors < 0 || ioMs < 0) return null;
    const kiB = sectors / 2;
    return {
        member: last.member,
        disk: last.disk,
        role: last.role,
        kiBs: kiB / seconds,
        busyShare: Math.min(1, ioMs / (seconds * 1000)),
        msPerMiB: kiB > 0 ? ioMs / (kiB / 1024) : null,
        syncFactor: syncFactor(array, last, inSyncCount),
    };
}

export function capacityBound(members: MemberWindow[], rateKiBs: number): CapacityBound | null {
    let bound: CapacityBound | null = null;
    for (const m of members) {
        if (m.busyShare < MIN_BUSY_FOR_CAPACITY || !m.syncFactor) continue;
        const kiBs = m.kiBs / m.busyShare / m.syncFactor;
        const atLeast = rateKiBs * m.syncFactor < m.kiBs * OWN_SHARE_FOR_CAPACITY;
        if (!bound || kiBs < bound.kiBs) {
            bound = { kiBs, member: m.member, disk: m.disk, busyShare: m.busyShare, atLeast };
        }
    }
    return bound;
}

/** The cache was full in at least three samples out of four: not a passing burst. */
export const CACHE_FULL_MIN_SHARE = 0.75;

export function cacheWasFull(facts: WindowFacts): boolean {
    return facts.cache !== null && facts.cache.fullSamples >= facts.cache.samples * CACHE_FULL_MIN_SHARE;
}

function cacheFacts(samples: readonly IoSample[]): WindowFacts['cache'] {
    const known = samples.filter(s => s.stripeCacheActive !== null && s.stripeCacheSize);
    if (!known.length) return null;
    const fullSamples = known.filter(s => isStripeCacheFull(s.stripeCacheSize!, s.stripeCacheActive!)).length;
    return { samples: known.length, fullSamples, size: known[known.length - 1].stripeCacheSize! };
}

function siblingsIo(first: IoSample, last: IoSample, seconds: number): SiblingIo[] {
    const before = new Map(first.siblings.map(s => [s.array, s.sectors]));
    return last.siblings.flatMap(s => {
        const start = before.get(s.array);
        const kiBs = start === undefined ? 0 : (s.sectors - start) / 2 / seconds;
        return kiBs >= OTHER_IO_NOISE_KIBS ? [{ array: s.array, kiBs }] : [];
    }).sort((a, b) => b.kiBs - a.kiBs);
}

/**
 * An array on the same disks is named as the other I/O's source when its md device moves at least
 * this share of the other I/O the member disks carry (its reads land once on the disks, its writes
 * once per copy: a quarter leaves room for that).
 */
export const SIBLING_MIN_SHARE = 0.25;

/** The other arrays on the member disks whose own I/O is a real part of the other I/O, busiest first. */
export function siblingsBehind(facts: WindowFacts): SiblingIo[] {
    const other = facts.otherKiBs;
    if (other === null || other <= 0) return [];
    return facts.siblings.filter(s => s.kiBs >= OTHER_IO_MIN_KIBS && s.kiBs >= other * SIBLING_MIN_SHARE);
}

export function measureWindow(array: ArrayModel, samples: readonly IoSample[]): WindowResult {
    const first = samples[0];
    const last = samples[samples.length - 1];
    const seconds = first && last ? (last.at - first.at) / 1000 : 0;
    if (samples.length < MIN_SAMPLES || seconds < MIN_WINDOW_S) {
        return { gathering: { samples: samples.length, seconds } };
    }

    const before = new Map(first.members.map(m => [m.member, m]));
    // One entry per disk: md judges a disk, and two members on one disk would be counted twice.
    const seen = new Set<string>();
    const inSyncCount = last.members.filter(m => m.role === 'active').length;
    const members: MemberWindow[] = [];
    for (const m of last.members) {
        const start = before.get(m.member);
        if (!start || seen.has(m.disk)) continue;
        seen.add(m.disk);
        const w = memberWindow(array, start, m, seconds, inSyncCount);
        if (w) members.push(w);
    }
    // On the lockless bitmap md passes what it skips at once: the sync I/O is a share of the progress.
    const scope = array.sync?.scope ?? null;
    const totalKiB = array.sync?.totalKiB ?? null;
    const rateKiBs = (last.doneKiB - first.doneKiB) / seconds * syncedDensity(scope, last.doneKiB, totalKiB);
    const totalKiBs = members.reduce((sum, m) => sum + m.kiBs, 0);
    const factors = members.map(m => m.syncFactor);
    const otherKiBs = factors.includes(null) || !members.length
        ? null
        : Math.max(0, totalKiBs - rateKiBs * (factors as number[]).reduce((a, b) => a + b, 0));
    return {
        facts: {
            seconds,
            samples: samples.length,
            rateKiBs,
            remainingKiB: scope ? scope.remainingKiB : totalKiB === null ? null : Math.max(0, totalKiB - last.doneKiB),
            members,
            totalKiBs,
            otherKiBs,
            cache: cacheFacts(samples),
            bound: capacityBound(members, rateKiBs),
            siblings: siblingsIo(first, last, seconds),
        },
    };
}

/**
 * The window of a running sync's samples, measured once per window: the diagnosis and the health
 * alert's slow members both ask at every refresh, and a new sample makes a new samples array.
 */
const measuredWindows = new WeakMap<readonly IoSample[], WindowResult>();

export function syncWindow(array: ArrayModel, samples: readonly IoSample[]): WindowResult {
    let result = measuredWindows.get(samples);
    if (!result) {
        result = measureWindow(array, samples);
        measuredWindows.set(samples, result);
    }
    return result;
}
