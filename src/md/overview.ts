// SPDX-License-Identifier: LGPL-2.1-or-later
// The page's overview (issue #33): one row per array, the incident first. An admin who comes
// because a disk died reads, before anything else, whether the data survives one more failure and
// when the running operation ends. The risk comes from the health advice (advice/health.ts), so
// the overview, the card's alert and Cockpit's menu entry never disagree.

import { healthAdvice, type HealthAdvice } from './advice/health';
import { shownEstimate, type ShownEstimate } from './eta';
import { failuresLeft, isRedundant } from './levels';
import type { ArrayModel, HostModel, SyncAction, SyncRunState } from './modelTypes';

/** Worst first: the order of the overview's rows and of the array cards. */
export const SEVERITIES = ['at-risk', 'degraded', 'member-trouble', 'syncing', 'checking', 'healthy'] as const;
export type Severity = typeof SEVERITIES[number];

/**
 * How many more members may fail before data is lost. `none-left`: the next failure loses it;
 * `failed`: too few members run; `not-running`: the array is not started (its members may be
 * fine); `by-design`: a level without redundancy (raid0, linear), which is no incident.
 */
export type Redundancy =
    | { kind: 'survives'; failures: number }
    | { kind: 'none-left' | 'failed' | 'not-running' | 'by-design' | 'unknown' };

export interface OverviewEstimate {
    /** Seconds to the end: the page's own estimate where it has one, else the kernel's finish=. */
    seconds: number;
    basis: ShownEstimate['basis'] | 'kernel';
    /** The kernel's finish= in seconds, shown beside the page's own (null: the kernel gives none). */
    kernelSeconds: number | null;
}

export interface OverviewOperation {
    action: SyncAction;
    runState: SyncRunState;
    percent: number | null;
    /** Only while it runs: a delayed, pending or frozen sync has no end to tell. */
    estimate: OverviewEstimate | null;
}

export interface OverviewRow {
    name: string;
    severity: Severity;
    /** How the row is marked, as the card's health alert is: null for nothing to mark. */
    mark: HealthAdvice['severity'] | null;
    level: string | null;
    /** md's own words, as mdadm --detail writes them ("clean, degraded, recovering"). */
    state: string[];
    redundancy: Redundancy;
    operation: OverviewOperation | null;
}

const RESYNCS: readonly SyncAction[] = ['resync', 'recover', 'reshape'];

function severityOf(array: ArrayModel, advice: HealthAdvice | null): Severity {
    if (advice?.severity === 'danger') return 'at-risk';
    if (advice?.situation === 'degraded' || advice?.situation === 'rebuilding') return 'degraded';
    if (advice) return 'member-trouble';
    if (array.sync) return RESYNCS.includes(array.sync.action) ? 'syncing' : 'checking';
    return 'healthy';
}

function redundancyOf(array: ArrayModel, advice: HealthAdvice | null): Redundancy {
    if (array.health === 'inactive') return { kind: 'not-running' };
    if (array.health === 'failed') return { kind: 'failed' };
    if (!isRedundant(array.level)) return array.level ? { kind: 'by-design' } : { kind: 'unknown' };
    const left = advice
        ? advice.failuresLeft
        : failuresLeft(array.level, array.raidDisks, array.layout, array.missingSlots);
    if (left === null) return { kind: 'unknown' };
    return left === 0 ? { kind: 'none-left' } : { kind: 'survives', failures: left };
}

/** mdadm --detail's progress words for md's sync actions. */
const ACTION_STATE: Record<SyncAction, string> = {
    resync: 'resyncing', recover: 'recovering', check: 'checking', repair: 'repairing', reshape: 'reshaping',
};

function stateOf(array: ArrayModel): string[] {
    const words = [array.arrayState ?? array.health];
    if (array.health === 'degraded') words.push('degraded');
    if (array.health === 'failed') words.push('FAILED');
    if (array.sync) {
        const held = array.sync.runState === 'running' ? '' : ` (${array.sync.runState.toUpperCase()})`;
        words.push(ACTION_STATE[array.sync.action] + held);
    } else if (array.syncFrozen) {
        words.push('frozen');
    }
    return words;
}

function operationOf(array: ArrayModel): OverviewOperation | null {
    const sync = array.sync;
    if (!sync) return null;
    const kernelSeconds = sync.kernelFinishMinutes === null ? null : sync.kernelFinishMinutes * 60;
    const own = shownEstimate(sync);
    const estimate = sync.runState !== 'running' ? null
        : own ? { seconds: own.seconds, basis: own.basis, kernelSeconds }
            : kernelSeconds !== null ? { seconds: kernelSeconds, basis: 'kernel' as const, kernelSeconds } : null;
    return { action: sync.action, runState: sync.runState, percent: sync.percent, estimate };
}

export function overviewRow(array: ArrayModel, host: HostModel): OverviewRow {
    const advice = healthAdvice(array, host.disks);
    return {
        name: array.name,
        severity: severityOf(array, advice),
        mark: advice?.severity ?? null,
        level: array.level,
        state: stateOf(array),
        redundancy: redundancyOf(array, advice),
        operation: operationOf(array),
    };
}

/** md names in natural order: md2 before md10. */
const byName = new Intl.Collator('en', { numeric: true }).compare;

/** Worst first, then by name: the overview's rows. */
export function overviewRows(host: HostModel): OverviewRow[] {
    const rank = (row: OverviewRow) => SEVERITIES.indexOf(row.severity);
    return host.arrays.map(array => overviewRow(array, host))
        .sort((a, b) => rank(a) - rank(b) || byName(a.name, b.name));
}
