// SPDX-License-Identifier: LGPL-2.1-or-later
// Every md tunable raidtune reads, changes and keeps, one entry each: where the kernel has it, how
// its file's text parses into the model and which model field holds it, how its live value reads
// back as text, what a step that writes it is called, the whole numbers it may take, what the
// kernel gives it at boot, how "Keep after reboot" keeps it and whether a preset sets it. The gather
// script, the model, the plans, the presets and the kept files read these entries; a new tunable
// is one entry here (plus its model field's type and, at most, its dialog).

import { hasStripeCache } from '../levels';
import { N_ } from '../message';
import type { ArrayModel, DiskModel, HostModel } from '../modelTypes';
import { localOrSystemText, parseIntValue, parseLocalOrSystem, parseScheduler, parseSpeedLimit } from '../sysfs';
import { RATE_MAX_KIBS, RATE_MIN_KIBS } from '../validate';

/** How a kept value is shown: KiB/s (a speed), KiB (a size) or a plain number or word. */
export type SettingUnit = 'kibs' | 'kib' | 'plain';

/** The whole numbers a value typed for a setting may take; null for a choice (the scheduler). */
export interface Bounds {
    min: number;
    max: number;
}

interface SettingBase {
    /** English template of the step's name, "stripe cache size of $0" ($0: the device). */
    label: string;
    unit: SettingUnit;
    bounds: Bounds | null;
    /**
     * What the kernel gives it at boot. null where the kernel computes it per device (read-ahead from
     * the stripe width, queue settings from the driver and scheduler): then the value it had before
     * raidtune's first change, from the restore journal, stands for it.
     */
    bootDefault: string | null;
    /** Whether a preset writes it (src/md/tuning/presets.ts). */
    preset: boolean;
}

/**
 * How "Keep after reboot" (src/md/tuning/persist.ts) keeps it after a reboot: a `key = value` line of
 * the sysctl.d file, or an ATTR{attribute} assignment in the udev rule that matches its array or disk.
 * A sysctl kept `together` is written with the others so marked whenever any of them differs from its
 * boot default (the file then says the whole setting: the speed limits' minimum must stay below the
 * maximum), and all of them must be known. One not kept together is written only where the kernel has
 * it and it differs from its boot default: only some kernels have it, and where it reads null it is
 * left out rather than unknown.
 */
export type KeptHow = { file: 'sysctl.d'; key: string; together: boolean } | { file: 'udev rule' };

/** A dev.raid sysctl under /proc/sys. */
export interface GlobalSetting extends SettingBase {
    scope: 'global';
    /** Where it is read and written, /proc/sys/... */
    path: string;
    /** The HostModel.global field that holds it, and how its file's text reads into that field. */
    field: keyof HostModel['global'];
    parse(text: string | null): number | null;
    kept: KeptHow & { file: 'sysctl.d' };
    live(host: HostModel): number | null;
}

/** What a device setting's parser may read besides its own file: the device's other files, its md level. */
export interface DeviceReading {
    read(attribute: string): string | null;
    level: string | null;
}

/** A file under /sys/block/NAME/ of an array or of a member disk. */
export interface DeviceSetting<Device> extends SettingBase {
    scope: 'array' | 'disk';
    /** Relative to /sys/block/NAME/: "md/stripe_cache_size". */
    attribute: string;
    /** Read at every refresh while a sync runs (a sync changes it), not only at full reads. */
    syncRead: boolean;
    /** The model field that holds it, and how its file's text (null: no such file) reads into that field. */
    field: keyof Device;
    parse(text: string | null, device: DeviceReading): unknown;
    kept: KeptHow & { file: 'udev rule' };
    /** The live value as its file reads, for a step's previous value and the kept files. */
    live(device: Device): string | null;
}

function numberText(n: number | null | undefined): string | null {
    return n === null || n === undefined ? null : String(n);
}

