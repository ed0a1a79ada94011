// SPDX-License-Identifier: LGPL-2.1-or-later
// "Why is my rebuild slow?": per syncing array, the reasons the evidence supports, each with the
// numbers behind it and the change that addresses it (opened through the normal plan dialog).
// Nothing is concluded from less than MIN_SAMPLES samples over MIN_WINDOW_S: "gathering data".

import { CAPPED_SHARE, effectiveLimits, type ArrayModel, type HostModel } from '../modelTypes';
import { PRESETS } from '../tuning/presets';
import { RATE_MAX_KIBS } from '../validate';
import { capacityBound, measureWindow, type CapacityBound, type MemberWindow, type WindowFacts } from './window';
import type { BackgroundJob } from './backgroundJobs';
import { heldAtMinimum, whatIfEtas, whatIfPredictor, type Predictor, type WhatIfChange, type WhatIfRow } from './whatIf';
import { STRIPE_CACHE_MAX } from '../settings/registry';

/** The change a finding suggests; the UI opens the matching plan dialog prefilled with it. */
export type FixIntent =
    | { kind: 'speed-limits'; minKiBs: number | null; maxKiBs: number | null }
    | { kind: 'stripe-cache'; entries: number }
    | { kind: 'resume' }
    /** A sync held at md/sync_max (src/md/stall.ts): raise the bound to "max". */
    | { kind: 'release-sync-max' };

export type Finding =
    | { kind: 'capped-by-max'; rateKiBs: number; maxKiBs: number; fix: FixIntent | null;
        /** The what-if predicts no gain from a higher maximum: the member disks are at their limit too. */
        noFix: 'no-gain' | null }
    | { kind: 'starved'; rateKiBs: number; minKiBs: number; otherKiBs: number; otherShare: number; fix: FixIntent | null;
        /** Why no higher minimum is offered: the members are the limit, or it is at Fast rebuild's already. */
        noFix: 'members' | 'fast-already' | null }
    | { kind: 'stripe-cache-full'; size: number; fullSamples: number; samples: number; fix: FixIntent | null;
        /** Why no larger cache is offered: it is at the kernel's largest, or the what-if predicts no gain from one. */
        noFix: 'largest' | 'no-gain' | null }
    | { kind: 'slow-member'; member: string; disk: string; busyShare: number; peerBusyShare: number;
        msPerMiB: number; peerMsPerMiB: number; kiBs: number; peerKiBs: number; smartArgv: string[] }
    | { kind: 'frozen'; fix: FixIntent }
    | { kind: 'delayed'; waitingFor: string[] }
    | { kind: 'background-jobs'; jobs: BackgroundJob[]; otherKiBs: number };

export interface Diagnosis {
    findings: Finding[];
    /** Set while a running sync has too few samples for a verdict. */
    gathering: { samples: number; seconds: number } | null;
    window: WindowFacts | null;
    whatIf: WhatIfRow[];
}

/**
 * Other I/O counts as competing when it is at least 10% of what the member disks move and at least
 * 64 KiB/s: below that it is md's own bookkeeping (superblock and bitmap updates) and the error of
 * estimating the sync's share from its progress counter.
 */
export const OTHER_IO_MIN_SHARE = 0.1;
export const OTHER_IO_MIN_KIBS = 64;
/** The cache was full in at least three samples out of four: not a passing burst. */
export const CACHE_FULL_MIN_SHARE = 0.75;
/**
 * A member is slow when the sync waits for it nearly all the time (busy at least 85%) and it needs
 * at least twice its peers' I/O time per MiB. Busy time, not the ratio, tells a slow disk from a
 * busy one: on disks capped by a token bucket (QEMU's throttling, a cloud volume's limits) busy
 * time is time queued at the cap, so of identical disks all near their cap the one given a few
 * percent more of a random load queues most, 0.73-0.79 busy at 3.8-5.9x its peers' time per MiB,
 * while a disk capped at half its peers' speed was busy 0.89-1 at 2.2-3.8x (`make bench-rebuild`,
 * hdd-raid6-load, Linux 6.1 and 7.3; doc/benchmarks.md, issue #14).
 */
export const SLOW_RATIO = 2;
export const SLOW_MIN_BUSY = 0.85;
/** Stripe cache sizes to suggest, in order: 4096 is where most of the measured gain is (presets.ts). */
const CACHE_STEPS = [4096, 8192, 16384, STRIPE_CACHE_MAX];

