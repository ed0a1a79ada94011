// SPDX-License-Identifier: LGPL-2.1-or-later
// Presets like NAS appliances offer: one choice that sets the system rebuild speed limits, puts
// every array back on them, and sizes the RAID4/5/6 stripe caches. A preset is only a plan built
// from the model, so it is previewed, recorded for "Restore previous settings" and undone like any
// other change.

import { formatKiB, KIB_PER_MIB } from '../format';
import { msg, N_, type Message } from '../message';
import type { ArrayModel, HostModel } from '../modelTypes';
import { withoutNoOps, type WriteAttributeStep } from '../plan';
import {
    ARRAY_SETTINGS, GLOBAL_SETTINGS, KERNEL_DEFAULT_SPEED_MAX, KERNEL_DEFAULT_SPEED_MIN, KERNEL_DEFAULT_SYNC_IO_DEPTH,
    STRIPE_CACHE_DEFAULT,
} from '../settings/registry';
import { deviceStep, globalStep } from '../settings/steps';
import type { PlanResult } from './result';
import {
    memoryVerdict, reshapeStripeCacheMin, STRIPE_CACHE_MEMORY, stripeCacheBytes, stripeCacheUnavailable,
} from './stripeCache';

export type PresetName = 'low-impact' | 'balanced' | 'fast-rebuild';

export interface Preset {
    /** dev.raid.speed_limit_min and _max, KiB/s per member disk. */
    speedMinKiBs: number;
    speedMaxKiBs: number;
    /** Stripe cache entries of every RAID4/5/6 array; fewer when the memory budget does not allow it. */
    stripeCacheEntries: number;
    /**
     * dev.raid.sync_io_depth, every array back on it, where the kernel has it; null: left as it is.
     * md_do_sync() applies the depth only while a sync runs above the minimum and below the maximum
     * AND the array has other I/O (settings/registry.ts). Balanced and Fast rebuild act on the two ends,
     * the floor under other I/O (below the minimum md never waits) and the ceiling when idle (no
     * depth applies then): neither is where the depth acts, and no measurement says which depth
     * would serve the middle better than the kernel's, so they leave it alone.
     */
    syncIoDepth: number | null;
    title: string;
}

export const PRESET_NAMES: readonly PresetName[] = ['low-impact', 'balanced', 'fast-rebuild'];

export const PRESETS: Record<PresetName, Preset> = {
    // The kernel's own defaults: above 1000 KiB/s per disk a rebuild gives way to other I/O (on
    // Linux 6.1 it waits for its own I/O in flight, on 7.x it also keeps at most sync_io_depth of
    // it in flight), and the stripe caches give their memory back.
    'low-impact': {
        speedMinKiBs: KERNEL_DEFAULT_SPEED_MIN, speedMaxKiBs: KERNEL_DEFAULT_SPEED_MAX,
        stripeCacheEntries: STRIPE_CACHE_DEFAULT,
        syncIoDepth: KERNEL_DEFAULT_SYNC_IO_DEPTH,
        title: N_('Apply the preset “Low impact”'),
    },
    // A minimum of 10 MiB/s (10240 KiB/s), about the 10000 KiB/s Synology ships: round in the unit
    // the page shows, as are Fast rebuild's figures. The 2009 kernel of the guide admins still
    // quote slept at the minimum under other I/O, so there it made a 23-day rebuild a 2.3-day one;
    // on Linux 6.1 and 7.3 `make bench-rebuild` saw no rebuild held near the minimum on disks
    // without heads (hdd-raid6-load), and on disks that seek the stripe cache, not the minimum,
    // was the lever. 4096 entries: what gave that gain on the seeking disks (+50% idle, x3 to x67
    // under other I/O; doc/benchmarks.md).
    'balanced': {
        speedMinKiBs: 10 * KIB_PER_MIB, speedMaxKiBs: KERNEL_DEFAULT_SPEED_MAX,
        stripeCacheEntries: 4096, syncIoDepth: null,
        title: N_('Apply the preset “Balanced”'),
    },
    // A minimum of 50 MiB/s: a third to a half of what a SATA disk streams (130-200 MB/s on its
    // data sheet), so other I/O still gets the rest, and any SSD is faster. The maximum of 2000 MiB/s
    // takes away the kernel's 200000 KiB/s cap (195 MiB/s), which holds back NVMe members: the one change
    // `make bench-rebuild` saw make a rebuild faster on NVMe (case nvme-raid10: 5x; an NVMe RAID10
    // admin reported 4.5x); slower disks simply run at their own speed. 8192 entries: real SATA
    // disks gained up to 16384 on 2012's kernels (50 to 120 MB/s, an admin's RAID5); 8192 takes
    // most of that for half the memory.
    'fast-rebuild': {
        speedMinKiBs: 50 * KIB_PER_MIB, speedMaxKiBs: 2000 * KIB_PER_MIB, stripeCacheEntries: 8192, syncIoDepth: null,
        title: N_('Apply the preset “Fast rebuild”'),
    },
};

/** The global limits, in an order the kernel is never asked for a minimum above the maximum. */
function globalSteps(host: HostModel, preset: Preset): WriteAttributeStep[] {
    const { speedMinKiBs: min, speedMaxKiBs: max } = preset;
    const steps = [globalStep(GLOBAL_SETTINGS.speedMin, host, min), globalStep(GLOBAL_SETTINGS.speedMax, host, max)];
    const ordered = min > host.global.speedMaxKiBs! ? steps.reverse() : steps;
    if (preset.syncIoDepth !== null && host.global.syncIoDepth !== null) {
        ordered.push(globalStep(GLOBAL_SETTINGS.syncIoDepth, host, preset.syncIoDepth));
    }
    return ordered;
}

