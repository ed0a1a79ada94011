// SPDX-License-Identifier: LGPL-2.1-or-later
// What the guided repair says, by level: what a repair does before it runs, and what the check
// after it found, compared with the check before.

import { msg, N_, type Message } from './message';
import { effectiveLimits, type ArrayModel, type HostModel } from './modelTypes';
import { bitmapCoverageKiB } from './tuning/bitmap';

const MIRRORED = new Set(['raid1', 'raid10']);
const PARITY = new Set(['raid4', 'raid5', 'raid6']);

/** What `echo repair > sync_action` does on this level (md's raid1/raid10/raid5 sync code). */
export function repairDoes(level: string | null): Message {
    if (MIRRORED.has(level ?? '')) {
        return msg(N_('On $0 a repair reads every block from all copies and, where they differ, copies the first copy it could read over the others. Which copy wins is not chosen by its content: if the other copy held the good data, it is lost.'),
            level!.toUpperCase());
    }
    if (PARITY.has(level ?? '')) {
        return msg(N_('On $0 a repair reads every stripe and, where the parity does not match the data, rewrites the parity from the data. The data blocks are taken as right: md cannot tell which block of a stripe is wrong.'),
            level!.toUpperCase());
    }
    return msg(N_('A repair rewrites what a check would count as mismatched.'));
}

export interface RepairDuration {
    /** What the repair walks on each disk, KiB. */
    perDiskKiB: number;
    /** At the effective maximum: the fastest it may go. */
    maxKiBs: number | null;
    fastestSeconds: number | null;
    /** At the effective minimum: what md keeps up under other I/O. */
    minKiBs: number | null;
    slowestSeconds: number | null;
}

/**
 * How long the repair (and the check after it) takes at the current limits: md paces a sync per
 * disk between the minimum and the maximum, over what a check walks (one member's data; the whole
 * array's addresses on raid10, as a bitmap spans). null when the size is unknown.
 */
export function repairDuration(array: ArrayModel, host: HostModel): RepairDuration | null {
    const perDiskKiB = bitmapCoverageKiB(array);
    if (perDiskKiB === null) return null;
    const { minKiBs, maxKiBs } = effectiveLimits(array, host);
    const at = (kiBs: number | null) => (kiBs && kiBs > 0 ? perDiskKiB / kiBs : null);
    return { perDiskKiB, maxKiBs, fastestSeconds: at(maxKiBs), minKiBs, slowestSeconds: at(minKiBs) };
}

/** "before: N; after the repair's check: M", in words. */
export function comparisonText(before: number, after: number): Message {
    return msg(N_('Before the repair: $0 mismatched sectors; after the repair\'s check: $1.'), before, after);
}

/** What the check after the repair means, by level. */
export function outcomeText(level: string | null, after: number): Message {
    if (after === 0) return msg(N_('Repaired: the check after the repair found no mismatches.'));
    if (MIRRORED.has(level ?? '')) {
        return msg(N_('On RAID1 and RAID10 copies can differ again in areas rewritten while a write was on its way, or that were never written since the array was made, such as swap or space no file uses: nothing reads them back, so this is rarely damaged data. A count that keeps growing from check to check without such use points at a disk.'));
    }
    if (PARITY.has(level ?? '')) {
        return msg(N_('On $0 the parity was rewritten from the data, yet the check after it found mismatches again: a sign of a disk or controller problem (a disk, cable or controller returning other data than was written). Look at the disks\' SMART data and the kernel log.'),
            level!.toUpperCase());
    }
    return msg(N_('The check after the repair found mismatches again.'));
}
