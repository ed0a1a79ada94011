// SPDX-License-Identifier: LGPL-2.1-or-later
// Turns a validated, expanded scenario into the live host state, filling in what the kernel and
// mdadm would choose by default (device numbers, data offsets, read-ahead, nr_requests...).

import { uuidFromText } from '../random';
import { signatureFromSpec, superblockSignature } from '../blockdev/signatures';
import { LINUX_RAID_GUID, newPartitionUuid, newTable } from '../blockdev/table';
import { memberSlots, partitionLayout } from '../scenario/derive';
import { DEFAULT_DISK_KIND, type ArraySpec, type DiskKind, type DiskSpec, type IoLoadSpec, type MemberSpec, type ScenarioSpec } from '../scenario/types';
import { ScenarioError } from '../scenario/validate';
import { defaultNrRequests, DeviceNumbers, partitionName } from './devices';
import { arraySectors, defaultChunkKiB, defaultLayout, defaultReadAheadKiB, roundDown, syncGranularity, syncTotalSectors } from './levels';
import { activateSpares, lastSyncActionName } from './sync';
import type { BlockQueue, Disk, HostState, IoLoad, IoStats, MdArray, Member, MemberDevice } from './types';

const DEBIAN_PERSONALITIES = ['linear', 'raid0', 'raid1', 'raid10', 'raid6', 'raid5', 'raid4'];

/** Per kind: sync bandwidth, hardware tags, queue_depth, and whether it has a scheduler by default. */
/**
 * Per kind: sync bandwidth, hardware tags, queue_depth, whether it has a scheduler by default, and
 * its physical block when not given: today's SATA and SAS disks are mostly 512e (4 KiB physical
 * blocks behind 512-byte logical ones), NVMe namespaces and QEMU's virtio disks 512 unless formatted otherwise.
 */
interface KindDefaults {
    bandwidthKiBs: number;
    hwTags: number;
    queueDepth: number | null;
    scheduler: string;
    physicalBlockBytes: number;
}

const KIND_DEFAULTS: Record<DiskKind, KindDefaults> = {
    sata: { bandwidthKiBs: 160_000, hwTags: 32, queueDepth: 32, scheduler: 'mq-deadline', physicalBlockBytes: 4096 },
    sas: { bandwidthKiBs: 220_000, hwTags: 256, queueDepth: 128, scheduler: 'mq-deadline', physicalBlockBytes: 4096 },
    nvme: { bandwidthKiBs: 2_000_000, hwTags: 1023, queueDepth: null, scheduler: 'none', physicalBlockBytes: 512 },
    virtio: { bandwidthKiBs: 400_000, hwTags: 256, queueDepth: null, scheduler: 'none', physicalBlockBytes: 512 },
};

export function newIoStats(): IoStats {
    return {
        readIos: 0, readMerges: 0, readSectors: 0, readMs: 0, writeIos: 0, writeMerges: 0,
        writeSectors: 0, writeMs: 0, inFlight: 0, ioTicksMs: 0, weightedMs: 0,
    };
}

function ioLoad(spec: IoLoadSpec | undefined): IoLoad | null {
    if (!spec) return null;
    return {
        readKiBs: spec.readKiBs ?? 0, writeKiBs: spec.writeKiBs ?? 0,
        fromSeconds: spec.fromSeconds ?? 0, untilSeconds: spec.untilSeconds ?? Infinity,
    };
}

