// SPDX-License-Identifier: LGPL-2.1-or-later
// The life of a sync (md_check_recovery + md_do_sync): what needs to run, starting it from its
// resume point, checkpointing, interrupting (idle/frozen) and finishing. Timing and speed are
// the physics' business; this module only moves the state between those steps.

import type { SyncAction } from '../scenario/types';
import { degradedCount, isReadOnly, isStarted, memberInSlot, recoveringMembers, slottedMembers, spareMembers } from './array';
import { isRedundant, maxDegraded, mismatchUnit, roundDown, syncGranularity, syncTotalSectors } from './levels';
import type { MdArray, Member, SyncRun } from './types';

/** A check or repair: asked for through sync_action, compares copies, counts mismatches. */
export function isRequestedSync(action: SyncAction | undefined): boolean {
    return action === 'check' || action === 'repair';
}

/** last_sync_action spells recovery differently from sync_action. */
export function lastSyncActionName(action: SyncAction): string {
    return action === 'recover' ? 'recovery' : action;
}

/** What md_check_recovery would start now, in the kernel's order of precedence. */
export function neededSync(array: MdArray): SyncAction | null {
    if (!isRedundant(array.level) || !isStarted(array) || isReadOnly(array) || array.frozen) return null;
    if (array.reshape) return 'reshape';
    if (recoveringMembers(array).length > 0) return 'recover';
    if (degradedCount(array) > 0 && spareMembers(array).length > 0) return 'recover';
    if (spareMembers(array).length > 0 && awaitingReplacement(array).length > 0) return 'recover';
    if (array.resyncCheckpoint !== null) return 'resync';
    return array.requested;
}

/** Working members marked want_replacement that have no replacement yet. */
function awaitingReplacement(array: MdArray): Member[] {
    return slottedMembers(array).filter(m => m.flags.has('want_replacement') && !m.flags.has('replacement') &&
        !slottedMembers(array).some(r => r !== m && r.slot === m.slot && r.flags.has('replacement')));
}

/**
 * Put spares into the empty slots (remove_and_add_spares); they rebuild from the start. Spares left
 * over become the replacement of a member marked want_replacement (raid1/5/10's add_disk does so
 * when no slot is empty).
 */
export function activateSpares(array: MdArray): void {
    const spares = spareMembers(array);
    for (let slot = 0; slot < array.raidDisks && spares.length > 0; slot++) {
        if (memberInSlot(array, slot)) continue;
        const spare = spares.shift()!;
        spare.slot = slot;
        spare.inSync = false;
        spare.recoveryOffset = 0;
    }
    for (const original of awaitingReplacement(array)) {
        const spare = spares.shift();
        if (!spare) break;
        Object.assign(spare, { slot: original.slot, inSync: false, recoveryOffset: 0 });
        spare.flags.add('replacement');
    }
}

/** Where a sync of this kind picks up: the checkpoints md keeps across interruptions. */
function resumePoint(array: MdArray, action: SyncAction): number {
    switch (action) {
        case 'resync': return array.resyncCheckpoint ?? 0;
        case 'recover': return Math.min(...recoveringMembers(array).map(m => m.recoveryOffset ?? 0));
        case 'reshape': return array.reshape?.checkpoint ?? 0;
        default: return array.requestedStart;
    }
}

/** The sync thread is created: it first waits for arrays on the same disks (DELAYED). */
export function requestSync(array: MdArray, action: SyncAction, now: number): SyncRun {
    if (action === 'recover') activateSpares(array);
    array.lastSyncAction = lastSyncActionName(action);
    const total = syncTotalSectors(array, action);
    const position = Math.min(resumePoint(array, action), total);
    array.sync = {
        action, status: 'delayed', requestedAt: now, position, total, completed: position,
        lastCheckpointAt: now, marks: [], rateKiBs: 0, ioShare: syncedShare(array, action),
    };
    return array.sync;
}

/**
 * On the lockless bitmap md skips the chunks never written, and a resync it started itself also the
 * clean ones: it syncs only those marked "need sync" (md-llbitmap.c, llbitmap_skip_sync_blocks).
 */
