// SPDX-License-Identifier: LGPL-2.1-or-later
// Settings as the array card states them; their dialogs (loaded later, lazyDialogs.tsx) use them too.

import { _, fmt } from '../../host/i18n';
import { setraSectors } from '../../md/tuning/readAhead';

/** "2048 KiB (4096 sectors for blockdev --setra)": the array card's fact. */
export function readAheadText(kib: number): string {
    return fmt(_('$0 KiB ($1 sectors for blockdev --setra)'), kib, setraSectors(kib));
}

/** The array card's fact: "0 (md's own thread only)" or "4 per NUMA node". */
export function workerThreadsText(count: number): string {
    return count === 0 ? _('0 (md\'s own thread only)') : fmt(_('$0 per NUMA node'), count);
}
