// SPDX-License-Identifier: LGPL-2.1-or-later
// What the record of originals (journal.ts) still stands for on the host: the restore banner counts
// the settings that differ from their original now. Apart from journal.ts, which the model's
// types import, as it reads the model through the settings registry.

import type { Journal, JournalEntry } from './journal';
import type { HostModel } from './modelTypes';
import { liveValueAt } from './settings/steps';

/**
 * The recorded settings that differ from their original now: a change undone, or one whose write
 * failed, is recorded all the same (the record is written before the first change) but changed
 * nothing. One the model cannot read counts as differing: only a restore can say.
 */
export function entriesDiffering(journal: Journal, host: HostModel): JournalEntry[] {
    return journal.entries.filter(e => {
        const now = liveValueAt(host, e.path);
        return now === undefined || now === null || now !== e.original;
    });
}