function median(values: number[]): number | null {
    if (!values.length) return null;
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function cappedFinding(facts: WindowFacts, maxKiBs: number | null): Finding | null {
    if (maxKiBs === null || facts.rateKiBs < maxKiBs * CAPPED_SHARE) return null;
    const target = Math.min(RATE_MAX_KIBS, Math.max(PRESETS['fast-rebuild'].speedMaxKiBs, maxKiBs * 2));
    return { kind: 'capped-by-max', rateKiBs: facts.rateKiBs, maxKiBs, fix: { kind: 'speed-limits', minKiBs: null, maxKiBs: target }, noFix: null };
}

/**
 * A minimum worth suggesting: Fast rebuild's, or less when the members cannot take it. Not more:
 * above it the rebuild takes most of a SATA disk from the other I/O (presets.ts says why), a
 * trade the admin makes in the limits dialog, not raidtune by default.
 */
function raisedMinimum(minKiBs: number, maxKiBs: number | null, bound: CapacityBound | null): Pick<Finding & { kind: 'starved' }, 'fix' | 'noFix'> {
    const wanted = PRESETS['fast-rebuild'].speedMinKiBs;
    if (minKiBs >= wanted) return { fix: null, noFix: 'fast-already' };
    const target = bound ? Math.min(wanted, Math.floor(bound.kiBs / 1000) * 1000) : wanted;
    if (target <= minKiBs) return { fix: null, noFix: 'members' };
    return { fix: { kind: 'speed-limits', minKiBs: target, maxKiBs: maxKiBs !== null && maxKiBs < target ? target : null }, noFix: null };
}

function starvedFinding(facts: WindowFacts, minKiBs: number | null, maxKiBs: number | null): Finding | null {
    const other = facts.otherKiBs;
    if (minKiBs === null || other === null || facts.totalKiBs <= 0) return null;
    const otherShare = other / facts.totalKiBs;
    if (!heldAtMinimum(facts.rateKiBs, minKiBs) || !competing(facts)) return null;
    return { kind: 'starved', rateKiBs: facts.rateKiBs, minKiBs, otherKiBs: other, otherShare, ...raisedMinimum(minKiBs, maxKiBs, facts.bound) };
}

/** The stripe cache size to try next while the cache is full, or null when none is larger. */
function nextCacheSize(facts: WindowFacts): number | null {
    const cache = facts.cache;
    if (!cache || cache.fullSamples < cache.samples * CACHE_FULL_MIN_SHARE) return null;
    return CACHE_STEPS.find(n => n > cache.size) ?? null;
}

function cacheFinding(facts: WindowFacts): Finding | null {
    const cache = facts.cache;
    if (!cache || cache.fullSamples < cache.samples * CACHE_FULL_MIN_SHARE) return null;
    const entries = nextCacheSize(facts);
    return entries === null
        ? { kind: 'stripe-cache-full', ...cache, fix: null, noFix: 'largest' }
        : { kind: 'stripe-cache-full', ...cache, fix: { kind: 'stripe-cache', entries }, noFix: null };
}

/**
 * Each member is compared with the members doing the same work: the in-sync ones read (and serve
 * the other I/O), a rebuilding one only writes, which costs a disk a different time per MiB. A
 * lone rebuilding disk has no peer: when it is the slow part, it caps the what-if (its capacity
 * bound) rather than being named here.
 */
function slowMemberFindings(members: MemberWindow[]): Finding[] {
    const findings: Finding[] = [];
    for (const m of members) {
        if (m.msPerMiB === null || m.busyShare < SLOW_MIN_BUSY) continue;
        const peers = members.filter(p => p !== m && p.role === m.role && p.msPerMiB !== null);
        const peerMsPerMiB = median(peers.map(p => p.msPerMiB!));
        if (peerMsPerMiB === null || m.msPerMiB < peerMsPerMiB * SLOW_RATIO) continue;
        findings.push({
            kind: 'slow-member', member: m.member, disk: m.disk, busyShare: m.busyShare,
            peerBusyShare: median(peers.map(p => p.busyShare))!, msPerMiB: m.msPerMiB, peerMsPerMiB,
            kiBs: m.kiBs, peerKiBs: median(peers.map(p => p.kiBs))!, smartArgv: ['smartctl', '-a', `/dev/${m.disk}`],
        });
    }
    return findings;
}

/** Other I/O enough to count as competing (and, for md, to make the array not idle). */
function competing(facts: WindowFacts): boolean {
    return facts.otherKiBs !== null && facts.totalKiBs > 0 && facts.otherKiBs >= OTHER_IO_MIN_KIBS &&
        facts.otherKiBs / facts.totalKiBs >= OTHER_IO_MIN_SHARE;
}

/** Programs known for heavy I/O while other I/O competes with the sync: the likely source, named. */
function backgroundJobsFinding(facts: WindowFacts, jobs: BackgroundJob[]): Finding | null {
    const other = facts.otherKiBs;
    if (!jobs.length || other === null || other < OTHER_IO_MIN_KIBS) return null;
    return { kind: 'background-jobs', jobs, otherKiBs: other };
}

/** Why a sync that does not run is not running (no samples needed: the kernel says so). */
function stoppedFindings(array: ArrayModel): Finding[] {
    if (array.sync?.runState === 'frozen' || array.syncFrozen) return [{ kind: 'frozen', fix: { kind: 'resume' } }];
    if (array.sync?.runState === 'delayed') return [{ kind: 'delayed', waitingFor: array.sync.waitingFor }];
    return [];
}

/** The what-if change a fix makes: the table's row for it predicts what it gains. */
export function fixChange(fix: FixIntent): WhatIfChange | null {
    switch (fix.kind) {
    case 'speed-limits':
        if (fix.minKiBs !== null) return { kind: 'min', kiBs: fix.minKiBs };
        return fix.maxKiBs !== null ? { kind: 'max', kiBs: fix.maxKiBs } : null;
    case 'stripe-cache': return { kind: 'stripe-cache', entries: fix.entries };
    case 'resume':
    case 'release-sync-max': return null;
    }
}

/**
 * The speed a slow member's replacement by a disk like its peers would allow: what the other
 * members can move, within the maximum (the sync goes no faster than that).
 */
function withoutSlowMember(facts: WindowFacts, member: string, maxKiBs: number | null): number {
    const others = capacityBound(facts.members.filter(m => m.member !== member));
    const limit = Math.min(others?.kiBs ?? Infinity, maxKiBs ?? Infinity);
    return Number.isFinite(limit) ? Math.max(limit, facts.rateKiBs) : facts.rateKiBs;
}

interface Ranked { finding: Finding; predictedKiBs: number }

/**
 * A finding with the speed its remedy is predicted to give. A fix the what-if predicts no gain
 * from is not offered: a remedy that does not help would send the admin the wrong way (a full
 * cache behind one failing disk, say).
 */
function judge(finding: Finding, facts: WindowFacts, predict: Predictor, maxKiBs: number | null): Ranked {
    const now = facts.rateKiBs;
    if (finding.kind === 'slow-member') return { finding, predictedKiBs: withoutSlowMember(facts, finding.member, maxKiBs) };
    const fix = 'fix' in finding ? finding.fix : null;
    const change = fix && fixChange(fix);
    if (!change) return { finding, predictedKiBs: now };
    const row = predict(change);
    return row.outcome === 'same' ? { finding: withoutFix(finding), predictedKiBs: now } : { finding, predictedKiBs: row.rateKiBs };
}

function withoutFix(finding: Finding): Finding {
    switch (finding.kind) {
    case 'capped-by-max': case 'stripe-cache-full': return { ...finding, fix: null, noFix: 'no-gain' };
    // A higher minimum gains nothing only when the members cannot go faster (see whatIf's regimes).
    case 'starved': return { ...finding, fix: null, noFix: 'members' };
    default: return finding;
    }
}

/** Most predicted gain first (the cause to act on), the rest in their usual order (sort is stable). */
function rankByGain(findings: Finding[], facts: WindowFacts, predict: Predictor, maxKiBs: number | null): Finding[] {
    return findings.map(f => judge(f, facts, predict, maxKiBs))
        .sort((a, b) => b.predictedKiBs - a.predictedKiBs)
        .map(r => r.finding);
}

export function diagnose(array: ArrayModel, host: HostModel): Diagnosis {
    const sync = array.sync;
    const none: Diagnosis = { findings: [], gathering: null, window: null, whatIf: [] };
    if (!sync) return none;
    if (sync.runState !== 'running') return { ...none, findings: stoppedFindings(array) };
    const measured = measureWindow(array, sync.ioSamples);
    if ('gathering' in measured) return { ...none, gathering: measured.gathering };
    const facts = measured.facts;
    const { minKiBs, maxKiBs } = effectiveLimits(array, host);
    const findings = [
        cappedFinding(facts, maxKiBs),
        starvedFinding(facts, minKiBs, maxKiBs),
        cacheFinding(facts),
        backgroundJobsFinding(facts, host.backgroundJobs),
    ].filter((f): f is Finding => f !== null);
    findings.push(...slowMemberFindings(facts.members));
    const ranked = rankByGain(findings, facts, whatIfPredictor(facts, minKiBs, maxKiBs), maxKiBs);
    return {
        findings: ranked, gathering: null, window: facts,
        whatIf: whatIfEtas(facts, minKiBs, maxKiBs, nextCacheSize(facts)),
    };
}
