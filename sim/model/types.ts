// SPDX-License-Identifier: LGPL-2.1-or-later
// The simulated host's live state: what the kernel keeps in memory. The kernel-format writers
// (sim/kernel/) only read it; the physics (sim/physics/) and the attribute writes (sim/writes/)
// change it. Positions are 512-byte sectors, speeds KiB/s, times seconds since the host started.

import type { ArrayStateName, BitmapKindName, DiskKind, Level, MemberFlag, SyncAction } from '../scenario/types';

export interface HostState {
    /** Simulated seconds since the host was created. */
    time: number;
    kernel: KernelTunables;
    memory: { totalKiB: number; availableKiB: number };
    personalities: string[];
    /** Fraction of random speed variation per tick. */
    jitter: number;
    /** In registration order (the order of /proc/diskstats). */
    disks: Disk[];
    /** In creation order; /proc/mdstat lists them newest first like the kernel. */
    arrays: MdArray[];
}

export interface KernelTunables {
    speedLimitMin: number;
    speedLimitMax: number;
    syncIoDepth: number | null;
    /** What md/bitmap_type lists besides none; null: a kernel without the file (6.1). */
    bitmapTypes: BitmapKindName[] | null;
    /** Paths under /sys/block/NAME/ this kernel does not have. */
    lacks: string[];
    pageSize: number;
}

/** Cumulative counters of one /proc/diskstats line, kept fractional and printed floored. */
export interface IoStats {
    readIos: number;
    readMerges: number;
    readSectors: number;
    readMs: number;
    writeIos: number;
    writeMerges: number;
    writeSectors: number;
    writeMs: number;
    inFlight: number;
    ioTicksMs: number;
    weightedMs: number;
}

export interface IoLoad {
    readKiBs: number;
    writeKiBs: number;
    fromSeconds: number;
    untilSeconds: number;
}

export interface BlockQueue {
    readAheadKiB: number;
    /** "none" or one of `schedulers`. */
    scheduler: string;
    schedulers: string[];
    nrRequests: number;
    /** Hardware tag depth: nr_requests with no scheduler, and its ceiling then. */
    hwTags: number;
    rotational: boolean;
}

export interface Disk {
    name: string;
    kind: DiskKind;
    major: number;
    minor: number;
    sizeSectors: number;
    bandwidthKiBs: number;
    /** Its head seeks: a parity sync on it is bound by the stripe cache (physics/speed.ts). */
    seeks: boolean;
    queue: BlockQueue;
    /** device/queue_depth; null where the kernel has none (nvme, virtio-blk). */
    queueDepth: { value: number; max: number } | null;
    partitions: Partition[];
    backgroundIo: IoLoad | null;
    stats: IoStats;
    /**
     * Its slot in the host's SES enclosure (SAS disks, in their order, from 0), with the slot's locate
     * LED; null for the other kinds, which sit in no enclosure here.
     */
    enclosureSlot: { number: number; locate: boolean } | null;
    /** queue/logical_block_size and queue/physical_block_size, bytes. */
    logicalBlockBytes: number;
    physicalBlockBytes: number;
    /** The partition table (its signatures are derived from it: see sim/blockdev/signatures.ts); null when none. */
    table: PartitionTable | null;
    /** What else wipefs finds on the whole disk: an md superblock, a filesystem... */
    signatures: Signature[];
    /** Where it is mounted; null when it is not. */
    mountpoint: string | null;
    /**
     * Partitions' signatures left on the platter when their table went (wipefs of the disk only): a
     * new partition starting at the same sector finds them again, as on a real disk.
     */
    leftovers: { startSector: number; signatures: Signature[] }[];
}

/** A signature as blkid reports it; offset in bytes from the device's start. */
export interface Signature {
    type: string;
    offset: number;
    uuid: string | null;
    label: string | null;
}

/** The disk label sfdisk writes and dumps; LBAs in the disk's logical blocks. */
export interface PartitionTable {
    label: 'gpt' | 'dos';
    /** GPT: the disk GUID (upper case); dos: "0x" and 8 hex digits. */
    id: string;
    firstLba: number;
    lastLba: number;
}

/** A partition as sysfs lists it under its device: /sys/block/DEV/NAME/{partition,start,size}. */
export interface PartitionPlace {
    name: string;
    number: number;
    startSector: number;
    sizeSectors: number;
}

