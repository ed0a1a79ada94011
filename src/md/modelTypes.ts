// SPDX-License-Identifier: LGPL-2.1-or-later
// The model's shape: what one refresh of the host is, as every view, plan and diagnosis reads it.
// Types and the few facts derived from them only; src/md/model.ts builds it from a snapshot.

import type { PausedCheck } from './alerts/pausedChecks';
import type { ArmedRestore } from './autoRestore';
import type { SyncHistory } from './history';
import type { BackgroundJob } from './diagnosis/backgroundJobs';
import type { ProgressSample, Relearning, SmoothedEta, SyncLimits } from './eta';
import type { Journal } from './journal';
import type { PlanRecord } from './planRecord';
import type { RepairFlowRecord } from './repairFlowRecord';
import type { DiskStats, LocalOrSystem, MemInfo, SpeedLimit } from './sysfs';
import type { TrendSample } from './trend';


export type ArrayHealth = 'clean' | 'degraded' | 'failed' | 'inactive' | 'read-only';
export type MemberRole = 'active' | 'rebuilding' | 'spare' | 'faulty' | 'journal' | 'replacement';
export type SyncAction = 'resync' | 'recover' | 'check' | 'repair' | 'reshape';
export type SyncRunState = 'running' | 'delayed' | 'pending' | 'frozen';

export interface MemberModel {
    name: string;
    /** The whole disk the member lives on (itself when it is not a partition). */
    disk: string;
    descriptor: number | null;
    slot: number | null;
    role: MemberRole;
    writeMostly: boolean;
    /** Raw sysfs state words (in_sync, blocked, write_error, want_replacement...). */
    states: string[];
    errors: number | null;
    /** Per-member rebuild position in 512-byte sectors, while it is being rebuilt. */
    recoveryStartSectors: number | null;
    /** Where the member starts on its disk (512-byte sectors): the partition's start, 0 for a whole device. */
    startSectors: number | null;
    /** md's data offset on the member (dev-X/offset, 512-byte sectors): where the array's data begins. */
    dataOffsetSectors: number | null;
}

/** Why a running sync makes no progress, where the page can tell (src/md/stall.ts). */
export type StallReason =
    /** md waits where sync_max (512-byte sectors) says until it is raised. */
    | { kind: 'sync-max'; sectors: number }
    /** A reshape needs more stripe cache entries than there are. */
    | { kind: 'stripe-cache'; size: number; needed: number };

export interface SyncStall {
    /** When the position was first seen where it still is (the samples' clock, ms). */
    since: number;
    forMs: number;
    reason: StallReason | null;
}

export interface SyncModel {
    action: SyncAction;
    runState: SyncRunState;
    /** Why a PENDING sync does not run. */
    pendingReason: 'auto-read-only' | 'not-started' | null;
    percent: number | null;
    /** KiB done and to do: per member device, except raid10 whose counters span the array. */
    doneKiB: number | null;
    totalKiB: number | null;
    perDevice: boolean;
    speedKiBs: number | null;
    kernelFinishMinutes: number | null;
    eta: SmoothedEta | null;
    history: ProgressSample[];
    /** The effective limits the history was taken under: a change starts it again (src/md/eta.ts). */
    limits: SyncLimits;
    /** Since a change of the limits, until the estimate has measured the new speed. */
    relearning: Relearning | null;
    /** Progress, stripe cache and member disk counters of the last minute, for the diagnosis. */
    ioSamples: IoSample[];
    /** Samples for the speed and progress chart since the page opened (bounded, src/md/trend.ts). */
    trend: TrendSample[];
    reshape: { fromDisks: number; toDisks: number } | null;
    /** For a DELAYED sync: arrays sharing a disk with this one whose sync runs now. */
    waitingFor: string[];
    /** While running: since when the position has been where it is (src/md/stall.ts). */
    unmovedSince: number | null;
    /** The position comes from sync_completed, which md moves in coarse steps, not from mdstat. */
    coarsePosition: boolean;
    /** A running sync that has not moved for a while (src/md/stall.ts); null otherwise. */
    stall: SyncStall | null;
    /** On a lockless bitmap, what md syncs of the device (src/md/llbitmapScope.ts); null otherwise. */
    scope: SyncScope | null;
}

/** What a sync of an array with the lockless bitmap reads and writes, in the sync's units (KiB per device). */
export interface SyncScope {
    /**
     * `written`: the chunks written since the array was created (a rebuild, check or repair);
     * `need-sync`: the chunks marked to resync (a resync md started on its own).
     */
    basis: 'written' | 'need-sync';
    /** The share of the device's chunks in that state, 0 to 1. */
    share: number;
    /** Of them still to sync, KiB. */
    remainingKiB: number;
}

export type BitmapKind = 'internal' | 'file' | 'llbitmap';

