// SPDX-License-Identifier: LGPL-2.1-or-later
// "Why is my rebuild slow?": per syncing array, the reasons the evidence supports, each with the
// numbers behind it and the change that addresses it (opened through the normal plan dialog).
// Nothing is concluded from less than MIN_SAMPLES samples over MIN_WINDOW_S: "gathering data".

import { KIB_PER_MIB } from '../format';
import { memoPerObject } from '../memo';
import { CAPPED_SHARE, effectiveLimits, type ArrayModel, type HostModel } from '../modelTypes';
import { PRESETS } from '../tuning/presets';
import { RATE_MAX_KIBS } from '../validate';
import {
    cacheWasFull, capacityBound, capacityCeiling, OTHER_IO_MIN_KIBS, syncWindow, OTHER_IO_NOISE_KIBS, otherIoCompetes,
    siblingsBehind, type CapacityBound, type MemberWindow, type SiblingIo, type WindowFacts,
} from './window';
import type { BackgroundJob } from './backgroundJobs';
import { slowMembers } from './slowMembers';
import {
    CACHE_REACHABLE_BUSY, HARD_DISK_CACHE_ENTRIES, hardDisksServeOtherIo, MIN_GAIN, paceRegime, whatIfEtas,
    whatIfPredictor, type Predictor, type Regime, type WhatIfChange, type WhatIfOffer, type WhatIfRow,
} from './whatIf';
import { STRIPE_CACHE_MAX } from '../settings/registry';

/** The change a finding suggests; the UI opens the matching plan dialog prefilled with it. */
export type FixIntent =
    | { kind: 'speed-limits'; minKiBs: number | null; maxKiBs: number | null }
    /** A check or repair: a lower maximum of its own, so that it leaves the disks more room. */
    | { kind: 'lower-max'; maxKiBs: number }
    | { kind: 'stripe-cache'; entries: number }
    | { kind: 'resume' }
    /** A sync held at md/sync_max (src/md/stall.ts): raise the bound to "max". */
    | { kind: 'release-sync-max' };

export type Finding =
    | { kind: 'capped-by-max'; rateKiBs: number; maxKiBs: number; fix: FixIntent | null;
        /** The what-if predicts no gain from a higher maximum: the member disks are at their limit too. */
        noFix: 'no-gain' | null }
    /**
     * Other I/O holds it back: held at the minimum ('starved'), or md giving way to it above the
     * minimum ('slowed'; shown only with a minimum that would make it faster, or at Fast rebuild's).
     */
    | { kind: 'starved' | 'slowed'; rateKiBs: number; minKiBs: number; otherKiBs: number; otherShare: number; fix: FixIntent | null;
        /** Why no higher minimum is offered: the members are the limit, or it is at Fast rebuild's already. */
        noFix: 'members' | 'fast-already' | null;
        /** The arrays on other partitions of the same disks whose I/O it is (window.ts siblingsBehind). */
        siblings: SiblingIo[] }
    /** A check or repair taking the disks from other I/O: a lower maximum, or a check window. */
    | { kind: 'scrub'; action: 'check' | 'repair'; rateKiBs: number; fix: Extract<FixIntent, { kind: 'lower-max' }> }
    | { kind: 'slow-member'; member: string; disk: string; busyShare: number; peerBusyShare: number;
        msPerMiB: number; peerMsPerMiB: number; kiBs: number; peerKiBs: number; smartArgv: string[] }
    /**
     * The stripe cache full while the member disks had time to spare: md keeps no more stripes in
     * flight than the cache holds, so the disks wait for it (whatIf.ts says when that is the limit).
     */
    | { kind: 'cache-bound'; rateKiBs: number; entries: number; fullShare: number;
        /** The member disk with time to spare, where the members idle; null: hard disks serving other I/O too. */
        spare: { disk: string; busyShare: number } | null;
        fix: Extract<FixIntent, { kind: 'stripe-cache' }> }
    | { kind: 'frozen'; fix: FixIntent }
    | { kind: 'delayed'; waitingFor: string[] }
    | { kind: 'background-jobs'; jobs: BackgroundJob[]; otherKiBs: number };

/**
 * What sets the pace when no finding does, in words that agree with the evidence beside them:
 * the member disks (no change gains 5%), the minimum with other I/O beside it (too little to count
 * as competing), md giving way to other I/O above the minimum (no minimum raidtune offers would
 * help), the maximum, or nothing raidtune can see.
 */
export type Pace =
    | { kind: 'members'; bound: CapacityBound }
    | { kind: 'minimum'; minKiBs: number; otherKiBs: number }
    | { kind: 'gives-way'; minKiBs: number; otherKiBs: number }
    | { kind: 'maximum'; maxKiBs: number }
    | { kind: 'nothing' };