export interface Partition {
    name: string;
    number: number;
    major: number;
    minor: number;
    startSector: number;
    sizeSectors: number;
    disk: Disk;
    stats: IoStats;
    /** GPT type GUID (upper case) or dos type code ("fd"). */
    typeId: string;
    /** GPT partition GUID (upper case); null on dos. */
    uuid: string | null;
    signatures: Signature[];
    mountpoint: string | null;
}

/** What an md member sits on. */
export type MemberDevice = { kind: 'disk'; disk: Disk } | { kind: 'partition'; partition: Partition };

export interface Member {
    name: string;
    device: MemberDevice;
    /** The physical disk: arrays sharing one sync one at a time. */
    disk: Disk;
    desc: number;
    /** Raid slot, or null ("none": spare or faulty). */
    slot: number | null;
    inSync: boolean;
    faulty: boolean;
    flags: Set<MemberFlag>;
    /** rdev->recovery_offset in sectors; null is MaxSector ("none"). */
    recoveryOffset: number | null;
    errors: number;
    /** rdev->data_offset in sectors (sysfs dev-X/offset): where the array's data begins on the device. */
    dataOffset: number;
}

export interface Bitmap {
    kind: BitmapKindName;
    chunkBytes: number;
    location: string;
    allocatedPages: number | null;
    /** llbitmap: the shares of chunks written and marked "need sync" (0 to 1), each spread evenly. */
    writtenShare: number;
    needSyncShare: number;
}

export interface MdArray {
    name: string;
    minor: number;
    level: Level;
    metadata: string;
    chunkKiB: number;
    layout: number;
    nearCopies: number;
    uuid: string;
    /** raid_disks; during a reshape the new count. */
    raidDisks: number;
    /** Per-member data size (dev_sectors). */
    componentSectors: number;
    /** In the order they were added; mdstat lists them newest first. */
    members: Member[];
    /** The state before writes are taken into account ("active" is shown while writes run). */
    baseState: ArrayStateName;
    bitmap: Bitmap | null;
    /** md keeps bitmap/chunksize after the bitmap is removed (checked on 6.1): the last chunk size. */
    removedBitmapChunkBytes?: number;
    localSpeedMin: number | null;
    localSpeedMax: number | null;
    /**
     * md/sync_io_depth's own value (null: follows the sysctl). The kernel keeps kstrtouint's result
     * in an int, so a value written above INT_MAX is held (and read) negative.
     */
    localSyncIoDepth: number | null;
    stripeCacheSize: number;
    groupThreadCnt: number;
    queue: BlockQueue;
    /** recovery_cp: where a needed resync resumes; null when none is needed. */
    resyncCheckpoint: number | null;
    /** resync_min: where a requested check/repair resumes after an interruption. */
    requestedStart: number;
    /** resync_max (md/sync_max), sectors: a running sync waits there until it is raised; null reads "max". */
    syncMax: number | null;
    /** A grow in progress or pending: the raid_disks it started from, and the per-device checkpoint. */
    reshape: { fromRaidDisks: number; checkpoint: number } | null;
    /** sync_action "frozen": nothing is started or resumed. */
    frozen: boolean;
    /** A check or repair asked for through sync_action, not started yet or running. */
    requested: 'check' | 'repair' | null;
    sync: SyncRun | null;
    lastSyncAction: string;
    /** Sectors a full check would still find inconsistent. */
    latentMismatchSectors: number;
    /** Mismatches counted by the running or last check/repair (fractional; shown in coarse units). */
    mismatchesFound: number;
    competingIo: IoLoad | null;
    stats: IoStats;
    /** Partitions made on the array (md0p1...). */
    partitions: PartitionPlace[];
}

/** One md_do_sync run, running or waiting for arrays sharing its disks (resync=DELAYED). */
export interface SyncRun {
    action: SyncAction;
    status: 'delayed' | 'running';
    /** When it asked to run: the longest waiting starts first. */
    requestedAt: number;
    /** curr_resync, in the sync's own sector space (see syncTotalSectors). */
    position: number;
    total: number;
    /** curr_resync_completed: the coarse checkpoint sysfs sync_completed shows. */
    completed: number;
    lastCheckpointAt: number;
    /** The kernel's speed marks (every 3 s, last ~30 s) that speed= and sync_speed average over. */
    marks: { time: number; position: number }[];
    /** Last computed speed in the sync's sector space, KiB/s: the sync I/O, what speed= shows. */
    rateKiBs: number;
    /**
     * The share of the range the sync reads and writes (1 but on the lockless bitmap, whose unwritten
     * chunks md passes without I/O): the position moves at rateKiBs / ioShare.
     */
    ioShare: number;
}