/**
 * Arrays with their own limits (and depth, when the preset sets one) follow the system ones again:
 * otherwise the preset would not reach them.
 */
function arrayLimitSteps(array: ArrayModel, preset: Preset): WriteAttributeStep[] {
    const steps: WriteAttributeStep[] = [];
    if (array.speedMin) steps.push(deviceStep(ARRAY_SETTINGS.speedMin, array, 'system'));
    if (array.speedMax) steps.push(deviceStep(ARRAY_SETTINGS.speedMax, array, 'system'));
    if (array.syncIoDepth && preset.syncIoDepth !== null) steps.push(deviceStep(ARRAY_SETTINGS.syncIoDepth, array, 'system'));
    return steps;
}

/** The preset's entries for one array: never fewer than its running reshape needs. */
function entriesFor(array: ArrayModel, entries: number): number {
    return Math.max(entries, reshapeStripeCacheMin(array) ?? 0);
}

/** Bytes the stripe caches would take beyond what they take now; null when that cannot be known. */
function extraStripeCacheBytes(host: HostModel, arrays: ArrayModel[], presetEntries: number): number | null {
    let extra = 0;
    for (const array of arrays) {
        const current = array.stripeCache!.size;
        const entries = entriesFor(array, presetEntries);
        if (entries <= current) continue; // shrinking frees memory; it is not counted as room for others
        if (host.pageSize === null || array.raidDisks === null) return null;
        const unit = array.stripeSizeBytes ?? host.pageSize;
        extra += stripeCacheBytes(host.pageSize, array.raidDisks, entries, unit) -
            stripeCacheBytes(host.pageSize, array.raidDisks, current, unit);
    }
    return extra;
}

interface StripeCacheChoice {
    entries: number | null;
    warning: Message | null;
}

/**
 * The preset's stripe cache size, halved until all caches fit within the memory policy's warning share (the kernel
 * default 256 always does). null when growing is needed but its cost cannot be known.
 */
export function presetStripeCacheEntries(host: HostModel, arrays: ArrayModel[], wanted: number): StripeCacheChoice {
    for (let entries = wanted; entries > STRIPE_CACHE_DEFAULT; entries /= 2) {
        const extra = extraStripeCacheBytes(host, arrays, entries);
        if (extra === 0) return { entries, warning: null };
        const verdict = extra === null ? 'unknown' : memoryVerdict(extra, host.memory?.availableKiB);
        if (verdict === 'unknown') {
            return { entries: null, warning: msg(N_('The stripe caches stay as they are: the page size or the available memory is unknown, so their memory cost cannot be checked.')) };
        }
        if (verdict === 'fits') {
            return { entries, warning: entries < wanted ? tooLarge(host, arrays, wanted, entries) : null };
        }
    }
    return {
        entries: STRIPE_CACHE_DEFAULT,
        warning: wanted > STRIPE_CACHE_DEFAULT ? tooLarge(host, arrays, wanted, STRIPE_CACHE_DEFAULT) : null,
    };
}

function tooLarge(host: HostModel, arrays: ArrayModel[], wanted: number, entries: number): Message {
    return msg(N_('Stripe caches of $0 entries instead of $1: $1 would take $2 more memory, over $3% of the available $4.'),
        entries, wanted, formatKiB(extraStripeCacheBytes(host, arrays, wanted)! / 1024),
        Math.round(STRIPE_CACHE_MEMORY.warn * 100),
        formatKiB(host.memory!.availableKiB));
}

function stripeCacheSteps(arrays: ArrayModel[], entries: number): WriteAttributeStep[] {
    return arrays.map(array => deviceStep(ARRAY_SETTINGS.stripeCache, array, entriesFor(array, entries)));
}

function reshapeWarnings(arrays: ArrayModel[], entries: number): Message[] {
    return arrays.filter(array => entriesFor(array, entries) > entries).map(array =>
        msg(N_('$0 gets $1 stripe cache entries: its running reshape needs at least that many.'), array.name, entriesFor(array, entries)));
}

/** What applying the preset would write, without the writes that change nothing. */
export function presetPlan(host: HostModel, name: PresetName): PlanResult<'preset'> {
    const preset = PRESETS[name];
    if (host.global.speedMinKiBs === null || host.global.speedMaxKiBs === null) {
        return { errors: { preset: msg(N_('The system rebuild speed limits are unknown: is the md driver loaded?')) } };
    }
    const parity = host.arrays.filter(a => stripeCacheUnavailable(a) === null);
    const stripeCache = presetStripeCacheEntries(host, parity, preset.stripeCacheEntries);
    const steps = [
        ...globalSteps(host, preset),
        ...host.arrays.flatMap(a => arrayLimitSteps(a, preset)),
        ...(stripeCache.entries === null ? [] : stripeCacheSteps(parity, stripeCache.entries)),
    ];
    const warnings = stripeCache.warning ? [stripeCache.warning] : [];
    if (stripeCache.entries !== null) warnings.push(...reshapeWarnings(parity, stripeCache.entries));
    return { plan: withoutNoOps({ title: msg(preset.title), steps }), warnings };
}