export interface Verdict {
    pace: Pace;
    /** Other I/O on the members: none measured, some, or not measurable on this layout. */
    other: 'none' | 'some' | 'unknown';
    /** The stripe cache was full in most samples, and no finding says it holds the sync back. */
    cacheFull: boolean;
}

export interface Diagnosis {
    findings: Finding[];
    /** Set with a window: what the section says when there is no finding. */
    verdict: Verdict | null;
    /** Set while a running sync has too few samples for a verdict. */
    gathering: { samples: number; seconds: number } | null;
    window: WindowFacts | null;
    whatIf: WhatIfRow[];
}

/** Stripe cache sizes to suggest, in order: 4096 is where most of the measured gain is (presets.ts). */
const CACHE_STEPS = [4096, 8192, 16384, STRIPE_CACHE_MAX];

/** A suggested limit is a whole number of MiB/s, the unit the dialog it opens shows. */
const wholeMiBs = (kiBs: number, round: (n: number) => number) => round(kiBs / KIB_PER_MIB) * KIB_PER_MIB;

function cappedFinding(facts: WindowFacts, maxKiBs: number | null): Finding | null {
    if (maxKiBs === null || facts.rateKiBs < maxKiBs * CAPPED_SHARE) return null;
    const target = Math.min(RATE_MAX_KIBS, Math.max(PRESETS['fast-rebuild'].speedMaxKiBs, wholeMiBs(maxKiBs * 2, Math.ceil)));
    return { kind: 'capped-by-max', rateKiBs: facts.rateKiBs, maxKiBs, fix: { kind: 'speed-limits', minKiBs: null, maxKiBs: target }, noFix: null };
}

/**
 * A minimum worth suggesting: Fast rebuild's, or less when the members cannot take it. Not more:
 * above it the rebuild takes most of a SATA disk from the other I/O (presets.ts says why), a
 * trade the admin makes in the limits dialog, not raidtune by default. Exported for the Replace
 * disk dialog, which predicts with it before the rebuild has a sample (no bound then).
 */
export function raisedMinimum(minKiBs: number, maxKiBs: number | null, bound: CapacityBound | null): Pick<Finding & { kind: 'starved' }, 'fix' | 'noFix'> {
    const wanted = PRESETS['fast-rebuild'].speedMinKiBs;
    if (minKiBs >= wanted) return { fix: null, noFix: 'fast-already' };
    const ceiling = capacityCeiling(bound);
    const target = ceiling !== null ? Math.min(wanted, wholeMiBs(ceiling, Math.floor)) : wanted;
    if (target <= minKiBs) return { fix: null, noFix: 'members' };
    return { fix: { kind: 'speed-limits', minKiBs: target, maxKiBs: maxKiBs !== null && maxKiBs < target ? target : null }, noFix: null };
}

function otherIoFinding(facts: WindowFacts, pace: Regime, minKiBs: number | null,
    maxKiBs: number | null, hardDisks: boolean): Finding | null {
    const other = facts.otherKiBs;
    if (minKiBs === null || other === null || !otherIoCompetes(facts, hardDisks)) return null;
    if (pace !== 'min' && pace !== 'other-io') return null;
    return {
        kind: pace === 'min' ? 'starved' : 'slowed', rateKiBs: facts.rateKiBs, minKiBs, otherKiBs: other,
        otherShare: other / facts.totalKiBs, ...raisedMinimum(minKiBs, maxKiBs, facts.bound),
        siblings: siblingsBehind(facts),
    };
}

/**
 * A check or repair need not be fast: what an admin weighs is what it takes from the other I/O.
 * While md does not already give way to other I/O it is offered half its speed as its maximum,
 * which leaves the disks about half their time for other I/O (and the check window, in words).
 * Once the array has a maximum of its own, the admin has chosen: no further halving is offered.
 */
function scrubFinding(array: ArrayModel, facts: WindowFacts, action: 'check' | 'repair', pace: Regime,
    minKiBs: number | null): Extract<Finding, { kind: 'scrub' }> | null {
    if (pace === 'min' || pace === 'other-io' || array.speedMax?.source === 'local') return null;
    const maxKiBs = Math.floor(facts.rateKiBs / 2 / 1000) * 1000;
    // At or below the minimum a maximum does not slow it (md throttles only above the minimum).
    if (maxKiBs <= (minKiBs ?? 0)) return null;
    return { kind: 'scrub', action, rateKiBs: facts.rateKiBs, fix: { kind: 'lower-max', maxKiBs } };
}

/**
 * The stripe cache size to try next: the next step while the cache is full; on hard disks that
 * serve other I/O too, 4096 entries full or not, where the benchmark measured the gain (whatIf.ts
 * HARD_DISK_CACHE_ENTRIES).
 */