const PROC_DEV_RAID = '/proc/sys/dev/raid';

/** md.c's sysctl_speed_limit_min and _max, KiB/s per member disk. */
export const KERNEL_DEFAULT_SPEED_MIN = 1000;
export const KERNEL_DEFAULT_SPEED_MAX = 200000;
// md.c's sysctl_sync_io_depth (linux 6.16 and later, some distribution kernels by backport): how much
// sync I/O md lets be in flight while the array has other I/O. What md.c does with it:
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
//
// Measured (`make bench-rebuild`, Linux 7.3, case hdd-raid5-depth): under other I/O depths of 4,
// 32, 128 and 256 rebuilt equally fast, and the other I/O's latency grew with the depth (42-45 ms
// at 4 and 32, 105 at 128, 164-228 at 256). So raidtune shows the depth and lets the admin set it,
// and the diagnosis never suggests a larger one.
export const KERNEL_DEFAULT_SYNC_IO_DEPTH = 32;

/**
 * The range raidtune writes. The kernel takes 0 and negative numbers in the sysctl, and then a
 * sync under other I/O waits for its I/O at every look, as before the setting existed: no depth
 * at all, which nobody means by a number. Above 16777215 (2^24-1) depth x 128 sectors overflows
 * the int sync_io_within_limit() compares with; far below that the limit is meaningless anyway.
 */
export const SYNC_IO_DEPTH_MIN = 1;
export const SYNC_IO_DEPTH_MAX = 16777215;

/** raid5.c's raid5_set_cache_size() range, and NR_STRIPES at array start. */
export const STRIPE_CACHE_MIN = 17;
export const STRIPE_CACHE_MAX = 32768;
export const STRIPE_CACHE_DEFAULT = 256;

export const GROUP_THREADS_MIN = 0;
/**
 * The kernel takes up to 8192 per NUMA node, which is nonsense: past a few threads they only
 * contend for the same stripes, and each idle one still costs a kernel thread and wakeups. 32 is
 * far beyond any gain reported, yet leaves room for big many-core machines.
 */
export const GROUP_THREADS_MAX = 32;

/** 0 turns read-ahead off, which is a legitimate choice for purely random I/O. */
export const READ_AHEAD_MIN_KIB = 0;
/**
 * 64 MiB (setra 131072): twice the largest value the how-tos give. The kernel takes up to 4 TiB,
 * but every sequential reader may then fill that much page cache ahead of itself for no measured gain.
 */
export const READ_AHEAD_MAX_KIB = 65536;

/**
 * 1 turns NCQ off. 0 and 1024+ are EINVAL; in between the kernel keeps at most what the device
 * queues (128 on virtio-scsi, 32 on SATA) and the read-back reports it. 128 is the most any of them took.
 */
export const QUEUE_DEPTH_MIN = 1;
export const QUEUE_DEPTH_MAX = 128;
/**
 * BLKDEV_MIN_RQ: the kernel silently turns 1..3 into 4, so raidtune does not offer them. The
 * maximum is MAX_SCHED_RQ, the most a scheduler takes; without one the hardware queue's tags are
 * the limit (nrRequestsMax() in src/md/tuning/diskQueue.ts).
 */
export const NR_REQUESTS_MIN = 4;
export const NR_REQUESTS_MAX = 2048;

const RATE: Bounds = { min: RATE_MIN_KIBS, max: RATE_MAX_KIBS };

const KEPT_TOGETHER = (key: string) => ({ file: 'sysctl.d', key, together: true }) as const;
const UDEV_RULE = { file: 'udev rule' } as const;

