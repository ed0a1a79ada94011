// SPDX-License-Identifier: LGPL-2.1-or-later
// Scenario validation: first the JSON shape (types, ranges, known fields), then whether the
// pieces fit together (members exist and are used once, slots fit, a sync is possible on that
// array). Every problem is collected and reported together with its JSON path.

import { partitionName, diskNameMatchesKind } from '../model/devices';
import { isParityLevel, isRedundant } from '../model/levels';
import { memberSlots, partitionLayout } from './derive';
import { arrayOf, boolean, integer, number, object, oneOf, optional, required, string, type Problems, type Rule } from './schema';
import {
    ARRAY_STATES, BITMAP_KINDS, DEFAULT_DISK_KIND, DISK_KINDS, LEVELS, MEMBER_FLAGS, MEMBER_ROLES, SIGNATURE_TYPES,
    SYNC_ACTIONS,
    type ArraySpec, type DiskSpec, type IoLoadSpec, type ScenarioSpec,
} from './types';

export class ScenarioError extends Error {
    constructor(readonly source: string, readonly problems: string[]) {
        super(`scenario ${source} is invalid:\n${problems.map(p => `  - ${p}`).join('\n')}`);
        this.name = 'ScenarioError';
    }
}

const ioLoad = object({
    readKiBs: optional(number({ min: 0 })),
    writeKiBs: optional(number({ min: 0 })),
    fromSeconds: optional(number({ min: 0 })),
    untilSeconds: optional(number({ min: 0 })),
});

/** A signature's type alone ("ext4"), or with what blkid reads from it ({ "type": ..., "uuid": ... }). */
const signature: Rule = (value, path, problems) => {
    const rule = typeof value === 'string' ? oneOf(SIGNATURE_TYPES) : object({
        type: required(oneOf(SIGNATURE_TYPES)),
        uuid: optional(string(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'a lower-case uuid')),
        label: optional(string()),
    });
    rule(value, path, problems);
};

const mountpoint = optional(string(/^\/\S*$/, 'an absolute path like /srv'));

const diskFields = {
    kind: optional(oneOf(DISK_KINDS)),
    sizeBytes: required(integer({ min: 1 << 20 })),
    rotational: optional(boolean),
    bandwidthKiBs: optional(number({ min: 1 })),
    seeks: optional(boolean),
    scheduler: optional(string()),
    schedulers: optional(arrayOf(string(/^[a-z][a-z0-9-]*$/, 'a scheduler name'))),
    readAheadKiB: optional(integer({ min: 0 })),
    nrRequests: optional(integer({ min: 4 })),
    queueDepth: optional(integer({ min: 1 })),
    queueDepthMax: optional(integer({ min: 1 })),
    backgroundIo: optional(ioLoad),
    logicalBlockBytes: optional(integer({ min: 512, max: 4096 })),
    physicalBlockBytes: optional(integer({ min: 512, max: 65536 })),
};

const partitions = optional(arrayOf(object({
    number: required(integer({ min: 1, max: 128 })),
    startSector: optional(integer({ min: 1 })),
    sizeBytes: optional(integer({ min: 1 << 20 })),
    signatures: optional(arrayOf(signature)),
    mounted: mountpoint,
})));

const disk = object({
    name: required(string(/^(sd[a-z]+|vd[a-z]+|nvme\d+n\d+)$/, 'a disk name like sda, vdb or nvme0n1')),
    ...diskFields,
    partitions,
    signatures: optional(arrayOf(signature)),
    mounted: mountpoint,
});

const member = object({
    device: required(string()),
    role: optional(oneOf(MEMBER_ROLES)),
    slot: optional(integer({ min: 0 })),
    desc: optional(integer({ min: 0 })),
    flags: optional(arrayOf(oneOf(MEMBER_FLAGS))),
    errors: optional(integer({ min: 0 })),
});