function nextCacheSize(facts: WindowFacts, hardDiskLoad: boolean): number | null {
    if (!facts.cache) return null;
    const size = facts.cache.size;
    if (hardDiskLoad && size < HARD_DISK_CACHE_ENTRIES) return HARD_DISK_CACHE_ENTRIES;
    if (!cacheWasFull(facts)) return null;
    return CACHE_STEPS.find(n => n > size) ?? null;
}

/**
 * A cache to enlarge: a finding where the what-if predicts a larger one faster (judge() keeps it
 * only then): the members idle part of the time, or they are hard disks serving other I/O too.
 */
function cacheFinding(facts: WindowFacts, predict: Predictor, hardDiskLoad: boolean): Finding | null {
    const entries = nextCacheSize(facts, hardDiskLoad);
    if (entries === null || !facts.cache) return null;
    const outcome = predict({ kind: 'stripe-cache', entries }).outcome;
    if (outcome !== 'faster' && outcome !== 'likely-faster') return null;
    return {
        kind: 'cache-bound', rateKiBs: facts.rateKiBs, entries: facts.cache.size,
        fullShare: facts.cache.fullSamples / facts.cache.samples,
        spare: outcome !== 'likely-faster' && facts.bound ? { disk: facts.bound.disk, busyShare: facts.bound.busyShare } : null,
        fix: { kind: 'stripe-cache', entries },
    };
}

/** Every member of the array is a hard disk (queue/rotational), as far as the host says. */
export function membersAreHardDisks(facts: WindowFacts, host: HostModel): boolean {
    return facts.members.length > 0 && facts.members.every(m => host.disks.get(m.disk)?.rotational === true);
}

function slowMemberFindings(members: MemberWindow[]): Finding[] {
    return slowMembers(members).map(m => ({ kind: 'slow-member', ...m, smartArgv: ['smartctl', '-a', `/dev/${m.disk}`] }));
}

/**
 * Programs known for heavy I/O while other I/O competes with the sync: the likely source, named.
 * Competes, not merely measured: the progress counter read a sample apart from the disks' counters
 * makes a few % of other I/O out of none (gate29: md1, capped by its maximum with no other I/O,
 * named a backup under load).
 */
function backgroundJobsFinding(facts: WindowFacts, jobs: BackgroundJob[], hardDisks: boolean): Finding | null {
    const other = facts.otherKiBs;
    if (!jobs.length || other === null || !otherIoCompetes(facts, hardDisks)) return null;
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
    case 'lower-max': return { kind: 'max', kiBs: fix.maxKiBs };
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
    const others = capacityBound(facts.members.filter(m => m.member !== member), facts.rateKiBs);
    const limit = Math.min(others?.kiBs ?? Infinity, maxKiBs ?? Infinity);
    return Number.isFinite(limit) ? Math.max(limit, facts.rateKiBs) : facts.rateKiBs;
}

interface Ranked { finding: Finding; predictedKiBs: number }

/**
 * A finding with the speed its remedy is predicted to give. A fix the what-if predicts no gain
 * from is not offered: a remedy that does not help would send the admin the wrong way. Where the
 * limit itself is what md applies (held at the minimum or the maximum) the finding stays and says
 * why no fix is offered; md giving way above the minimum is no finding then (the verdict says it).
 */
function judge(finding: Finding, facts: WindowFacts, predict: Predictor, maxKiBs: number | null): Ranked | null {
    const now = facts.rateKiBs;
    if (finding.kind === 'slow-member') return { finding, predictedKiBs: withoutSlowMember(facts, finding.member, maxKiBs) };
    const fix = 'fix' in finding ? finding.fix : null;
    const change = fix && fixChange(fix);
    if (!change) return { finding, predictedKiBs: now };
    const row = predict(change);
    // Faster by an amount not measurable, yet the largest lever measured (whatIf.ts largerCache): first.
    if (row.outcome === 'likely-faster') return { finding, predictedKiBs: Infinity };
    if (row.outcome !== 'same') return { finding, predictedKiBs: row.rateKiBs ?? now };
    const without = withoutFix(finding);
    return without && { finding: without, predictedKiBs: now };
}

function withoutFix(finding: Finding): Finding | null {
    switch (finding.kind) {
    case 'capped-by-max': return { ...finding, fix: null, noFix: 'no-gain' };
    // A higher minimum gains nothing only when the members cannot go faster (see whatIf's regimes).
    case 'starved': return { ...finding, fix: null, noFix: 'members' };
    case 'slowed':
    case 'cache-bound': return null;
    default: return finding;
    }
}