function syncedShare(array: MdArray, action: SyncAction): number {
    const bitmap = array.bitmap;
    if (bitmap?.kind !== 'llbitmap' || action === 'reshape') return 1;
    return action === 'resync' ? bitmap.needSyncShare : bitmap.writtenShare;
}

/** No conflict any more: the sync begins at its resume point with fresh speed marks. */
export function startSync(array: MdArray, sync: SyncRun, now: number): void {
    sync.status = 'running';
    sync.position = Math.min(resumePoint(array, sync.action), sync.total);
    sync.completed = sync.position;
    sync.lastCheckpointAt = now;
    sync.marks = [{ time: now, position: sync.position }];
    if (isRequestedSync(sync.action) || sync.action === 'resync') array.mismatchesFound = 0;
    // With too few working members there is nothing to compare: md skips the whole range.
    const degraded = degradedCount(array);
    if (isRequestedSync(sync.action) && degraded > 0 && degraded >= maxDegraded(array))
        sync.position = sync.total;
}

/** curr_resync_completed moved: md persists it where the next run resumes from. */
export function recordCheckpoint(array: MdArray, sync: SyncRun, completed: number, now: number): void {
    sync.completed = completed;
    sync.lastCheckpointAt = now;
    persistProgress(array, sync.action, completed);
}

function persistProgress(array: MdArray, action: SyncAction, position: number): void {
    if (action === 'resync') array.resyncCheckpoint = position;
    if (action === 'recover') for (const member of recoveringMembers(array)) member.recoveryOffset = position;
    if (action === 'reshape' && array.reshape) array.reshape.checkpoint = position;
}

/**
 * `echo idle` or `echo frozen`: the thread stops. A resync, recovery or reshape keeps the exact
 * position it reached and resumes from it; a check or repair is dropped, remembering its last
 * coarse checkpoint as sync_min (where the next requested check starts).
 */
export function interruptSync(array: MdArray): void {
    const sync = array.sync;
    array.sync = null;
    if (!sync || sync.status !== 'running') {
        if (isRequestedSync(sync?.action)) array.requested = null;
        return;
    }
    if (isRequestedSync(sync.action)) {
        array.requestedStart = sync.completed;
        array.requested = null;
        return;
    }
    persistProgress(array, sync.action, roundDown(sync.position, syncGranularity(array.level)));
}

/** Where the running sync stops moving: its end, or a lower md/sync_max it waits at. */
export function syncEnd(array: MdArray, sync: SyncRun): number {
    return Math.min(sync.total, array.syncMax ?? Infinity);
}

/** The sync reached its end. */
export function finishSync(array: MdArray): void {
    const sync = array.sync;
    array.sync = null;
    if (!sync) return;
    // A sync that completed forgets its upper bound (md_do_sync); an interrupted one keeps it.
    array.syncMax = null;
    switch (sync.action) {
        case 'resync':
            array.resyncCheckpoint = null;
            array.latentMismatchSectors = 0;
            if (array.bitmap?.kind === 'llbitmap') array.bitmap.needSyncShare = 0;
            break;
        case 'recover':
            finishRecovery(array);
            break;
        case 'reshape':
            array.reshape = null;
            break;
        default:
            if (sync.action === 'repair') array.latentMismatchSectors = 0;
            array.requested = null;
            array.requestedStart = 0;
    }
}

/** Rebuilt members become in_sync; a finished replacement takes over and its original fails. */
function finishRecovery(array: MdArray): void {
    for (const member of recoveringMembers(array)) {
        if (member.flags.has('replacement')) {
            const original = array.members.find(m => m !== member && m.slot === member.slot && !m.faulty);
            if (original) {
                original.faulty = true;
                original.inSync = false;
                original.slot = null;
            }
            member.flags.delete('replacement');
        }
        member.inSync = true;
        member.recoveryOffset = null;
    }
}

/** mismatch_cnt: what the check counted, in the personality's coarse units. */
export function mismatchCount(array: MdArray): number {
    const unit = mismatchUnit(array.level);
    return Math.floor(array.mismatchesFound / unit) * unit;
}
