// SPDX-License-Identifier: LGPL-2.1-or-later
// /proc/meminfo, /proc/diskstats and /proc/sys/dev/raid in Linux 6.1's formats. Memory is
// static except that raid4/5/6 stripe caches are taken from free memory into slab, the way
// growing stripe_cache_size really costs page_size * disks * entries.

import { isStarted } from '../model/array';
import { isParityLevel, STRIPE_SIZE_BYTES } from '../model/levels';
import type { HostState, IoStats } from '../model/types';
import { MD_MAJOR } from '../model/devices';
import { WRITABLE_PROC_ATTRIBUTES } from '../writes/attributes';
import type { FileSet } from './files';
import { renderMdstat } from './mdstat';

/**
 * Bytes held by all stripe caches: page_size * nr_disks * stripe_cache_size (md(4)) where the
 * stripe is a page; with 4 KiB stripes on bigger pages the disks' buffers share pages.
 */
export function stripeCacheBytes(state: HostState): number {
    const pageSize = state.kernel.pageSize;
    const disksPerPage = Math.max(1, Math.floor(pageSize / STRIPE_SIZE_BYTES));
    let bytes = 0;
    for (const array of state.arrays)
        if (isStarted(array) && isParityLevel(array.level))
            bytes += pageSize * Math.ceil(array.raidDisks / disksPerPage) * array.stripeCacheSize;
    return bytes;
}

/** "Label:" padded to 16 columns, the number right-aligned to column 24 (or just after a long label). */
function meminfoLine(label: string, value: number, unit = true): string {
    const head = label.length >= 16 ? `${label} ` : label.padEnd(16);
    return `${head}${String(Math.max(0, Math.floor(value))).padStart(Math.max(0, 24 - head.length))}${unit ? ' kB' : ''}`;
}

export function renderMeminfo(state: HostState): string {
    const total = state.memory.totalKiB;
    const stripeKiB = stripeCacheBytes(state) / 1024;
    const available = state.memory.availableKiB - stripeKiB;
    const cached = Math.floor(total * 0.45);
    const buffers = Math.floor(total * 0.02);
    const free = Math.max(0, available - cached - buffers + Math.floor(total * 0.05));
    const sReclaimable = Math.floor(total * 0.03);
    const sUnreclaim = Math.floor(total * 0.008) + stripeKiB;
    const anon = Math.floor(total * 0.15);
    const lines: [string, number, boolean?][] = [
        ['MemTotal:', total], ['MemFree:', free], ['MemAvailable:', available], ['Buffers:', buffers],
        ['Cached:', cached], ['SwapCached:', 0], ['Active:', Math.floor(cached * 0.4) + anon],
        ['Inactive:', Math.floor(cached * 0.6)], ['Active(anon):', anon], ['Inactive(anon):', 0],
        ['Active(file):', Math.floor(cached * 0.4)], ['Inactive(file):', Math.floor(cached * 0.6)],
        ['Unevictable:', 0], ['Mlocked:', 0], ['SwapTotal:', 0], ['SwapFree:', 0], ['Zswap:', 0],
        ['Zswapped:', 0], ['Dirty:', 0], ['Writeback:', 0], ['AnonPages:', anon], ['Mapped:', Math.floor(total * 0.02)],
        ['Shmem:', Math.floor(total * 0.004)], ['KReclaimable:', sReclaimable], ['Slab:', sReclaimable + sUnreclaim],
        ['SReclaimable:', sReclaimable], ['SUnreclaim:', sUnreclaim], ['KernelStack:', 8192], ['PageTables:', Math.floor(total * 0.002)],
        ['NFS_Unstable:', 0], ['Bounce:', 0], ['WritebackTmp:', 0], ['CommitLimit:', Math.floor(total / 2)],
        ['Committed_AS:', Math.floor(total * 0.2)], ['VmallocTotal:', 34359738367], ['VmallocUsed:', 36000],
        ['VmallocChunk:', 0], ['Percpu:', 4096], ['HardwareCorrupted:', 0], ['AnonHugePages:', 0],
        ['ShmemHugePages:', 0], ['ShmemPmdMapped:', 0], ['FileHugePages:', 0], ['FilePmdMapped:', 0],
        ['HugePages_Total:', 0, false], ['HugePages_Free:', 0, false], ['HugePages_Rsvd:', 0, false],
        ['HugePages_Surp:', 0, false], ['Hugepagesize:', 2048], ['Hugetlb:', 0], ['DirectMap4k:', 300000],
        ['DirectMap2M:', Math.floor(total * 0.6)], ['DirectMap1G:', Math.floor(total * 0.4)],
    ];
    return lines.map(([label, value, unit]) => meminfoLine(label, value, unit ?? true)).join('\n') + '\n';
}

/** One diskstats line: "%4d %7d %s" then the 17 counters of Linux 5.5+. */
function diskstatsLine(major: number, minor: number, name: string, s: IoStats): string {
    const counters = [
        s.readIos, s.readMerges, s.readSectors, s.readMs, s.writeIos, s.writeMerges, s.writeSectors, s.writeMs,
        s.inFlight, s.ioTicksMs, s.weightedMs, 0, 0, 0, 0, 0, 0,
    ].map(n => Math.floor(n));
    return `${String(major).padStart(4)} ${String(minor).padStart(7)} ${name} ${counters.join(' ')}`;
}

export function renderDiskstats(state: HostState): string {
    const lines: string[] = [];
    for (const disk of state.disks) {
        lines.push(diskstatsLine(disk.major, disk.minor, disk.name, disk.stats));
        for (const p of disk.partitions) lines.push(diskstatsLine(p.major, p.minor, p.name, p.stats));
    }
    for (const array of state.arrays) lines.push(diskstatsLine(MD_MAJOR, array.minor, array.name, array.stats));
    return lines.length ? lines.join('\n') + '\n' : '';
}

/** The simulated host booted this long before the scenario starts (a fresh-looking uptime would be odd). */
const UPTIME_AT_START_S = 3 * 86400;

/** /proc/uptime: "seconds-up idle-seconds", two decimals, advancing with simulated time. */
export function renderUptime(state: HostState): string {
    const up = UPTIME_AT_START_S + state.time;
    return `${up.toFixed(2)} ${(up * 1.6).toFixed(2)}\n`;
}

export function renderProc(files: FileSet, state: HostState): void {
    const writable = (name: string) => WRITABLE_PROC_ATTRIBUTES.includes(name);
    files.file('proc/mdstat', renderMdstat(state));
    files.file('proc/meminfo', renderMeminfo(state));
    files.file('proc/uptime', renderUptime(state));
    files.file('proc/diskstats', renderDiskstats(state));
    const raid = 'proc/sys/dev/raid';
    files.attribute(`${raid}/speed_limit_min`, state.kernel.speedLimitMin, writable('speed_limit_min'));
    files.attribute(`${raid}/speed_limit_max`, state.kernel.speedLimitMax, writable('speed_limit_max'));
    if (state.kernel.syncIoDepth !== null) files.attribute(`${raid}/sync_io_depth`, state.kernel.syncIoDepth, writable('sync_io_depth'));
}