export const GLOBAL_SETTINGS = {
    speedMin: {
        scope: 'global', path: `${PROC_DEV_RAID}/speed_limit_min`, field: 'speedMinKiBs', parse: parseIntValue,
        label: N_('system minimum rebuild speed'), unit: 'kibs', bounds: RATE,
        bootDefault: String(KERNEL_DEFAULT_SPEED_MIN), preset: true, kept: KEPT_TOGETHER('dev.raid.speed_limit_min'),
        live: h => h.global.speedMinKiBs,
    },
    speedMax: {
        scope: 'global', path: `${PROC_DEV_RAID}/speed_limit_max`, field: 'speedMaxKiBs', parse: parseIntValue,
        label: N_('system maximum rebuild speed'), unit: 'kibs', bounds: RATE,
        bootDefault: String(KERNEL_DEFAULT_SPEED_MAX), preset: true, kept: KEPT_TOGETHER('dev.raid.speed_limit_max'),
        live: h => h.global.speedMaxKiBs,
    },
    // Linux 6.16 and later (some distribution kernels by backport).
    syncIoDepth: {
        scope: 'global', path: `${PROC_DEV_RAID}/sync_io_depth`, field: 'syncIoDepth', parse: parseIntValue,
        label: N_('system sync I/O depth'), unit: 'plain', bounds: { min: SYNC_IO_DEPTH_MIN, max: SYNC_IO_DEPTH_MAX },
        bootDefault: String(KERNEL_DEFAULT_SYNC_IO_DEPTH), preset: true,
        kept: { file: 'sysctl.d', key: 'dev.raid.sync_io_depth', together: false },
        live: h => h.global.syncIoDepth,
    },
} as const satisfies Record<string, GlobalSetting>;

/** The stripe cache's size and how many of its stripes are in use; none on levels without one. */
function parseStripeCache(text: string | null, array: DeviceReading): ArrayModel['stripeCache'] {
    const size = hasStripeCache(array.level) ? parseIntValue(text) : null;
    return size === null ? null : { size, active: parseIntValue(array.read('md/stripe_cache_active')) };
}

/** In the order a rule writes them. */
export const ARRAY_SETTINGS = {
    speedMin: {
        scope: 'array', attribute: 'md/sync_speed_min', field: 'speedMin', parse: parseSpeedLimit,
        label: N_('minimum sync speed of $0'), unit: 'kibs', bounds: RATE, bootDefault: 'system', preset: true,
        syncRead: true, kept: UDEV_RULE, live: (a: ArrayModel) => localOrSystemText(a.speedMin),
    },
    speedMax: {
        scope: 'array', attribute: 'md/sync_speed_max', field: 'speedMax', parse: parseSpeedLimit,
        label: N_('maximum sync speed of $0'), unit: 'kibs', bounds: RATE, bootDefault: 'system', preset: true,
        syncRead: true, kept: UDEV_RULE, live: (a: ArrayModel) => localOrSystemText(a.speedMax),
    },
    // Absent (null) on kernels without it: no line. A kept line's TEST== guard skips it on such a kernel.
    syncIoDepth: {
        scope: 'array', attribute: 'md/sync_io_depth', field: 'syncIoDepth', parse: parseLocalOrSystem,
        label: N_('sync I/O depth of $0'), unit: 'plain', bounds: GLOBAL_SETTINGS.syncIoDepth.bounds,
        bootDefault: 'system', preset: true, syncRead: false, kept: UDEV_RULE,
        live: (a: ArrayModel) => localOrSystemText(a.syncIoDepth),
    },
    stripeCache: {
        scope: 'array', attribute: 'md/stripe_cache_size', field: 'stripeCache', parse: parseStripeCache,
        label: N_('stripe cache size of $0'), unit: 'plain', bounds: { min: STRIPE_CACHE_MIN, max: STRIPE_CACHE_MAX },
        bootDefault: String(STRIPE_CACHE_DEFAULT), preset: true, syncRead: false, kept: UDEV_RULE,
        live: (a: ArrayModel) => numberText(a.stripeCache?.size),
    },
    groupThreads: {
        scope: 'array', attribute: 'md/group_thread_cnt', field: 'groupThreadCount', parse: parseIntValue,
        label: N_('worker threads of $0'), unit: 'plain', bounds: { min: GROUP_THREADS_MIN, max: GROUP_THREADS_MAX },
        bootDefault: '0', preset: false, syncRead: false, kept: UDEV_RULE,
        live: (a: ArrayModel) => numberText(a.groupThreadCount),
    },
    readAhead: {
        scope: 'array', attribute: 'queue/read_ahead_kb', field: 'readAheadKiB', parse: parseIntValue,
        label: N_('read-ahead of $0'), unit: 'kib', bounds: { min: READ_AHEAD_MIN_KIB, max: READ_AHEAD_MAX_KIB },
        bootDefault: null, preset: false, syncRead: false, kept: UDEV_RULE,
        live: (a: ArrayModel) => numberText(a.readAheadKiB),
    },
} as const satisfies Record<string, DeviceSetting<ArrayModel>>;

