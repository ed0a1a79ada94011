// SPDX-License-Identifier: LGPL-2.1-or-later
// sync_io_depth (linux 6.16 and later, some distribution kernels by backport): how much sync I/O md
// lets be in flight while the array has other I/O. What md.c does with it, which is all raidtune
// says or predicts about it:
//
// - md_do_sync() looks at its speed every `window` of sync I/O (128 KiB with 4 KiB pages). Below
//   the minimum it never waits; above the maximum it sleeps. In between it waits for ALL its
//   in-flight I/O to complete only when sync_io_within_limit() is false AND is_mddev_idle() is
//   false, i.e. the array (or another partition of a member's disk) had other I/O since the last
//   look. So the depth limits a sync only between the two limits, and only under other I/O.
// - sync_io_within_limit(): in-flight sync sectors (recovery_active) below depth x 8 sectors
//   (one 4 KiB stripe) on raid4/5/6, depth x 128 sectors (64 KiB, RESYNC_PAGES) on other levels.
// - The sysctl is proc_dointvec (any int; the kernel refuses only text and numbers outside int);
//   sync_io_depth_store() takes "system" (a prefix match) or kstrtouint() > 0 (0: EINVAL,
//   text: EINVAL, above 2^32-1: ERANGE) and keeps it in an int.

import type { ArrayModel } from '../modelTypes';

/**
 * The personalities bound their own sync I/O: raid1's raise_barrier() lets at most RESYNC_DEPTH
 * (32) sync requests of 64 KiB into a barrier bucket, raid10's at most its RESYNC_DEPTH of 32 MiB
 * / 64 KiB = 512, and raid5_sync_request() takes one stripe of the stripe cache per 4 KiB. A
 * depth past that puts no more sync I/O in flight: the largest depth worth setting.
 */
export const RAID1_RESYNC_DEPTH = 32;
export const RAID10_RESYNC_DEPTH = 512;

export function usefulSyncIoDepth(array: ArrayModel): number {
    if (array.level === 'raid10') return RAID10_RESYNC_DEPTH;
    return array.stripeCache?.size ?? RAID1_RESYNC_DEPTH;
}
