// SPDX-License-Identifier: LGPL-2.1-or-later
// RAID4/5/6 worker threads (md/group_thread_cnt): 0, the default, leaves all stripe handling
// (parity, reconstruction) to the one mdX_raidN thread; N starts N more kernel threads per NUMA
// node. That helps arrays of fast SSDs whose single thread is CPU bound; with rotating disks the
// disks, not the thread, set the pace.

import { hasStripeCache } from '../levels';
import { msg, N_, type Message } from '../message';
import { attributePlan } from '../plan';
import type { ArrayModel, HostModel } from '../modelTypes';
import { ARRAY_SETTINGS } from '../settings/registry';
import { deviceStep, parseSetting } from '../settings/steps';
import type { PlanResult } from './result';

/** Whether raidtune can change this array's worker threads, and if not why. */
export function groupThreadsUnavailable(array: ArrayModel): Message | null {
    if (!hasStripeCache(array.level)) return msg(N_('Only RAID 4, 5 and 6 arrays have worker threads.'));
    if (array.groupThreadCount === null) return msg(N_('The kernel does not offer group_thread_cnt for this array.'));
    return null;
}

/** True when every member sits on a disk the kernel calls rotational (unknown counts as not). */
function onRotatingDisksOnly(host: HostModel, array: ArrayModel): boolean {
    const disks = array.members.map(m => host.disks.get(m.disk));
    return disks.length > 0 && disks.every(d => d?.rotational === true);
}

export function groupThreadsPlan(host: HostModel, array: ArrayModel, input: string): PlanResult<'threads'> {
    const unavailable = groupThreadsUnavailable(array);
    if (unavailable) return { errors: { threads: unavailable } };
    const threads = parseSetting(ARRAY_SETTINGS.groupThreads, input);
    if (threads.error) return { errors: { threads: threads.error } };
    const warnings: Message[] = threads.value > 0 && onRotatingDisksOnly(host, array)
        ? [msg(N_('$0 is on rotating disks only: the disks, not md\'s thread, set its pace; more threads help arrays of fast SSDs.'), array.name)]
        : [];
    return {
        plan: attributePlan(msg(N_('Change the worker threads of $0'), array.name),
            deviceStep(ARRAY_SETTINGS.groupThreads, array, threads.value)),
        warnings,
    };
}