const arrayFields = {
    level: required(oneOf(LEVELS)),
    metadata: optional(oneOf(['0.90', '1.0', '1.1', '1.2'])),
    chunkKiB: optional(integer({ min: 0, max: 1 << 20 })),
    layout: optional(integer({ min: -1 })),
    nearCopies: optional(integer({ min: 2, max: 8 })),
    raidDisks: optional(integer({ min: 1, max: 4096 })),
    componentSizeKiB: optional(integer({ min: 64 })),
    state: optional(oneOf(ARRAY_STATES)),
    bitmap: optional(object({
        kind: optional(oneOf(BITMAP_KINDS)),
        chunkKiB: required(integer({ min: 4 })),
        location: optional(string(/^(none|file|[+-]\d+)$/, 'none, file or a signed sector offset like +8')),
        allocatedPages: optional(integer({ min: 0 })),
        writtenPercent: optional(number({ min: 0, max: 100 })),
        needSyncPercent: optional(number({ min: 0, max: 100 })),
    })),
    sync: optional(object({
        action: required(oneOf(SYNC_ACTIONS)),
        donePercent: optional(number({ min: 0, max: 100 })),
        doneKiB: optional(integer({ min: 0 })),
        frozen: optional(boolean),
        syncMaxKiB: optional(integer({ min: 0 })),
    })),
    reshape: optional(object({ fromRaidDisks: required(integer({ min: 2 })) })),
    syncSpeedMin: optional(integer({ min: 1, max: 0xffffffff })),
    syncSpeedMax: optional(integer({ min: 1, max: 0xffffffff })),
    syncIoDepth: optional(integer({ min: 1, max: 0x7fffffff })),
    stripeCacheSize: optional(integer({ min: 17, max: 32768 })),
    groupThreadCnt: optional(integer({ min: 0, max: 8192 })),
    readAheadKiB: optional(integer({ min: 0 })),
    mismatchSectors: optional(integer({ min: 0 })),
    mismatchCnt: optional(integer({ min: 0 })),
    lastSyncAction: optional(oneOf(['none', 'resync', 'recovery', 'check', 'repair', 'reshape'])),
    competingIo: optional(ioLoad),
    uuid: optional(string(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'a lower-case uuid')),
    partitions,
};

const array = object({
    name: required(string(/^md\d+$/, 'an md device name like md0')),
    ...arrayFields,
    members: required(arrayOf(member)),
});

const family = object({
    count: required(integer({ min: 1, max: 4096 })),
    firstNumber: optional(integer({ min: 0 })),
    members: required(integer({ min: 1, max: 256 })),
    spares: optional(integer({ min: 0 })),
    faulty: optional(integer({ min: 0 })),
    recovering: optional(integer({ min: 0 })),
    disk: required(object(diskFields)),
    array: required(object(arrayFields)),
});

const scenarioShape: Rule = object({
    name: required(string(/^[\w.-]+$/, 'a plain name (letters, digits, . _ -)')),
    description: optional(string()),
    kernel: optional(object({
        personalities: optional(arrayOf(string(/^[a-z0-9]+$/, 'a personality name'))),
        speedLimitMin: optional(integer({ min: 0, max: 0x7fffffff })),
        speedLimitMax: optional(integer({ min: 0, max: 0x7fffffff })),
        syncIoDepth: optional(integer({ min: -0x80000000, max: 0x7fffffff })),
        bitmapTypes: optional(arrayOf(oneOf(BITMAP_KINDS))),
        lacks: optional(arrayOf(string(/^[a-z0-9_]+(\/[a-z0-9_]+)*$/, 'a path under /sys/block/NAME/ like md/group_thread_cnt'))),
        pageSize: optional(integer({ min: 4096, max: 65536 })),
    })),
    memory: optional(object({
        totalKiB: required(integer({ min: 65536 })),
        availableKiB: optional(integer({ min: 0 })),
    })),
    jitter: optional(number({ min: 0, max: 0.5 })),
    disks: optional(arrayOf(disk)),
    arrays: optional(arrayOf(array)),
    generate: optional(arrayOf(family)),
});