function buildDisk(spec: DiskSpec, numbers: DeviceNumbers): Disk {
    const kind = spec.kind ?? DEFAULT_DISK_KIND;
    const defaults = KIND_DEFAULTS[kind];
    const scheduler = spec.scheduler ?? defaults.scheduler;
    const queue: BlockQueue = {
        readAheadKiB: spec.readAheadKiB ?? 128,
        scheduler,
        schedulers: spec.schedulers ?? ['mq-deadline'],
        nrRequests: spec.nrRequests ?? defaultNrRequests(scheduler, defaults.hwTags),
        hwTags: defaults.hwTags,
        rotational: spec.rotational ?? kind !== 'nvme',
    };
    const depth = spec.queueDepth ?? defaults.queueDepth;
    const logicalBlockBytes = spec.logicalBlockBytes ?? 512;
    const disk: Disk = {
        name: spec.name, kind, ...numbers.disk(spec.name, kind),
        sizeSectors: Math.floor(spec.sizeBytes / 512),
        bandwidthKiBs: spec.bandwidthKiBs ?? defaults.bandwidthKiBs,
        seeks: spec.seeks ?? false,
        queue,
        queueDepth: depth === null ? null : { value: depth, max: spec.queueDepthMax ?? 128 },
        partitions: [],
        backgroundIo: ioLoad(spec.backgroundIo),
        stats: newIoStats(),
        enclosureSlot: kind === 'sas' ? { number: numbers.enclosureSlot(), locate: false } : null,
        logicalBlockBytes,
        physicalBlockBytes: spec.physicalBlockBytes ?? Math.max(logicalBlockBytes, defaults.physicalBlockBytes),
        table: null,
        signatures: (spec.signatures ?? []).map(s => signatureFromSpec(s, spec.name)),
        mountpoint: spec.mounted ?? null,
        leftovers: [],
    };
    // A scenario's partitions are on a GPT, of md's type: they are there for arrays.
    if (spec.partitions?.length) disk.table = newTable(disk, 'gpt', 'scenario');
    for (const [index, p] of partitionLayout(spec).entries()) {
        const pspec = spec.partitions![index];
        const name = partitionName(disk.name, p.number);
        disk.partitions.push({
            ...p, name, ...numbers.partition(disk, p.number), disk,
            stats: newIoStats(),
            typeId: LINUX_RAID_GUID,
            uuid: newPartitionUuid(disk, p.number, 'scenario'),
            signatures: (pspec.signatures ?? []).map(s => signatureFromSpec(s, name)),
            mountpoint: pspec.mounted ?? null,
        });
    }
    return disk;
}

/**
 * mdadm's default data offset for 1.2 metadata (super1.c, validate_geometry1): about 0.1% of the
 * device kept free for reshapes, at most 128 MiB, and for chunked levels at least four chunks
 * (halving stops there), plus the superblock and the bitmap space, rounded up to 1 MiB. Checked on
 * Debian 12's mdadm 4.2 (test/vm): 256 MiB disks give 1 MiB for raid1/linear and chunks up to
 * 256 KiB, 2 MiB with 512 KiB chunks, 3 MiB with 1 MiB, 9 MiB with 4 MiB; big disks give the
 * well-known 264192 sectors (129 MiB).
 */
export function dataOffsetSectors(deviceSectors: number, chunkKiB: number): number {
    let headroom = 128 * 1024 * 2;
    while (headroom * 1024 > deviceSectors && (chunkKiB === 0 || headroom / 2 >= chunkKiB * 2 * 2))
        headroom /= 2;
    const oneMiB = 2048;
    return Math.ceil((12 * 2 + bitmapSpaceSectors(deviceSectors) + headroom) / oneMiB) * oneMiB;
}

/** mdadm's choose_bm_space(): room kept for an internal bitmap, by device size (sectors). */
function bitmapSpaceSectors(deviceSectors: number): number {
    if (deviceSectors < 64 * 2) return 0;
    if (deviceSectors - 64 * 2 >= 200 * 1024 * 1024 * 2) return 128 * 2;
    if (deviceSectors - 4 * 2 > 8 * 1024 * 1024 * 2) return 64 * 2;
    return 4 * 2;
}

function deviceSectors(device: MemberDevice): number {
    return device.kind === 'disk' ? device.disk.sizeSectors : device.partition.sizeSectors;
}