export interface ArrayModel {
    name: string;
    device: string;
    health: ArrayHealth;
    arrayState: string | null;
    readOnly: false | 'read-only' | 'auto-read-only';
    level: string | null;
    sizeKiB: number | null;
    metadata: string | null;
    chunkKiB: number | null;
    /** The chunk before a reshape that changes it (chunk_size reads "new (old)"); null otherwise. */
    previousChunkKiB: number | null;
    /** md's layout number (raid10: near and far copies). */
    layout: number | null;
    /** Partitions made on the array itself (md0p1...), with their start in 512-byte sectors. */
    partitions: { name: string; startSectors: number | null }[];
    raidDisks: number | null;
    degradedDevices: number | null;
    missingSlots: number[];
    uuid: string | null;
    /**
     * The write-intent bitmap; null when the array has none. `llbitmap`: the lockless bitmap of
     * kernels since 2025 (md/bitmap_type), which mdadm sets only when it creates the array.
     */
    bitmap: { kind: BitmapKind; chunkKiB: number | null; pagesUsed: number | null; pagesTotal: number | null } | null;
    /** md/bitmap_type lists the lockless bitmap: this kernel has llbitmap (6.18 and later, experimental). */
    llbitmapOffered: boolean;
    consistencyPolicy: string | null;
    members: MemberModel[];
    sync: SyncModel | null;
    /** sync_action reads "frozen": no resync or recovery starts until it is resumed. */
    syncFrozen: boolean;
    /** md/sync_max in 512-byte sectors: a sync waits there; null when it reads "max" (or is absent). */
    syncMaxSectors: number | null;
    speedMin: SpeedLimit | null;
    speedMax: SpeedLimit | null;
    /**
     * md/sync_io_depth (kernels since 2025): the sync I/O md lets be in flight while the array
     * has other I/O; the array's own or the system's. null: not on this kernel (or this level).
     */
    syncIoDepth: LocalOrSystem | null;
    /** Running sync within 5% of the effective maximum: the limit, not the disks, sets the pace. */
    cappedByMax: boolean;
    mismatchCount: number | null;
    /** What mismatchCount counts now (src/md/mismatches.ts); null when there is no count. */
    mismatchMeaning: MismatchMeaning | null;
    stripeCache: { size: number; active: number | null } | null;
    /** md/stripe_size (raid4/5/6, Linux 5.12+): bytes per member in a stripe; null where absent. */
    stripeSizeBytes: number | null;
    groupThreadCount: number | null;
    readAheadKiB: number | null;
    lastSyncAction: string | null;
}

export interface DiskModel {
    name: string;
    rotational: boolean | null;
    scheduler: { current: string | null; available: string[] } | null;
    nrRequests: number | null;
    /** blk-mq's tags per hardware queue (mq/0/nr_tags): nr_requests' ceiling without a scheduler. */
    hwTags: number | null;
    queueDepth: number | null;
    readAheadKiB: number | null;
    /**
     * The World Wide ID the disk reports (SCSI/SATA device/wwid, NVMe wwid): how a udev rule finds it
     * after a reboot.
     */
    wwid: string | null;
    /** The serial number it reports as text (virtio-blk serial, NVMe device/serial); SATA's is inside its wwid. */
    serial: string | null;
    /** The enclosure slot it sits in, where the kernel's ses driver knows one: how to find it in the rack. */
    enclosureSlot: EnclosureSlot | null;
    /**
     * Its by-path address, udev's ID_PATH (the name of its /dev/disk/by-path/ link, such as
     * pci-0000:00:17.0-ata-3.0): the controller and port or bay it hangs on. Null where udev gave
     * none: a host without udev's database (containers), a device path_id knows no path for.
     */
    byPath: string | null;
}

export interface EnclosureSlot {
    /** The enclosure's name in /sys/class/enclosure (its SCSI address, 6:0:16:0). */
    enclosure: string;
    /** The slot's component name there ("Slot 01", "ArrayDevice03", "0"). */
    component: string;
    /** The slot's number (its `slot` file, Linux 4.x and later), when the enclosure gives one. */
    slot: number | null;
    /** Its locate LED (`locate`): on, off, or unknown where the enclosure does not say. */
    locate: boolean | null;
}