/** Check the JSON shape; on success the value is a ScenarioSpec (generate not expanded yet). */
export function checkShape(raw: unknown, source: string): ScenarioSpec {
    const problems: Problems = [];
    scenarioShape(raw, '', problems);
    if (problems.length) throw new ScenarioError(source, problems);
    const spec = raw as ScenarioSpec;
    for (const [index, fam] of (spec.generate ?? []).entries()) {
        const special = (fam.spares ?? 0) + (fam.faulty ?? 0) + (fam.recovering ?? 0);
        if (special > fam.members) problems.push(`generate[${index}]: spares + faulty + recovering (${special}) exceed members (${fam.members})`);
    }
    if (problems.length) throw new ScenarioError(source, problems);
    return spec;
}

/** Check that an expanded scenario's parts refer to each other correctly. */
export function checkConsistency(spec: ScenarioSpec, source: string): void {
    const problems: Problems = [];
    const devices = checkDisks(spec.disks ?? [], problems);
    checkKernel(spec, problems);
    const arrayNames = new Set<string>();
    const usedBy = new Map<string, string>();
    (spec.arrays ?? []).forEach((arr, index) => {
        const path = `arrays[${index}] (${arr.name})`;
        if (arrayNames.has(arr.name)) problems.push(`${path}: a second array named ${arr.name}`);
        arrayNames.add(arr.name);
        checkMembers(arr, path, devices, usedBy, problems);
        checkArraySettings(arr, path, problems);
        checkBitmapKind(spec, arr, path, problems);
        if (arr.syncIoDepth !== undefined && spec.kernel?.syncIoDepth === undefined)
            problems.push(`${path}.syncIoDepth: the kernel has no sync_io_depth (give kernel.syncIoDepth)`);
    });
    if (problems.length) throw new ScenarioError(source, problems);
}

/** Every disk and partition name, with whether it is a disk split into partitions. */
function checkDisks(disks: DiskSpec[], problems: Problems): Map<string, { partitioned: boolean }> {
    const devices = new Map<string, { partitioned: boolean }>();
    disks.forEach((d, index) => {
        const path = `disks[${index}] (${d.name})`;
        const kind = d.kind ?? DEFAULT_DISK_KIND;
        if (!diskNameMatchesKind(d.name, kind)) problems.push(`${path}: a ${kind} disk cannot be named ${d.name}`);
        if (devices.has(d.name)) problems.push(`${path}: a second device named ${d.name}`);
        devices.set(d.name, { partitioned: (d.partitions ?? []).length > 0 });
        if (d.scheduler && d.scheduler !== 'none' && !(d.schedulers ?? ['mq-deadline']).includes(d.scheduler))
            problems.push(`${path}.scheduler: ${d.scheduler} is not in schedulers`);
        if (d.queueDepth !== undefined && kind !== 'sata' && kind !== 'sas')
            problems.push(`${path}.queueDepth: only sata and sas disks have device/queue_depth`);
        checkLoad(d.backgroundIo, `${path}.backgroundIo`, problems);
        checkBlockSizes(d, path, problems);
        const diskSectors = Math.floor(d.sizeBytes / 512);
        const numbers = new Set<number>();
        let previousEnd = 0;
        partitionLayout(d).forEach((p, pi) => {
            const ppath = `${path}.partitions[${pi}]`;
            if (numbers.has(p.number)) problems.push(`${ppath}: partition ${p.number} defined twice`);
            numbers.add(p.number);
            if (p.startSector < previousEnd) problems.push(`${ppath}: starts at sector ${p.startSector}, inside the previous partition (ends at ${previousEnd})`);
            if (p.sizeSectors <= 0 || p.startSector + p.sizeSectors > diskSectors) problems.push(`${ppath}: does not fit on the disk (${diskSectors} sectors)`);
            previousEnd = p.startSector + p.sizeSectors;
            devices.set(partitionName(d.name, p.number), { partitioned: false });
        });
    });
    return devices;
}