function buildMember(spec: MemberSpec, index: number, slot: number | null, devices: Map<string, MemberDevice>,
    dataOffset: number): Member {
    const device = devices.get(spec.device)!;
    const role = spec.role ?? 'in_sync';
    return {
        name: spec.device,
        device,
        disk: device.kind === 'disk' ? device.disk : device.partition.disk,
        desc: spec.desc ?? index,
        slot,
        inSync: role === 'in_sync',
        faulty: role === 'faulty',
        flags: new Set(spec.flags ?? []),
        recoveryOffset: role === 'in_sync' ? null : 0,
        errors: spec.errors ?? 0,
        dataOffset,
    };
}

function buildArray(spec: ArraySpec, scenarioName: string, devices: Map<string, MemberDevice>): MdArray {
    const { slots, slotCount } = memberSlots(spec.members);
    const nearCopies = spec.nearCopies ?? 2;
    const chunkKiB = spec.chunkKiB ?? defaultChunkKiB(spec.level);
    const raidDisks = spec.raidDisks ?? slotCount;
    const smallest = Math.min(...spec.members.map(m => deviceSectors(devices.get(m.device)!)));
    // 1.0 and 0.90 superblocks sit at the end of the device: the data starts at its sector 0.
    const superblockAtEnd = spec.metadata === '1.0' || spec.metadata === '0.90';
    const dataOffset = superblockAtEnd ? 0 : dataOffsetSectors(smallest, chunkKiB);
    const members = spec.members.map((m, i) => buildMember(m, i, slots[i], devices, dataOffset));
    const componentSectors = spec.componentSizeKiB !== undefined ? spec.componentSizeKiB * 2
        : roundDown(smallest - dataOffsetSectors(smallest, chunkKiB), Math.max(chunkKiB, 64) * 2);
    const baseState = spec.state ?? 'clean';
    if (baseState === 'inactive') {
        // Not started: the members are only known, none holds a slot yet (mdstat shows them (S)).
        for (const member of members) Object.assign(member, { slot: null, inSync: false, recoveryOffset: 0 });
    }
    const array: MdArray = {
        name: spec.name,
        minor: Number(spec.name.slice(2)),
        level: spec.level,
        metadata: spec.metadata ?? '1.2',
        chunkKiB,
        layout: spec.layout ?? defaultLayout(spec.level, nearCopies),
        nearCopies,
        uuid: spec.uuid ?? uuidFromText(`${scenarioName}/${spec.name}`),
        raidDisks,
        componentSectors,
        members,
        baseState,
        bitmap: spec.bitmap ? {
            kind: spec.bitmap.kind ?? 'bitmap',
            chunkBytes: spec.bitmap.chunkKiB * 1024,
            location: spec.bitmap.location ?? '+8',
            allocatedPages: spec.bitmap.allocatedPages ?? null,
            writtenShare: (spec.bitmap.writtenPercent ?? 100) / 100,
            needSyncShare: (spec.bitmap.needSyncPercent ?? 0) / 100,
        } : null,
        localSpeedMin: spec.syncSpeedMin ?? null,
        localSyncIoDepth: spec.syncIoDepth ?? null,
        localSpeedMax: spec.syncSpeedMax ?? null,
        stripeCacheSize: spec.stripeCacheSize ?? 256,
        groupThreadCnt: spec.groupThreadCnt ?? 0,
        queue: {
            readAheadKiB: spec.readAheadKiB ??
                defaultReadAheadKiB({ level: spec.level, raidDisks, chunkKiB, nearCopies }),
            scheduler: 'none', schedulers: [], nrRequests: 128, hwTags: 128,
            rotational: members.some(m => m.disk.queue.rotational),
        },
        resyncCheckpoint: null,
        requestedStart: 0,
        syncMax: spec.sync?.syncMaxKiB === undefined ? null : spec.sync.syncMaxKiB * 2,
        reshape: null,
        frozen: spec.sync?.frozen ?? false,
        requested: null,
        sync: null,
        lastSyncAction: spec.lastSyncAction ?? (spec.sync ? lastSyncActionName(spec.sync.action) : 'none'),
        latentMismatchSectors: spec.mismatchSectors ?? 0,
        mismatchesFound: spec.mismatchCnt ?? 0,
        competingIo: ioLoad(spec.competingIo),
        stats: newIoStats(),
        partitions: [],
    };
    const layout = { name: spec.name, sizeBytes: arraySectors(array) * 512, partitions: spec.partitions };
    array.partitions = partitionLayout(layout).map(p => ({ ...p, name: partitionName(spec.name, p.number) }));
    if (spec.sync) placeSyncProgress(array, spec, scenarioName);
    return array;
}

