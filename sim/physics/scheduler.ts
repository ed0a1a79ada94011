// SPDX-License-Identifier: LGPL-2.1-or-later
// Which syncs run: every array that needs one asks (md_check_recovery), and among arrays that
// share a physical disk only one runs at a time; the others wait with resync=DELAYED, the one
// waiting longest going first when the disk frees up.

import { sharesDisks } from '../model/array';
import { neededSync, requestSync, startSync } from '../model/sync';
import type { HostState, MdArray } from '../model/types';

export function scheduleSyncs(state: HostState): void {
    for (const array of state.arrays) {
        if (array.sync) continue;
        const action = neededSync(array);
        if (action) requestSync(array, action, state.time);
    }
    const running = state.arrays.filter(a => a.sync?.status === 'running');
    const waiting = state.arrays
        .filter((a): a is MdArray & { sync: NonNullable<MdArray['sync']> } => a.sync?.status === 'delayed')
        .sort((a, b) => a.sync.requestedAt - b.sync.requestedAt);
    for (const array of waiting) {
        if (running.some(other => sharesDisks(other, array))) continue;
        startSync(array, array.sync, state.time);
        running.push(array);
    }
}