const isPowerOfTwo = (n: number) => (n & (n - 1)) === 0;

/** Block sizes the kernel accepts: powers of two, the physical not below the logical, the disk whole blocks. */
function checkBlockSizes(d: DiskSpec, path: string, problems: Problems): void {
    const logical = d.logicalBlockBytes ?? 512;
    if (!isPowerOfTwo(logical)) problems.push(`${path}.logicalBlockBytes: must be a power of two`);
    if (d.physicalBlockBytes !== undefined && (!isPowerOfTwo(d.physicalBlockBytes) || d.physicalBlockBytes < logical))
        problems.push(`${path}.physicalBlockBytes: must be a power of two, at least the logical block size`);
    if (d.sizeBytes % logical !== 0) problems.push(`${path}.sizeBytes: not a whole number of ${logical}-byte blocks`);
}

function checkKernel(spec: ScenarioSpec, problems: Problems): void {
    const pageSize = spec.kernel?.pageSize;
    if (pageSize !== undefined && (pageSize & (pageSize - 1)) !== 0) problems.push('kernel.pageSize: must be a power of two');
    const memory = spec.memory;
    if (memory?.availableKiB !== undefined && memory.availableKiB > memory.totalKiB)
        problems.push('memory.availableKiB: more than memory.totalKiB');
}

/** A lockless bitmap needs a kernel that has one, and mdadm writes it only with 1.2 metadata. */
function checkBitmapKind(spec: ScenarioSpec, arr: ArraySpec, path: string, problems: Problems): void {
    if (arr.bitmap && arr.bitmap.kind !== 'llbitmap' && (arr.bitmap.writtenPercent ?? arr.bitmap.needSyncPercent) !== undefined)
        problems.push(`${path}.bitmap: writtenPercent and needSyncPercent are the lockless bitmap's (kind "llbitmap")`);
    if (arr.bitmap?.kind !== 'llbitmap') return;
    if (!spec.kernel?.bitmapTypes?.includes('llbitmap')) problems.push(`${path}.bitmap.kind: llbitmap needs "llbitmap" in kernel.bitmapTypes`);
    if ((arr.metadata ?? '1.2') !== '1.2') problems.push(`${path}.bitmap.kind: llbitmap needs 1.2 metadata`);
    if ((arr.bitmap.needSyncPercent ?? 0) > (arr.bitmap.writtenPercent ?? 100))
        problems.push(`${path}.bitmap.needSyncPercent: more than writtenPercent (only written chunks need a sync)`);
}

function checkLoad(load: IoLoadSpec | undefined, path: string, problems: Problems): void {
    if (load?.fromSeconds !== undefined && load.untilSeconds !== undefined && load.untilSeconds <= load.fromSeconds)
        problems.push(`${path}: untilSeconds must be after fromSeconds`);
}

