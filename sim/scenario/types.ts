// SPDX-License-Identifier: LGPL-2.1-or-later
// The scenario file format (JSON). A scenario describes one host: its disks, its md arrays and
// what is happening on them at time zero. sim/README.md documents every field with examples;
// validate.ts enforces it. Sizes are bytes for disks, KiB for md quantities (as md prints them),
// speeds KiB/s (as the kernel's sync limits).

export const LEVELS = ['linear', 'raid0', 'raid1', 'raid4', 'raid5', 'raid6', 'raid10'] as const;
export type Level = typeof LEVELS[number];

export const BITMAP_KINDS = ['bitmap', 'llbitmap'] as const;
export const SYNC_ACTIONS = ['resync', 'recover', 'check', 'repair', 'reshape'] as const;
export type SyncAction = typeof SYNC_ACTIONS[number];

export const DISK_KINDS = ['sata', 'sas', 'nvme', 'virtio'] as const;
export type DiskKind = typeof DISK_KINDS[number];
export const DEFAULT_DISK_KIND: DiskKind = 'sata';

export const ARRAY_STATES = ['clean', 'active', 'read-auto', 'readonly', 'inactive', 'write-pending'] as const;
export type ArrayStateName = typeof ARRAY_STATES[number];

export const MEMBER_ROLES = ['in_sync', 'recovering', 'spare', 'faulty'] as const;
export type MemberRole = typeof MEMBER_ROLES[number];

/**
 * Signatures wipefs finds (blkid's names) that a scenario may leave on a disk or partition: a
 * filesystem, swap, an LVM or LUKS header, an md superblock of an array no longer there.
 */
export const SIGNATURE_TYPES = ['ext4', 'xfs', 'btrfs', 'swap', 'LVM2_member', 'crypto_LUKS', 'linux_raid_member'] as const;
export type SignatureType = typeof SIGNATURE_TYPES[number];

/** A type alone, or with the uuid and label blkid would read (an old member's array uuid, say). */
export type SignatureSpec = SignatureType | { type: SignatureType; uuid?: string; label?: string };

/** Member flags shown in dev-X/state besides the role (kernel spelling). */
export const MEMBER_FLAGS = ['write_mostly', 'blocked', 'write_error', 'want_replacement', 'replacement', 'failfast'] as const;
export type MemberFlag = typeof MEMBER_FLAGS[number];

export interface ScenarioSpec {
    name: string;
    description?: string;
    kernel?: KernelSpec;
    memory?: MemorySpec;
    /** Random variation of sync speed per tick, as a fraction (0.03 = +-3%). Default 0. */
    jitter?: number;
    disks?: DiskSpec[];
    arrays?: ArraySpec[];
    /** Families of identical arrays, each on its own freshly named disks (see expand.ts). */
    generate?: ArrayFamilySpec[];
}

export interface KernelSpec {
    /** Names shown on the mdstat "Personalities" line. Default: Debian's seven. */
    personalities?: string[];
    /** /proc/sys/dev/raid/speed_limit_min, KiB/s per device. Default 1000. */
    speedLimitMin?: number;
    /** /proc/sys/dev/raid/speed_limit_max. Default 200000. */
    speedLimitMax?: number;
    /** /proc/sys/dev/raid/sync_io_depth (2025+ kernels). Absent unless given. */
    syncIoDepth?: number;
    /**
     * The bitmap kinds md/bitmap_type lists besides none (2025+ kernels: ["bitmap"], with the
     * lockless bitmap ["bitmap", "llbitmap"]). Given, md/bitmap_type exists and bitmap/ is there
     * only while an array has a classic bitmap (Linux 7.x); absent, the kernel is 6.1-like.
     */
    bitmapTypes?: BitmapKindName[];
    /**
     * Attributes this kernel does not have, by their path under a device's /sys/block/NAME/
     * ("md/group_thread_cnt", "mq/0/nr_tags"): left out of every device, as an older kernel does.
     */
    lacks?: string[];
    /** Bytes. Default 4096. */
    pageSize?: number;
}

export interface MemorySpec {
    totalKiB: number;
    /** MemAvailable before the stripe caches are taken off. Default 80% of total. */
    availableKiB?: number;
}

/** Non-sync I/O, in KiB/s, optionally only during [fromSeconds, untilSeconds) of simulated time. */
export interface IoLoadSpec {
    readKiBs?: number;
    writeKiBs?: number;
    fromSeconds?: number;
    untilSeconds?: number;
}

