// SPDX-License-Identifier: LGPL-2.1-or-later
// The physical limit of a rebuild in `make bench-rebuild`: what each member's bandwidth leaves for
// the rebuild once the competing load has taken its share. Pure arithmetic, unit-tested against a
// count over md's RAID5/6 layouts (test/unit/tools/rebuildLimit.test.ts).
//
// A recovery reads the same range from every surviving member and writes it to the new one, so
// it runs at one rate per member, bounded by the busiest surviving member's read bandwidth left
// over and by the new member's write bandwidth (QEMU throttles reads and writes separately).
//
// The load reads uniformly at random over the array, in blocks within a chunk. Every member holds
// 1/n of the data (parity rotates), so of L MB/s read:
//   - data on a surviving member, (n-1)/n of it, costs one read there;
//   - data on the missing member, 1/n of it, is recomputed from the rest of its stripe: the same
//     range read from all n-1 survivors (RAID5: the other data and P; RAID6: also Q, since md
//     reads every block of a stripe to recompute a failed one).
// Per surviving member: L/n + L/n = 2L/n. Behind the rebuild position md reads the new member's
// chunks from the new member itself (rdev->recovery_offset, advanced at every checkpoint), so
// there a survivor only serves its own data: L/n. At a steady rebuild speed the position sweeps
// the array evenly in time, so the share averages to (2 + 1) / 2 * L/n = 1.5 L/n.

/** Average share of the load's read rate each surviving member serves during the rebuild. */
export function survivorLoadShare(members: number): number {
    return 1.5 / members;
}

/** Share each surviving member serves while the array is degraded (no rebuild progress yet). */
export function degradedLoadShare(members: number): number {
    return 2 / members;
}

export interface LimitInput {
    /** Members of the array (n), the rebuilt one included. */
    members: number;
    /** Read and write bandwidth of each member, MB/s. */
    readMBs: number;
    writeMBs: number;
    /** The competing load's read rate on the array, MB/s. */
    loadMBs: number;
}

/** Rebuild rate per member, MB/s, that the disks allow next to the load. */
export function rebuildLimitMBs({ members, readMBs, writeMBs, loadMBs }: LimitInput): number {
    return Math.min(writeMBs, readMBs - loadMBs * survivorLoadShare(members));
}