/** Most predicted gain first (the cause to act on), the rest in their usual order (sort is stable). */
function rankByGain(findings: Finding[], facts: WindowFacts, predict: Predictor, maxKiBs: number | null): Finding[] {
    return findings.map(f => judge(f, facts, predict, maxKiBs))
        .filter((r): r is Ranked => r !== null)
        .sort((a, b) => b.predictedKiBs - a.predictedKiBs)
        .map(r => r.finding);
}

function paceOf(facts: WindowFacts, regime: Regime, minKiBs: number | null, maxKiBs: number | null): Pace {
    const bound = facts.bound;
    const other = facts.otherKiBs ?? 0;
    // With its cache full md keeps the disks busy only so much of the time (whatIf.ts): then that is their pace.
    const reachable = cacheWasFull(facts) ? CACHE_REACHABLE_BUSY : 1;
    if (bound && !bound.atLeast && bound.kiBs * reachable < facts.rateKiBs * MIN_GAIN) return { kind: 'members', bound };
    if (regime === 'min' && minKiBs !== null && other >= OTHER_IO_MIN_KIBS) return { kind: 'minimum', minKiBs, otherKiBs: other };
    if (regime === 'other-io' && minKiBs !== null) return { kind: 'gives-way', minKiBs, otherKiBs: other };
    if (regime === 'max' && maxKiBs !== null) return { kind: 'maximum', maxKiBs };
    return { kind: 'nothing' };
}

function verdictOf(facts: WindowFacts, regime: Regime, minKiBs: number | null, maxKiBs: number | null,
    findings: Finding[]): Verdict {
    const other = facts.otherKiBs;
    return {
        pace: paceOf(facts, regime, minKiBs, maxKiBs),
        other: other === null ? 'unknown' : other < OTHER_IO_NOISE_KIBS ? 'none' : 'some',
        cacheFull: cacheWasFull(facts) && !findings.some(f => f.kind === 'cache-bound'),
    };
}

/**
 * diagnose(), once per refresh for each array: the card's section and the overview's row both ask,
 * and a host model is new at every refresh, so a result is remembered until the next one.
 */
export const diagnosisOf = memoPerObject((host: HostModel) => [host],
    (host, array: ArrayModel) => diagnose(array, host));

/**
 * The one change the overview offers for an array: the fix of the first finding that has one
 * (findings come with the most predicted gain first), or none.
 */
export function primaryFix(diagnosis: Diagnosis): FixIntent | null {
    for (const finding of diagnosis.findings) {
        if ('fix' in finding && finding.fix) return finding.fix;
    }
    return null;
}

export function diagnose(array: ArrayModel, host: HostModel): Diagnosis {
    const sync = array.sync;
    const none: Diagnosis = { findings: [], verdict: null, gathering: null, window: null, whatIf: [] };
    if (!sync) return none;
    if (sync.runState !== 'running') return { ...none, findings: stoppedFindings(array) };
    const measured = syncWindow(array, sync.ioSamples);
    if ('gathering' in measured) return { ...none, gathering: measured.gathering };
    const facts = measured.facts;
    const { minKiBs, maxKiBs } = effectiveLimits(array, host);
    const hardDisks = membersAreHardDisks(facts, host);
    const regime = paceRegime(facts, minKiBs, maxKiBs, hardDisks);
    const action = sync.action;
    const scrubbing = action === 'check' || action === 'repair';
    const scrub = scrubbing ? scrubFinding(array, facts, action, regime, minKiBs) : null;
    // A check or repair is offered less impact only: a higher limit would take the disks from the other I/O.
    const hardDiskLoad = hardDisksServeOtherIo(facts, hardDisks);
    const predict = whatIfPredictor(facts, minKiBs, maxKiBs, hardDisks);
    const paceFindings = scrubbing
        ? [scrub]
        : [cappedFinding(facts, maxKiBs), otherIoFinding(facts, regime, minKiBs, maxKiBs, hardDisks),
            cacheFinding(facts, predict, hardDiskLoad)];
    const findings = [...paceFindings, backgroundJobsFinding(facts, host.backgroundJobs, hardDisks)]
        .filter((f): f is Finding => f !== null);
    findings.push(...slowMemberFindings(facts.members));
    const ranked = rankByGain(findings, facts, predict, maxKiBs);
    const offer: WhatIfOffer = scrubbing
        ? { kind: 'less-impact', maxKiBs: scrub?.fix.maxKiBs ?? null }
        : { kind: 'speed', cacheEntries: nextCacheSize(facts, hardDiskLoad) };
    return {
        findings: ranked, verdict: verdictOf(facts, regime, minKiBs, maxKiBs, ranked), gathering: null, window: facts,
        whatIf: whatIfEtas(facts, predict, minKiBs, maxKiBs, offer),
    };
}