export interface DiskSpec {
    /** sdX for sata/sas, nvmeNnM for nvme, vdX for virtio. */
    name: string;
    /** Default sata. */
    kind?: DiskKind;
    sizeBytes: number;
    /** queue/rotational. Default: false for nvme, true otherwise (QEMU's virtio disks read 1). */
    rotational?: boolean;
    /** Sequential bandwidth a sync can get from this disk, KiB/s. Default by kind. */
    bandwidthKiBs?: number;
    /**
     * A disk whose head must seek (physics/speed.ts cacheBoundShare): a parity array's sync on it is
     * bound by the stripe cache too. Default false: the bandwidth-only model.
     */
    seeks?: boolean;
    /** I/O scheduler in use ("none" or one of `schedulers`). Default: mq-deadline for sata/sas, else none. */
    scheduler?: string;
    /** Schedulers the kernel offers besides "none". Default ["mq-deadline"]. */
    schedulers?: string[];
    readAheadKiB?: number;
    nrRequests?: number;
    /** device/queue_depth (sata/sas only). Default 32 for sata, 128 for sas. */
    queueDepth?: number;
    /** Writes above this are clamped (default 128). */
    queueDepthMax?: number;
    partitions?: PartitionSpec[];
    /** I/O on this disk that is not md's (another partition, a swap file...). */
    backgroundIo?: IoLoadSpec;
    /** queue/logical_block_size: 512 (default) or 4096 (a 4Kn disk). */
    logicalBlockBytes?: number;
    /** queue/physical_block_size: default 4096 for sata/sas (512e disks), the logical size for nvme/virtio. */
    physicalBlockBytes?: number;
    /** What is left on the disk itself (wipefs): a filesystem on the whole disk, say. */
    signatures?: SignatureSpec[];
    /** Where the disk is mounted (lsblk MOUNTPOINTS): in use, so never a candidate. */
    mounted?: string;
}

export interface PartitionSpec {
    number: number;
    /** Default: right after the previous partition (the first starts at 2048). */
    startSector?: number;
    /** Default: the rest of the disk. */
    sizeBytes?: number;
    /** What is left on the partition (an md superblock of an array it left, a filesystem...). */
    signatures?: SignatureSpec[];
    mounted?: string;
}

export interface MemberSpec {
    /** A disk or partition name ("sda", "sdb1", "nvme0n1p2"). */
    device: string;
    /** Default in_sync. */
    role?: MemberRole;
    /** Raid slot. Default: the next free slot for in_sync/recovering members, none otherwise. */
    slot?: number;
    /** Descriptor number shown in mdstat's brackets. Default: position in `members`. */
    desc?: number;
    flags?: MemberFlag[];
    errors?: number;
}

export interface SyncSpec {
    action: SyncAction;
    /** Progress, in percent of the per-device total. Give this or doneKiB. */
    donePercent?: number;
    /** Progress in the 1 KiB blocks mdstat counts. */
    doneKiB?: number;
    /** Interrupted with `echo frozen > sync_action`. */
    frozen?: boolean;
    /** md/sync_max in 1 KiB blocks (as mdcheck writes it before a check): the sync waits there. */
    syncMaxKiB?: number;
}

export interface ArraySpec {
    /** mdN. */
    name: string;
    level: Level;
    /** "1.2" (default), "1.0", "1.1" or "0.90". */
    metadata?: string;
    /** Default 512 for striped levels, 0 for raid1/linear. */
    chunkKiB?: number;
    layout?: number;
    /** raid10 near copies. Default 2. */
    nearCopies?: number;
    /** Default: number of members with a slot (counting `missing` slots of a degraded array via this). */
    raidDisks?: number;
    /** Usable size per member. Default: derived from the smallest member device. */
    componentSizeKiB?: number;
    members: MemberSpec[];
    state?: ArrayStateName;
    bitmap?: BitmapSpec;
    sync?: SyncSpec;
    /** Required when sync.action is "reshape": the raid_disks before the grow. */
    reshape?: { fromRaidDisks: number };
    /** Local limits (sync_speed_min/max "N (local)"). */
    syncSpeedMin?: number;
    syncSpeedMax?: number;
    /** Local md/sync_io_depth ("N (local)"); needs kernel.syncIoDepth (a kernel that has it). */
    syncIoDepth?: number;
    stripeCacheSize?: number;
    groupThreadCnt?: number;
    readAheadKiB?: number;
    /** Inconsistent sectors a full check would find (and a repair or resync fixes). */
    mismatchSectors?: number;
    /** mismatch_cnt left by an earlier check (a check in progress shows what it found so far instead). */
    mismatchCnt?: number;
    lastSyncAction?: string;
    /** Application I/O on the array: throttles syncs down to the minimum limit. */
    competingIo?: IoLoadSpec;
    uuid?: string;
    /** Partitions made on the array itself (md0p1...), laid out like a disk's; the first starts at 2048. */
    partitions?: PartitionSpec[];
}

export type BitmapKindName = typeof BITMAP_KINDS[number];

export interface BitmapSpec {
    /** md's bitmap kind (md/bitmap_type). Default "bitmap"; "llbitmap" needs it in kernel.bitmapTypes. */
    kind?: BitmapKindName;
    chunkKiB: number;
    /** bitmap/location. Default "+8". */
    location?: string;
    /** Pages in use shown by mdstat. Default: all while syncing, a quarter under writes, else 0. */
    allocatedPages?: number;
    /**
     * llbitmap only: the percent of its chunks written since the array was created (the others are
     * "unwritten", which no sync reads), spread evenly. Default 100.
     */
    writtenPercent?: number;
    /** llbitmap only: the percent marked "need sync" (written while unclean), which a resync syncs. Default 0. */
    needSyncPercent?: number;
}

/** `count` identical arrays, each on `members` new whole disks made from `disk`. */
export interface ArrayFamilySpec {
    count: number;
    /** First md number. Default: one past the highest md number so far. */
    firstNumber?: number;
    members: number;
    /** How many of the last members are spares / faulty / recovering instead of in_sync. */
    spares?: number;
    faulty?: number;
    recovering?: number;
    disk: Omit<DiskSpec, 'name' | 'partitions' | 'signatures' | 'mounted'>;
    array: Omit<ArraySpec, 'name' | 'members'>;
}