export interface HostModel {
    /** Milliseconds (monotonic) when the snapshot was taken. */
    takenAt: number;
    /** /proc/mdstat could be read: the md driver is loaded. */
    mdAvailable: boolean;
    personalities: string[];
    arrays: ArrayModel[];
    /** The dev.raid sysctls; syncIoDepth is null where the kernel has no such sysctl. */
    global: { speedMinKiBs: number | null; speedMaxKiBs: number | null; syncIoDepth: number | null };
    memory: MemInfo | null;
    pageSize: number | null;
    /** What each disk is set to: the same object from one refresh to the next while that stays so. */
    disks: ReadonlyMap<string, DiskModel>;
    /** What each block device has done (/proc/diskstats), apart: it changes at every refresh of a busy disk. */
    diskStats: Map<string, DiskStats>;
    /** Programs known for heavy disk I/O running on the host (candidates when a sync is starved). */
    backgroundJobs: BackgroundJob[];
    /** Original values recorded on the host before raidtune's first change; null when none. */
    journal: Journal | null;
    /** The settings kept for reboot (sysctl.d file, udev rule), as the files say. */
    persisted: PersistedSettings;
    /** Arrays with an automatic restore armed on the host, and the history their waiters kept. */
    autoRestore: Map<string, ArmedRestore>;
    /** The limits an open check window replaced (written back at its end) and wrote; null: none. */
    windowLimitsInForce: OpenWindowLimits | null;
    /** The sync operations the host's recorder kept, per array (src/md/history.ts). */
    history: SyncHistory;
    /** The plan being applied, or one cut short (src/md/planRecord.ts); null when none. */
    planRecord: PlanRecord | null;
    /** Each array's guided "repair, then check again" under way (src/md/repairFlow.ts). */
    repairFlows: Map<string, RepairFlowRecord>;
    /** The checks raidtune's check window paused, and why one waits (src/md/alerts/pausedChecks.ts). */
    pausedChecks: PausedCheck[];
    /** systemd is PID 1 and systemd-run exists: the waiter runs as a transient unit. */
    systemd: boolean;
    problems: string[];
}

/** The limits of an open check window (src/md/alerts/ownWindow.ts): what its end writes back, and what it wrote. */
export interface OpenWindowLimits {
    /** ("path", value before the window), in the order its end writes them. */
    before: [string, string][];
    /** path -> the value the window wrote; null where its start did not say (an older version's). */
    held: ReadonlyMap<string, string> | null;
}

/**
 * A sync this close to its maximum is held there by md's throttle. md sleeps whenever it runs ahead
 * of the maximum, so a capped sync's rate hovers just under it, and a diagnosis window of a few
 * samples sees it lower still: 94.7-98% of the maximum on the real kernels (`make bench-rebuild`,
 * nvme-raid10 capped at 5000 KiB/s, Linux 6.1 and 7.3), where 95% missed one capped window in six.
 */
export const CAPPED_SHARE = 0.9;

export type MismatchMeaning =
    /** Found so far by the check or repair that runs (or is paused) now. */
    | 'check-so-far' | 'repair-so-far'
    /** Found by the last check; found and rewritten by the last repair. */
    | 'check' | 'repair'
    /** A resync, recovery or reshape runs, or ran last: the count says nothing about the data. */
    | 'during-sync' | 'after-sync'
    /** The kernel does not say which sync ran last. */
    | 'unknown';

export interface MemberCounters {
    member: string;
    /** The whole disk: md judges a member busy by its disk's counters, partitions included. */
    disk: string;
    role: MemberRole;
    /** Sectors read plus written since boot. */
    sectors: number;
    /** /proc/diskstats "time spent doing I/O" (ms the disk had requests in flight). */
    ioMs: number;
}

export interface IoSample {
    /** Milliseconds (monotonic), as ProgressSample.at. */
    at: number;
    /** Per-device KiB done (the mdstat counter). */
    doneKiB: number;
    stripeCacheActive: number | null;
    stripeCacheSize: number | null;
    /** The array's effective sync_speed_min/max, KiB/s. */
    minKiBs: number | null;
    maxKiBs: number | null;
    members: MemberCounters[];
    /**
     * The other arrays on partitions of the member disks (RHEL's /boot, / and data on the same
     * disks): md counts their I/O against this sync, since it judges the whole disk. Read plus
     * written sectors of each one's md device since boot.
     */
    siblings: { array: string; sectors: number }[];
}

/**
 * How a rule finds its device at boot. Arrays by UUID (stable), or by kernel name where the UUID is
 * unusable; disks by the WWID they report (stable), or by kernel name (which can change when
 * disks are added or moved: the rule says so).
 */
export type RuleMatch =
    | { by: 'uuid'; uuid: string }
    | { by: 'name'; name: string }
    | { by: 'wwid'; wwid: string }
    | { by: 'disk-name'; name: string };

export interface UdevRule {
    match: RuleMatch;
    /** Attribute (relative to /sys/block/NAME/) and value, in file order: ["md/stripe_cache_size", "8192"]. */
    attributes: [string, string][];
}

/** What the files kept for reboot say; null when a file does not exist. */
export interface PersistedSettings {
    sysctl: { text: string; values: Map<string, string> } | null;
    udev: { text: string; rules: UdevRule[] } | null;
    modulesLoad: { text: string } | null;
}

/** The limits that apply to an array: its own when set locally, else the global sysctl. */
export function effectiveLimits(array: ArrayModel,
    host: HostModel): { minKiBs: number | null; maxKiBs: number | null } {
    return {
        minKiBs: array.speedMin?.kiBs ?? host.global.speedMinKiBs,
        maxKiBs: array.speedMax?.kiBs ?? host.global.speedMaxKiBs,
    };
}
