// SPDX-License-Identifier: LGPL-2.1-or-later
// Tiny, deliberately independent readers of what the guest kernel and mdadm say, so the tests
// compare the page against the kernel and not against raidtune's own parsers (src/md/).
// They understand just the lines the tests need.
import type { GuestControl } from '../../../tools/vm/vm';

export interface MdstatArray {
    name: string;
    /** "raid1", "raid5", "linear", ... (null for an inactive array). */
    level: string | null;
    /** Member names without the [n] descriptor and flags: ["vda", "vdb"]. */
    members: string[];
    /** "[3/2]" -> { total: 3, working: 2 }; null for raid0/linear. */
    disks: { total: number; working: number } | null;
    /** The progress line, when there is one: "resync = 12.6% (123/456) ... speed=384K/sec". */
    progress: { action: string; percent: number; done: number; total: number; speedKiBs: number | null } | null;
    /** A sync that waits: `resync=DELAYED` / `resync=PENDING`. */
    waiting: 'DELAYED' | 'PENDING' | null;
    /** "bitmap: 1/1 pages [4KB], 65536KB chunk" -> 65536. */
    bitmapChunkKiB: number | null;
}

export function parseMdstat(text: string): MdstatArray[] {
    const arrays: MdstatArray[] = [];
    let current: MdstatArray | undefined;
    for (const line of text.split('\n')) {
        const header = line.match(/^(md\S+) : (\S+)(?: \(auto-read-only\))?(?: (raid\d+|linear))? (.*)$/);
        if (header) {
            current = {
                name: header[1],
                level: header[3] ?? null,
                members: header[4].trim().split(/\s+/).map(m => m.replace(/\[\d+\].*$/, '')),
                disks: null,
                progress: null,
                waiting: null,
                bitmapChunkKiB: null,
            };
            arrays.push(current);
            continue;
        }
        if (!current)
            continue;
        const disks = line.match(/ \[(\d+)\/(\d+)\] \[[U_]+\]\s*$/);
        if (disks)
            current.disks = { total: Number(disks[1]), working: Number(disks[2]) };
        const progress = line.match(/\b(resync|recovery|reshape|check|repair)\s*=\s*([\d.]+)%\s*\((\d+)\/(\d+)\)/);
        if (progress) {
            const speed = line.match(/speed=(\d+)K\/sec/);
            current.progress = {
                action: progress[1], percent: Number(progress[2]), done: Number(progress[3]),
                total: Number(progress[4]),
                speedKiBs: speed ? Number(speed[1]) : null,
            };
        }
        const waiting = line.match(/^\s+resync=(DELAYED|PENDING)\s*$/);
        if (waiting)
            current.waiting = waiting[1] as 'DELAYED' | 'PENDING';
        const bitmap = line.match(/^\s+bitmap: .*, (\d+)KB chunk/);
        if (bitmap)
            current.bitmapChunkKiB = Number(bitmap[1]);
    }
    return arrays;
}

export interface MdadmMember {
    /** RaidDevice: the slot, null for spares/faulty ("-"). */
    raidDevice: number | null;
    /** "active sync", "spare rebuilding", "spare", "faulty", "removed" */
    state: string;
    /** null for a "removed" row (an empty slot). */
    device: string | null;
}

export interface MdadmDetail {
    /** "raid1" */
    level: string;
    /** "1.2" */
    version: string;
    raidDevices: number;
    activeDevices: number;
    /** Array Size in KiB. */
    arraySizeKiB: number;
    /** "clean, resyncing" (trimmed) */
    state: string;
    /** "Chunk Size : 512K" -> 512; null when mdadm prints none (raid1, linear). */
    chunkKiB: number | null;
    /** "Intent Bitmap : Internal" -> "Internal"; null when none. */
    intentBitmap: string | null;
    /**
     * "Rebuild Status : 0% complete" and friends, keyed by their first word ("Rebuild", "Reshape",
     * "Check", "Resync").
     */
    status: Record<string, number>;
    /** "Delta Devices : 1, (3->4)" -> { from: 3, to: 4 }. */
    delta: { from: number; to: number } | null;
    /** Member devices from the table at the end: ["/dev/vda", "/dev/vdb"]. */
    devices: string[];
    members: MdadmMember[];
}

