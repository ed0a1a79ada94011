// SPDX-License-Identifier: LGPL-2.1-or-later
// Pausing, resuming, restarting and starting syncs through md/sync_action. raidtune never writes
// "reshape": on a real kernel with a large stripe cache it starts a reshape of the whole array
// that "idle" does not stop.

import { isRedundant } from '../levels';
import { msg, N_, type Message } from '../message';
import type { ArrayModel } from '../modelTypes';
import { attributeStep } from '../plan';
import type { PlanResult } from './result';

export type SyncControl = 'pause' | 'resume' | 'restart' | 'stop' | 'check' | 'repair';

const WRITTEN: Record<SyncControl, 'frozen' | 'idle' | 'check' | 'repair'> = {
    pause: 'frozen', resume: 'idle', restart: 'idle', stop: 'idle', check: 'check', repair: 'repair',
};

/** Why a control does not apply to the array now, or null when it does. */
export function syncControlUnavailable(array: ArrayModel, control: SyncControl): Message | null {
    const sync = array.sync;
    switch (control) {
    case 'pause':
        return sync && sync.runState !== 'frozen' ? null : msg(N_('No sync is running.'));
    case 'resume':
        return array.syncFrozen ? null : msg(N_('The sync is not paused.'));
    case 'restart':
        if (sync?.runState !== 'running') return msg(N_('No sync is running.'));
        return sync.action === 'resync' || sync.action === 'recover'
            ? null : msg(N_('Only a resync or a rebuild restarts by itself; a check or repair would just stop.'));
    case 'stop':
        return sync?.action === 'check' || sync?.action === 'repair'
            ? null : msg(N_('Only a check or a repair can be stopped; the kernel restarts a needed resync or rebuild.'));
    case 'check':
    case 'repair':
        if (!isRedundant(array.level)) return msg(N_('$0 arrays keep no redundancy to check.'), array.level ?? '?');
        if (array.health === 'degraded' || array.health === 'failed') {
            return msg(N_('The array is degraded: there is no second copy to compare against, and the extra reads load the remaining disks. Replace the missing disk first.'));
        }
        if (array.health === 'read-only' || array.health === 'inactive') return msg(N_('The array is not running read-write.'));
        return sync ? msg(N_('Another sync is in progress; wait for it to finish.')) : null;
    }
}

export function syncControlPlan(array: ArrayModel, control: SyncControl): PlanResult<'control'> {
    const unavailable = syncControlUnavailable(array, control);
    if (unavailable) return { errors: { control: unavailable } };
    // `from` null: not undoable by writing the old word back ("resync" on a clean array does nothing).
    const step = attributeStep(msg(N_('sync action of $0'), array.name), `/sys/block/${array.name}/md/sync_action`,
        WRITTEN[control], null);
    return { plan: { title: msg(SYNC_CONTROL_TITLES[control], array.name), steps: [step] }, warnings: [] };
}

const SYNC_CONTROL_TITLES: Record<SyncControl, string> = {
    pause: N_('Pause the sync of $0'),
    resume: N_('Resume the sync of $0'),
    restart: N_('Restart the sync of $0'),
    stop: N_('Stop the check of $0'),
    check: N_('Start a check of $0'),
    repair: N_('Start a repair of $0'),
};

/**
 * What the control does to the sync, said before Apply. md keeps a resync's and a rebuild's
 * position when one is interrupted (recovery_cp, each member's recovery_offset), so neither a pause
 * nor a restart loses progress; and md reads the speed limits at every step of a sync, so a change
 * of them never needs a restart.
 */
export function syncControlEffect(array: ArrayModel, control: SyncControl): Message {
    const rebuilding = array.sync?.action === 'recover';
    switch (control) {
    case 'pause':
        return rebuilding
            ? msg(N_('md holds the rebuild of $0 where it is and keeps its progress. Until it is resumed, the array stays without the redundancy the rebuild restores.'), array.name)
            : msg(N_('md holds the sync of $0 where it is and keeps its progress; nothing syncs on the array until it is resumed.'), array.name);
    case 'resume':
        return msg(N_('md continues the paused sync of $0 from where it stopped, or starts the resync or rebuild the array needs.'), array.name);
    case 'restart':
        return msg(N_('md interrupts the sync of $0 and starts it again at once from where it stopped: the progress is kept. A change of speed limits needs no restart: md applies it within seconds.'), array.name);
    case 'stop':
        return array.sync?.action === 'repair'
            ? msg(N_('md stops the repair of $0. What it rewrote stays rewritten; the rest is left as it is.'), array.name)
            : msg(N_('md stops the check of $0. The mismatches it counted so far stay readable until the next check starts.'), array.name);
    case 'check':
        return msg(N_('md reads every stripe of $0 and counts where the copies or parity disagree, changing nothing. It runs within the speed limits, beside other I/O.'), array.name);
    case 'repair':
        return msg(N_('md reads every stripe of $0 and rewrites the copies or parity that disagree. It runs within the speed limits, beside other I/O.'), array.name);
    }
}
