// SPDX-License-Identifier: LGPL-2.1-or-later
// Advancing simulated time. A tick is cut into steps at every moment the rates change (a sync
// finishing and another starting, application I/O starting or stopping), so a long tick gives
// the same result as many short ones, give or take the speed jitter drawn once per tick.

import { loadActive } from '../model/array';
import { finishSync, syncEnd } from '../model/sync';
import type { HostState, IoLoad } from '../model/types';
import type { Rng } from '../random';
import { accountIo } from './io';
import { advanceSync, positionRate, primeSync } from './progress';
import { scheduleSyncs } from './scheduler';
import { syncRate } from './speed';
import { busyDisks } from './traffic';

const TIME_EPSILON = 1e-9;

function updateRates(state: HostState, jitter: (arrayIndex: number) => number): void {
    const busy = busyDisks(state);
    state.arrays.forEach((array, index) => {
        // Held at sync_max, md's thread sleeps: no sync I/O until the bound is raised.
        const sync = array.sync;
        if (sync?.status === 'running') sync.rateKiBs = sync.position >= syncEnd(array, sync) ? 0 : syncRate(state, array, busy, jitter(index));
    });
}

function loadBoundaries(load: IoLoad | null): number[] {
    return load ? [load.fromSeconds, load.untilSeconds] : [];
}

/** Seconds until the next moment the rates change. */
function timeToNextEvent(state: HostState): number {
    let next = Infinity;
    for (const array of state.arrays) {
        const sync = array.sync;
        if (sync?.status === 'running' && sync.rateKiBs > 0) next = Math.min(next, (syncEnd(array, sync) - sync.position) / positionRate(sync));
        for (const at of loadBoundaries(array.competingIo)) if (at > state.time) next = Math.min(next, at - state.time);
    }
    for (const disk of state.disks)
        for (const at of loadBoundaries(disk.backgroundIo)) if (at > state.time) next = Math.min(next, at - state.time);
    return Math.max(0, next);
}

/** A write to an auto-read-only array switches it to read-write, which lets a pending resync run. */
function wakeOnWrites(state: HostState): void {
    for (const array of state.arrays)
        if (array.baseState === 'read-auto' && loadActive(array.competingIo, state.time) && array.competingIo.writeKiBs > 0)
            array.baseState = 'clean';
}

function finishCompletedSyncs(state: HostState): void {
    for (const array of state.arrays)
        if (array.sync?.status === 'running' && array.sync.position >= array.sync.total) finishSync(array);
}

/** Run the host for `seconds` of simulated time. */
export function advanceHost(state: HostState, seconds: number, rng: Rng): void {
    const factors = state.arrays.map(() => 1 + state.jitter * (2 * rng() - 1));
    const jitter = (index: number) => factors[index];
    wakeOnWrites(state);
    finishCompletedSyncs(state);
    scheduleSyncs(state);
    let remaining = seconds;
    while (remaining > TIME_EPSILON) {
        updateRates(state, jitter);
        const step = Math.min(remaining, timeToNextEvent(state));
        accountIo(state, step);
        for (const array of state.arrays)
            if (array.sync?.status === 'running') advanceSync(array, array.sync, state.time, step);
        state.time += step;
        remaining -= step;
        wakeOnWrites(state);
        finishCompletedSyncs(state);
        scheduleSyncs(state);
    }
    updateRates(state, jitter);
}

/** Start the scenario: syncs it describes as under way get the history they would have by now. */
export function startHost(state: HostState, resumedArrays: Set<string>): void {
    scheduleSyncs(state);
    updateRates(state, () => 1);
    for (const array of state.arrays)
        if (array.sync?.status === 'running' && resumedArrays.has(array.name)) primeSync(array, array.sync, state.time);
}
