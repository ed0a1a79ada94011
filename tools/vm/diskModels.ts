// SPDX-License-Identifier: LGPL-2.1-or-later
// The disk models of `make bench-rebuild`: QEMU's own block throttling made to behave like the
// seeds' disks, scaled down because the emulated CPU (TCG) cannot rebuild at real disk speeds.
// Pure: the figures and the -drive options, no QEMU here (tools/vm/vm.ts applies them).
//
// Scale: every speed the benchmark writes or compares is the real figure times the model's
// `scale`: the disks' rates, the competing load, the kernel's default limits and the presets' and
// the diagnosis' speed limits (written scaled), so the predictions, made from scaled samples, come
// out scaled too. Stripe cache entries and sync_io_depth are counts, never scaled.
import { KERNEL_DEFAULT_SPEED_MAX, KERNEL_DEFAULT_SPEED_MIN } from '../../src/md/settings/registry';
import type { DiskThrottle, SeekingDisks } from './vm';
import { HDD_7200, type SeekingDiskFigures } from './seekModel';

export type ModelName = 'hdd' | 'hdd-seek' | 'hdd-seek-ncq' | 'nvme';

export interface DiskModel {
    name: ModelName;
    /** Real figure x scale = the emulated one. */
    scale: number;
    /** The real disk's sequential rate, MB/s (10^6 bytes). */
    realMBs: number;
    /**
     * Every request costs at least this many bytes of the disk's bandwidth (QEMU iops-size with
     * iops = bandwidth / iops-size): a seek-bound disk, where small requests cost more than their
     * size. Null: requests cost their size only.
     */
    requestFloorBytes: number | null;
    /**
     * The seeking disk model (tools/vm/seekModel.ts, served by tools/vm/nbdDisk.ts) instead of QEMU's
     * throttling: each request charged by where the head is. Null: throttled.
     */
    seeking: { figures: SeekingDiskFigures; ncqWindow: number } | null;
}

export const DISK_MODELS: Record<ModelName, DiskModel> = {
    // A 7200 rpm SATA disk: 160 MB/s sequential. Its seek (~8 ms) would cost ~1.3 MB of transfer
    // at that rate; a QEMU bucket cannot tell a sequential request from a random one, so the
    // floor is 64 KiB: a 4 KiB read costs 16 times its size, a 512 KiB one its size.
    hdd: { name: 'hdd', scale: 0.05, realMBs: 160, requestFloorBytes: 64 * 1024, seeking: null },
    // The same disk with a head (issue #38): a seek and half a turn wherever a request does not
    // follow the last one, one request at a time (no command queueing).
    // As a SATA disk with NCQ off (queue_depth 1: the common tip for faster rebuilds).
    'hdd-seek': { name: 'hdd-seek', scale: 0.05, realMBs: 160, requestFloorBytes: null, seeking: { figures: HDD_7200, ncqWindow: 1 } },
    // NCQ on (queue_depth 32, the kernel's default): the disk serves, of the requests it holds,
    // the one its head reaches first (QEMU keeps at most 16 in flight, so 16 in effect).
    'hdd-seek-ncq': { name: 'hdd-seek-ncq', scale: 0.05, realMBs: 160, requestFloorBytes: null, seeking: { figures: HDD_7200, ncqWindow: 32 } },
    // An NVMe SSD at 1000 MB/s: the kernel's default maximum (200000 KiB/s) is the cap.
    nvme: { name: 'nvme', scale: 0.025, realMBs: 1000, requestFloorBytes: null, seeking: null },
};

const MB = 1e6;

/** Each member's read and write bandwidth as emulated, MB/s. */
export function modelMBs(model: DiskModel): number {
    return model.realMBs * model.scale;
}

/** How the guest's disks get the model: QEMU's throttling, or the seeking disk servers. */
export function modelDiskOptions(model: DiskModel): { diskThrottle: DiskThrottle } | { seekingDisks: SeekingDisks } {
    return model.seeking
        ? { seekingDisks: { figures: model.seeking.figures, scale: model.scale, ncqWindow: model.seeking.ncqWindow } }
        : { diskThrottle: modelThrottle(model) };
}

/** The QEMU throttling of one member disk. */
export function modelThrottle(model: DiskModel): DiskThrottle {
    const bps = modelMBs(model) * MB;
    const throttle: DiskThrottle = { 'bps-read': bps, 'bps-write': bps };
    if (model.requestFloorBytes !== null) {
        throttle['iops-total'] = bps / model.requestFloorBytes;
        throttle['iops-size'] = model.requestFloorBytes;
    }
    return throttle;
}

/** A speed in KiB/s (md's unit), scaled and rounded to a whole KiB/s md accepts (at least 1). */
export function scaledKiBs(model: DiskModel, realKiBs: number): number {
    return Math.max(1, Math.round(realKiBs * model.scale));
}

/** The kernel's default limits, scaled: what the benchmark writes as "kernel defaults". */
export function scaledDefaults(model: DiskModel): { minKiBs: number; maxKiBs: number } {
    return {
        minKiBs: scaledKiBs(model, KERNEL_DEFAULT_SPEED_MIN),
        maxKiBs: scaledKiBs(model, KERNEL_DEFAULT_SPEED_MAX),
    };
}
