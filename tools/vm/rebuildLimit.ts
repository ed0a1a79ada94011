// SPDX-License-Identifier: LGPL-2.1-or-later
// The physical limit of a rebuild in `make bench-rebuild`: what each member's bandwidth leaves for
// the rebuild once the competing load has taken its share. Pure arithmetic, unit-tested against a
// count over md's RAID5/6 and RAID10 layouts (test/unit/tools/rebuildLimit.test.ts).
//
// A recovery reads the same range from every surviving member it needs and writes it to the new
// one, so it runs at one rate per member, bounded by the busiest surviving member's read bandwidth
// left over and by the new member's write bandwidth (QEMU throttles reads and writes separately).
//
// The load reads uniformly at random over the array, in blocks within a chunk.
// RAID5/6: every member holds 1/n of the data (parity rotates), so of L MB/s read:
//   - data on a surviving member, (n-1)/n of it, costs one read there;
//   - data on the missing member, 1/n of it, is recomputed from the rest of its stripe: the same
//     range read from all n-1 survivors (RAID5: the other data and P; RAID6: also Q, since md
//     reads every block of a stripe to recompute a failed one).
// Per surviving member: L/n + L/n = 2L/n.
// RAID10 (near 2, n even): each mirror pair holds 2/n of the data, read from either half; with one
// half missing its partner serves all of the pair's reads: 2L/n, the same share. The recovery
// reads only from that partner.
// Behind the rebuild position md reads the new member itself (rdev->recovery_offset, advanced at
// every checkpoint), so there a survivor only serves its own share: L/n. At a steady rebuild speed
// the position sweeps the array evenly in time, so the share averages to (2 + 1) / 2 * L/n = 1.5 L/n.
//
// A seek-bound disk (diskModels.ts `requestFloorBytes`) charges each load request at least the
// floor: a survivor's load costs share x L x max(block, floor) / block of its bandwidth. The
// rebuild's own reads are large (md merges its sequential stripe reads), so they cost their size.

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
    /** The load's request size and the disks' per-request floor, bytes (null: requests cost their size). */
    loadBlockBytes?: number;
    requestFloorBytes?: number | null;
}

/** Bandwidth a load request costs per byte it reads: 1, or more on a seek-bound disk. */
export function requestCostFactor(blockBytes: number | undefined, floorBytes: number | null | undefined): number {
    if (!floorBytes || !blockBytes) return 1;
    return Math.max(blockBytes, floorBytes) / blockBytes;
}

/** Rebuild rate per member, MB/s, that the disks allow next to the load. */
export function rebuildLimitMBs(input: LimitInput): number {
    const { members, readMBs, writeMBs, loadMBs, loadBlockBytes, requestFloorBytes } = input;
    const loadCost = loadMBs * survivorLoadShare(members) * requestCostFactor(loadBlockBytes, requestFloorBytes);
    return Math.max(0, Math.min(writeMBs, readMBs - loadCost));
}
