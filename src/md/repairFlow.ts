// SPDX-License-Identifier: LGPL-2.1-or-later
// The guided "repair, then check again" of an array whose last check found mismatches. Its state
// lives in a small record on the host (stateDir/repair/mdX.json: the count it started from and
// when each step began), so a reload or another browser shows the same step. The step itself is
// told from the record and what the kernel says now (the running sync, last_sync_action,
// mismatch_cnt): the record alone cannot know that a repair ended.

import { msg, N_, type Message } from './message';
import type { ArrayModel } from './modelTypes';
import { attributeStep, type Plan, type Step } from './plan';
import { REPAIR_FLOW_DIR, REPAIR_FLOW_SUFFIX, serializeRepairFlow, type RepairFlowRecord } from './repairFlowRecord';

export type RepairFlowState =
    /** The last check found mismatches and no flow is recorded: a repair is offered. */
    | { step: 'offer'; before: number }
    /** Step 1 asked for, not running (yet): another sync first, or the page a refresh ahead. */
    | { step: 'repair-pending'; record: RepairFlowRecord }
    | { step: 'repairing'; record: RepairFlowRecord }
    /** The repair ended: its own count is what it rewrote. "Check again" is offered. */
    | { step: 'repaired'; record: RepairFlowRecord; rewritten: number | null }
    | { step: 'check-pending'; record: RepairFlowRecord }
    | { step: 'checking'; record: RepairFlowRecord }
    /** The check after the repair ended: its count against the one before. */
    | { step: 'compared'; record: RepairFlowRecord; after: number | null }
    /** A record of another array of the same name (re-created since): only forgetting it is offered. */
    | { step: 'stale'; record: RepairFlowRecord };

/** The flow's step for the array now, or null when there is nothing to show (no record, nothing to repair). */
export function repairFlowState(array: ArrayModel, record: RepairFlowRecord | null): RepairFlowState | null {
    if (!record) {
        const offered = !array.sync && array.mismatchMeaning === 'check' && (array.mismatchCount ?? 0) > 0;
        return offered ? { step: 'offer', before: array.mismatchCount! } : null;
    }
    if (record.uuid !== null && array.uuid !== null && record.uuid !== array.uuid) return { step: 'stale', record };
    const running = array.sync?.action ?? null;
    if (record.checkStartedAt === null) {
        if (running === 'repair') return { step: 'repairing', record };
        if (!running && array.lastSyncAction === 'repair') return { step: 'repaired', record, rewritten: array.mismatchCount };
        return { step: 'repair-pending', record };
    }
    if (running === 'check') return { step: 'checking', record };
    if (!running && array.lastSyncAction === 'check') return { step: 'compared', record, after: array.mismatchCount };
    return { step: 'check-pending', record };
}

export function repairFlowPath(stateDir: string, array: string): string {
    return `${stateDir}/${REPAIR_FLOW_DIR}/${array}${REPAIR_FLOW_SUFFIX}`;
}

const recordSetting = (array: string): Message => msg(N_('raidtune\'s record of the guided repair of $0'), array);

function recordStep(stateDir: string, record: RepairFlowRecord, previous: RepairFlowRecord | null): Step {
    return {
        kind: 'write-file', setting: recordSetting(record.array), path: repairFlowPath(stateDir, record.array),
        content: serializeRepairFlow(record), previous: previous && serializeRepairFlow(previous),
    };
}

function syncActionStep(array: string, action: 'repair' | 'check'): Step {
    // Not undoable by writing a word back, as the sync controls (src/md/tuning/syncControl.ts).
    return attributeStep(msg(N_('sync action of $0'), array), `/sys/block/${array}/md/sync_action`, action, null);
}

/**
 * Step 1: the record first, then the repair, so a page reloaded while it applies already shows
 * the step. `before`: the count the card showed (the last check's).
 */
export function repairPlan(array: ArrayModel, before: number, stateDir: string, now: string): Plan {
    const record: RepairFlowRecord = {
        version: 1, array: array.name, uuid: array.uuid, before, repairStartedAt: now, checkStartedAt: null,
    };
    return {
        title: msg(N_('Repair $0, then check again: step 1 of 2'), array.name),
        steps: [recordStep(stateDir, record, null), syncActionStep(array.name, 'repair')],
    };
}

/** Step 2: the check that tells what the repair left. */
export function checkAgainPlan(record: RepairFlowRecord, stateDir: string, now: string): Plan {
    return {
        title: msg(N_('Check $0 again: step 2 of 2'), record.array),
        steps: [recordStep(stateDir, { ...record, checkStartedAt: now }, record), syncActionStep(record.array, 'check')],
    };
}

/** Ends the flow (done, or given up): the record goes, the kernel is left as it is. */
export function forgetRepairFlowPlan(record: RepairFlowRecord, stateDir: string): Plan {
    return {
        title: msg(N_('End the guided repair of $0'), record.array),
        steps: [{
            kind: 'write-file', setting: recordSetting(record.array), path: repairFlowPath(stateDir, record.array),
            content: null, previous: serializeRepairFlow(record),
        }],
    };
}