/** Record a scenario's sync progress where md keeps it, so the scheduler resumes it from there. */
function placeSyncProgress(array: MdArray, spec: ArraySpec, scenarioName: string): void {
    const sync = spec.sync!;
    if (sync.action === 'reshape') array.reshape = { fromRaidDisks: spec.reshape!.fromRaidDisks, checkpoint: 0 };
    const total = syncTotalSectors(array, sync.action);
    const position = sync.doneKiB !== undefined ? sync.doneKiB * 2
        : roundDown(total * sync.donePercent! / 100, syncGranularity(array.level));
    if (position > total) {
        throw new ScenarioError(scenarioName, [`arrays (${array.name}).sync.doneKiB: beyond the ${total / 2} KiB the ${sync.action} covers`]);
    }
    switch (sync.action) {
        case 'resync':
            array.resyncCheckpoint = position;
            break;
        case 'recover':
            activateSpares(array);
            for (const member of array.members) {
                if (member.slot !== null && !member.inSync && !member.faulty) member.recoveryOffset = position;
            }
            break;
        case 'reshape':
            array.reshape!.checkpoint = position;
            break;
        default:
            // The mismatches found so far are counted when the physics primes the running check.
            if (!sync.frozen) array.requested = sync.action;
            array.requestedStart = position;
    }
}

export function buildHostState(spec: ScenarioSpec): HostState {
    const numbers = new DeviceNumbers();
    const disks = (spec.disks ?? []).map(d => buildDisk(d, numbers));
    const devices = new Map<string, MemberDevice>();
    for (const disk of disks) {
        devices.set(disk.name, { kind: 'disk', disk });
        for (const partition of disk.partitions) devices.set(partition.name, { kind: 'partition', partition });
    }
    const totalKiB = spec.memory?.totalKiB ?? 16 * 1024 * 1024;
    const arrays = (spec.arrays ?? []).map(a => buildArray(a, spec.name, devices));
    for (const array of arrays) for (const member of array.members) writeSuperblock(array, member);
    return {
        time: 0,
        kernel: {
            speedLimitMin: spec.kernel?.speedLimitMin ?? 1000,
            speedLimitMax: spec.kernel?.speedLimitMax ?? 200000,
            syncIoDepth: spec.kernel?.syncIoDepth ?? null,
            bitmapTypes: spec.kernel?.bitmapTypes ?? null,
            lacks: spec.kernel?.lacks ?? [],
            pageSize: spec.kernel?.pageSize ?? 4096,
        },
        memory: { totalKiB, availableKiB: spec.memory?.availableKiB ?? Math.floor(totalKiB * 0.8) },
        personalities: spec.kernel?.personalities ?? DEBIAN_PERSONALITIES,
        jitter: spec.jitter ?? 0,
        disks,
        arrays,
    };
}

/** mdadm wrote its superblock on every member when it made the array (or added the member): wipefs sees it. */
export function writeSuperblock(array: MdArray, member: Member): void {
    const signatures = member.device.kind === 'disk' ? member.device.disk.signatures : member.device.partition.signatures;
    const superblock = superblockSignature(array, deviceSectors(member.device));
    // It overwrites an older one at its place; blkid probes md superblocks before filesystems: it comes first.
    const kept = signatures.filter(s => !(s.type === superblock.type && s.offset === superblock.offset));
    signatures.splice(0, signatures.length, superblock, ...kept);
}