function checkMembers(arr: ArraySpec, path: string, devices: Map<string, { partitioned: boolean }>,
    usedBy: Map<string, string>, problems: Problems): void {
    if (arr.members.length === 0) problems.push(`${path}.members: an array needs at least one member`);
    const { slots, slotCount } = memberSlots(arr.members);
    const taken = new Set<number>();
    arr.members.forEach((m, index) => {
        const mpath = `${path}.members[${index}]`;
        const device = devices.get(m.device);
        if (!device) problems.push(`${mpath}.device: no disk or partition named ${m.device}`);
        else if (device.partitioned) problems.push(`${mpath}.device: ${m.device} has partitions; use one of them`);
        const other = usedBy.get(m.device);
        if (other) problems.push(`${mpath}.device: ${m.device} is already a member of ${other}`);
        usedBy.set(m.device, arr.name);
        const slot = slots[index];
        if (slot === null) {
            if (m.slot !== undefined) problems.push(`${mpath}.slot: a ${m.role} member has no slot`);
            return;
        }
        if (taken.has(slot) && !(m.flags ?? []).includes('replacement'))
            problems.push(`${mpath}.slot: slot ${slot} is taken (only a member flagged replacement may share it)`);
        taken.add(slot);
    });
    const raidDisks = arr.raidDisks ?? slotCount;
    if (slotCount > raidDisks) problems.push(`${path}: slot ${slotCount - 1} is beyond raidDisks (${raidDisks})`);
    if (!isRedundant(arr.level) && arr.members.some(m => m.role === 'spare' || m.role === 'recovering'))
        problems.push(`${path}: ${arr.level} has no redundancy, so no spare or recovering members`);
    if (arr.level === 'raid6' && raidDisks < 4) problems.push(`${path}: raid6 needs at least 4 raid disks`);
    if ((arr.level === 'raid4' || arr.level === 'raid5') && raidDisks < 2) problems.push(`${path}: ${arr.level} needs at least 2 raid disks`);
    if (arr.level === 'raid10' && raidDisks < (arr.nearCopies ?? 2)) problems.push(`${path}: raid10 needs at least nearCopies raid disks`);
}

function checkArraySettings(arr: ArraySpec, path: string, problems: Problems): void {
    const redundant = isRedundant(arr.level);
    const parity = isParityLevel(arr.level);
    if (arr.bitmap && !redundant) problems.push(`${path}.bitmap: bitmaps are not meaningful with ${arr.level}`);
    if (arr.bitmap && (arr.bitmap.chunkKiB & (arr.bitmap.chunkKiB - 1)) !== 0)
        problems.push(`${path}.bitmap.chunkKiB: must be a power of two`);
    if (!parity && (arr.stripeCacheSize !== undefined || arr.groupThreadCnt !== undefined))
        problems.push(`${path}: stripeCacheSize and groupThreadCnt exist only on raid4/5/6`);
    const limits = arr.syncSpeedMin !== undefined || arr.syncSpeedMax !== undefined || arr.syncIoDepth !== undefined;
    if (!redundant && limits)
        problems.push(`${path}: ${arr.level} has no sync speed limits or sync I/O depth`);
    if ((arr.chunkKiB ?? 0) > 0 && (arr.chunkKiB! & (arr.chunkKiB! - 1)) !== 0)
        problems.push(`${path}.chunkKiB: must be a power of two`);
    checkLoad(arr.competingIo, `${path}.competingIo`, problems);
    if (arr.reshape && arr.sync?.action !== 'reshape') problems.push(`${path}.reshape: only with sync.action "reshape"`);
    const sync = arr.sync;
    if (!sync) return;
    const spath = `${path}.sync`;
    if (!redundant) problems.push(`${spath}: ${arr.level} never syncs`);
    if ((sync.donePercent === undefined) === (sync.doneKiB === undefined)) problems.push(`${spath}: give donePercent or doneKiB (one of them)`);
    const state = arr.state ?? 'clean';
    if (state === 'inactive') problems.push(`${spath}: an inactive array does not sync`);
    if ((state === 'readonly' || state === 'read-auto') && sync.action !== 'resync')
        problems.push(`${spath}: a ${state} array can only have a pending resync`);
    if (sync.action === 'recover' && !arr.members.some(m => m.role === 'recovering' || m.role === 'spare'))
        problems.push(`${spath}: a recovery needs a recovering or spare member`);
    if (sync.action === 'reshape') {
        if (!parity) problems.push(`${spath}: only raid4/5/6 grows are simulated`);
        const from = arr.reshape?.fromRaidDisks;
        const to = arr.raidDisks ?? memberSlots(arr.members).slotCount;
        if (from === undefined) problems.push(`${path}.reshape.fromRaidDisks: missing (needed for a reshape)`);
        else if (from >= to) problems.push(`${path}.reshape.fromRaidDisks: a grow must start from fewer than ${to} disks`);
    }
}
