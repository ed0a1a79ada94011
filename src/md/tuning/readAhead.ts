// SPDX-License-Identifier: LGPL-2.1-or-later
// Read-ahead of an md device: /sys/block/mdX/queue/read_ahead_kb, in KiB. `blockdev --setra`
// sets the same value in 512-byte sectors (the common rebuild tip `setra 65536` = 32 MiB = 32768 KiB).
// It speeds up large sequential reads from the array; md's own rebuild reads do not go through
// the page cache, so it does little for a rebuild (an admin's RAID5 measurements found no gain
// from read-ahead on the members).

import type { ArrayModel, HostModel } from '../modelTypes';
import { msg, N_, type Message } from '../message';
import { attributePlan } from '../plan';
import { ARRAY_SETTINGS } from '../settings/registry';
import { deviceStep, parseSetting } from '../settings/steps';
import { fieldError } from '../validate';
import type { PlanResult } from './result';

/** What `blockdev --setra` and `--getra` count: 512-byte sectors. */
export function setraSectors(kib: number): number {
    return kib * 2;
}

/** Whether raidtune can change this array's read-ahead, and if not why. */
export function readAheadUnavailable(array: ArrayModel): Message | null {
    return array.readAheadKiB === null ? msg(N_('The kernel does not offer read_ahead_kb for this array.')) : null;
}

/** The kernel keeps read-ahead in whole pages: 10 KiB would read back as 8 on 4 KiB pages. */
function pageKiB(host: HostModel): number | null {
    return host.pageSize === null ? null : host.pageSize / 1024;
}

export function readAheadPlan(host: HostModel, array: ArrayModel, input: string): PlanResult<'kib'> {
    const unavailable = readAheadUnavailable(array);
    if (unavailable) return { errors: { kib: unavailable } };
    const kib = parseSetting(ARRAY_SETTINGS.readAhead, input);
    if (kib.error) return { errors: { kib: kib.error } };
    const page = pageKiB(host);
    if (page !== null && kib.value % page !== 0) {
        return { errors: { kib: fieldError(N_('Use a multiple of $0 KiB: the kernel keeps read-ahead in whole pages.'), page).error } };
    }
    const warnings: Message[] = kib.value === 0
        ? [msg(N_('0 turns read-ahead off: large sequential reads from $0 get slower.'), array.name)]
        : [];
    return {
        plan: attributePlan(msg(N_('Change the read-ahead of $0'), array.name), deviceStep(ARRAY_SETTINGS.readAhead, array, kib.value)),
        warnings,
    };
}