/** In the order a rule writes them: a new scheduler resets nr_requests to its own default. */
export const DISK_SETTINGS = {
    scheduler: {
        scope: 'disk', attribute: 'queue/scheduler', field: 'scheduler', parse: parseScheduler,
        label: N_('I/O scheduler of $0'), unit: 'plain', bounds: null, bootDefault: null, preset: false,
        syncRead: false, kept: UDEV_RULE, live: (d: DiskModel) => d.scheduler?.current ?? null,
    },
    nrRequests: {
        scope: 'disk', attribute: 'queue/nr_requests', field: 'nrRequests', parse: parseIntValue,
        label: N_('nr_requests of $0'), unit: 'plain', bounds: { min: NR_REQUESTS_MIN, max: NR_REQUESTS_MAX },
        bootDefault: null, preset: false, syncRead: false, kept: UDEV_RULE,
        live: (d: DiskModel) => numberText(d.nrRequests),
    },
    queueDepth: {
        scope: 'disk', attribute: 'device/queue_depth', field: 'queueDepth', parse: parseIntValue,
        label: N_('queue depth of $0'), unit: 'plain', bounds: { min: QUEUE_DEPTH_MIN, max: QUEUE_DEPTH_MAX },
        bootDefault: null, preset: false, syncRead: false, kept: UDEV_RULE,
        live: (d: DiskModel) => numberText(d.queueDepth),
    },
} as const satisfies Record<string, DeviceSetting<DiskModel>>;

export type GlobalSettingId = keyof typeof GLOBAL_SETTINGS;
export type ArraySettingId = keyof typeof ARRAY_SETTINGS;
export type DiskSettingId = keyof typeof DISK_SETTINGS;

/** Where a device setting of `device` is written. */
export function settingPath(setting: { attribute: string }, device: string): string {
    return `/sys/block/${device}/${setting.attribute}`;
}

/** Each setting's model field, holding what its parser returns: part of ArrayModel, DiskModel or HostModel.global. */
type SettingValues<S extends Record<string, { field: string; parse(...args: never[]): unknown }>> = {
    -readonly [K in keyof S as S[K]['field']]: ReturnType<S[K]['parse']>;
};

/** The dev.raid sysctls' fields of HostModel.global, each read from its file by its parser. */
export function readGlobalSettings(read: (path: string) => string | null): SettingValues<typeof GLOBAL_SETTINGS> {
    return Object.fromEntries(Object.values(GLOBAL_SETTINGS).map(s => [s.field, s.parse(read(s.path))])) as
        SettingValues<typeof GLOBAL_SETTINGS>;
}

/** A device's settings' model fields, each read from its file by its parser. */
export function readDeviceSettings<S extends Record<string, DeviceSetting<never> & { field: string }>>(settings: S,
    device: DeviceReading): SettingValues<S> {
    return Object.fromEntries(Object.values(settings).map(s => [s.field, s.parse(device.read(s.attribute), device)])) as
        SettingValues<S>;
}