export function parseDetail(text: string): MdadmDetail {
    const optional = (name: string) => text.match(new RegExp(`^\\s*${name} : (.*)$`, 'm'))?.[1].trim() ?? null;
    const field = (name: string) => {
        const value = optional(name);
        if (value === null)
            throw new Error(`mdadm --detail has no "${name}":\n${text}`);
        return value;
    };
    const table = text.slice(text.search(/^\s+Number\s+Major\s+Minor\s+RaidDevice State\s*$/m));
    const members = [...table.matchAll(/^\s+(?:\d+|-)\s+\d+\s+\d+\s+(\d+|-)\s+(.*?)\s*$/gm)].map(m => {
        const device = m[2].match(/\s(\/dev\/\S+)$/)?.[1] ?? null;
        return {
            raidDevice: m[1] === '-' ? null : Number(m[1]),
            state: (device ? m[2].slice(0, -device.length) : m[2]).trim(),
            device,
        };
    });
    const status: Record<string, number> = {};
    for (const m of text.matchAll(/^\s*(\w+) Status : (\d+)% complete\s*$/gm))
        status[m[1]] = Number(m[2]);
    const delta = optional('Delta Devices')?.match(/\((\d+)->(\d+)\)/);
    const chunk = optional('Chunk Size')?.match(/^(\d+)K$/);
    return {
        level: field('Raid Level'),
        version: field('Version'),
        raidDevices: Number(field('Raid Devices')),
        activeDevices: Number(field('Active Devices')),
        arraySizeKiB: Number(field('Array Size').split(' ')[0]),
        state: field('State'),
        chunkKiB: chunk ? Number(chunk[1]) : null,
        intentBitmap: optional('Intent Bitmap'),
        status,
        delta: delta ? { from: Number(delta[1]), to: Number(delta[2]) } : null,
        devices: members.flatMap(m => (m.device ? [m.device] : [])),
        members,
    };
}

/** What the kernel says about one array, read in ONE guest command (so at one moment). */
export interface KernelArray {
    name: string;
    mdstat: MdstatArray;
    detail: MdadmDetail;
    /**
     * md/ attributes present for this array, by relative path: { sync_action: 'resync',
     * 'dev-vda/state': 'in_sync' }.
     */
    sysfs: Record<string, string>;
}

export interface KernelView {
    mdstat: string;
    arrays: Map<string, KernelArray>;
    speedLimitMin: number;
    speedLimitMax: number;
    /** The guest's uptime (s) when read: orders the reads. */
    uptime: number;
}

const SYSFS_ATTRIBUTES = [
    'level', 'raid_disks', 'chunk_size', 'component_size', 'array_state', 'degraded', 'sync_action',
    'last_sync_action', 'sync_completed', 'resync_start', 'reshape_position', 'sync_speed_min', 'sync_speed_max',
    'stripe_cache_size', 'stripe_cache_active', 'mismatch_cnt', 'consistency_policy', 'bitmap/location',
    'bitmap/chunksize', 'dev-*/state', 'dev-*/slot', 'dev-*/errors', 'dev-*/recovery_start',
];

/** Reads /proc/mdstat, the speed sysctls, and `mdadm --detail` + sysfs of every array, in one command. */
export async function readKernel(guest: GuestControl): Promise<KernelView> {
    const out = await guest.runOk(`
cut -d' ' -f1 /proc/uptime
cat /proc/sys/dev/raid/speed_limit_min /proc/sys/dev/raid/speed_limit_max
echo @@mdstat; cat /proc/mdstat
for d in /sys/block/md*; do
  [ -e "$d/md" ] || continue
  a=\${d##*/}
  echo "@@detail $a"; mdadm --detail "/dev/$a" 2>&1
  echo "@@sysfs $a"; (cd "$d/md" && grep -H -s '' ${SYSFS_ATTRIBUTES.join(' ')})
done
echo @@end`);
    const [uptime, min, max] = out.split('\n', 3).map(Number);
    const sections = out.split(/^@@/m).slice(1);
    const mdstatText = sections.find(s => s.startsWith('mdstat\n'))!.slice('mdstat\n'.length);
    const mdstat = parseMdstat(mdstatText);
    const arrays = new Map<string, KernelArray>();
    for (const section of sections) {
        const head = section.match(/^(detail|sysfs) (\S+)\n/);
        if (!head)
            continue;
        const name = head[2];
        const body = section.slice(head[0].length);
        let entry = arrays.get(name);
        if (!entry) {
            const inMdstat = mdstat.find(a => a.name === name);
            if (!inMdstat)
                throw new Error(`${name} is in /sys/block but not in /proc/mdstat:\n${mdstatText}`);
            entry = { name, mdstat: inMdstat, detail: undefined as unknown as MdadmDetail, sysfs: {} };
            arrays.set(name, entry);
        }
        if (head[1] === 'detail') {
            entry.detail = parseDetail(body);
        } else {
            for (const line of body.split('\n').filter(Boolean)) {
                const colon = line.indexOf(':');
                entry.sysfs[line.slice(0, colon)] = line.slice(colon + 1);
            }
        }
    }
    return { mdstat: mdstatText, arrays, speedLimitMin: min, speedLimitMax: max, uptime };
}

/** One array of readKernel(), or an error that shows /proc/mdstat. */
export function kernelArray(view: KernelView, name: string): KernelArray {
    const array = view.arrays.get(name);
    if (!array)
        throw new Error(`${name} is not running in the guest; /proc/mdstat:\n${view.mdstat}`);
    return array;
}
