// SPDX-License-Identifier: LGPL-2.1-or-later
// buildModel(): one refresh's raw snapshot (plus the previous model, for history) -> the typed
// model every view renders. All derived facts (health, roles, effective limits, ETA) live here.

import { JOURNAL_FILE, parseJournal } from './journal';
import { parseAutoRestore } from './autoRestore';
import { WINDOW_LIMITS_ARMED, WINDOW_LIMITS_HELD, windowLimitsInForce } from './alerts/windowLimits';
import { parsePausedChecks } from './alerts/pausedChecks';
import { HISTORY_ROOT, parseSyncHistory } from './history';
import { parseRepairFlows } from './repairFlowRecord';
import { parsePlanRecord, PLAN_RECORD_FILE } from './planRecord';
import { addTrendSample } from './trend';
import { backgroundJobs } from './diagnosis/backgroundJobs';
import { recordIoSamples } from './diagnosis/samples';
import { failuresTolerated, raid10Copies, raid10GroupLost } from './levels';
import type { MdstatArray, MdstatMember } from './mdstat';
import { parseMdstatReusing, type MdstatReused } from './mdstatReuse';
import { mismatchMeaning } from './mismatches';
import {
    CAPPED_SHARE, type ArrayHealth, type ArrayModel, type DiskModel, type EnclosureSlot, type HostModel,
    type MemberModel, type MemberRole,
} from './modelTypes';
import { ARRAY_SETTINGS, DISK_SETTINGS, readDeviceSettings, readGlobalSettings } from './settings/registry';
import { buildBitmap, buildSync, stoppedPosition } from './modelSync';
import { rateAfterLimitChange } from './etaRelearn';
import { shareUnchanged } from './share';
import { syncStall } from './stall';
import { filesUnder, readValue, type Snapshot } from './snapshot';
import { indexSysfs, SYS_BLOCK, type SysfsIndex } from './sysfsIndex';
import {
    bitmapTypesOffered, parseChunkSize, parseDiskstatsReusing, parseIntValue, parseMeminfo, parseMemberState,
    parseNumberOrNone, parseRaidDisks, type DiskstatsLines,
} from './sysfs';
import { MODULES_LOAD_SNAPSHOT_PATH, SYSCTL_SNAPSHOT_PATH, UDEV_SNAPSHOT_PATH, parsePersisted } from './tuning/keptFiles';
import { readIdPaths, udevChanged } from './udevData';


/**
 * What a build may reuse of the previous one (src/md/modelBuilder.ts): the snapshot's `changed`
 * paths are relative to the snapshot `previous` was built from, whose mdstat entries and sysfs
 * index these are.
 */
export interface PreviousInputs {
    changedPaths: ReadonlySet<string>;
    mdstat: ReadonlyMap<string, MdstatArray>;
    mdstatReused: MdstatReused;
    index: SysfsIndex;
    diskstats: DiskstatsLines;
}

export interface BuiltModel {
    model: HostModel;
    mdstat: Map<string, MdstatArray>;
    mdstatReused: MdstatReused;
    index: SysfsIndex;
    diskstats: DiskstatsLines;
}

/**
 * `takenAt` (ms, monotonic) dates the samples behind the ETA unless the host's /proc/uptime came with
 * the snapshot: read next to /proc/mdstat, it dates the progress exactly, whatever the latency.
 */
export function buildModel(snapshot: Snapshot, takenAt: number, previous: HostModel | null = null): HostModel {
    return buildModelReusing(snapshot, takenAt, previous, null).model;
}

/**
 * buildModel(), reusing the previous model's arrays and disks whose inputs did not change when
 * `inputs` says what changed. The result is the same as buildModel()'s (a unit test compares
 * them refresh by refresh); only the work differs.
 */
export function buildModelReusing(snapshot: Snapshot, takenAt: number, previous: HostModel | null,
    inputs: PreviousInputs | null): BuiltModel {
    const uptimeS = Number.parseFloat(readValue(snapshot, '/proc/uptime') ?? '');
    if (Number.isFinite(uptimeS)) takenAt = uptimeS * 1000;
    const problems: string[] = [];
    if (!snapshot.complete) problems.push('The host\'s answer was cut off; showing what arrived.');
    for (const root of snapshot.missingRoots) problems.push(`Cannot open the ${root} file system root.`);

    const mdstatText = snapshot.files.get('/proc/mdstat');
    const { mdstat, reused: mdstatReused } = parseMdstatReusing(mdstatText ?? '', inputs?.mdstatReused);
    problems.push(...mdstat.problems.map(p => `/proc/mdstat: ${p}`));

    const reuse = previous && inputs
        ? {
            previous, inputs, devices: changedDevices(inputs.changedPaths),
            memberArrays: arraysWithChangedMembers(inputs.changedPaths),
        }
        : null;
    const index = reuse?.inputs.index ?? indexSysfs(snapshot);
    const global = readGlobalSettings(path => readValue(snapshot, path));
    const previousArrays = new Map(previous?.arrays.map(a => [a.name, a]));
    const arrays = mdstat.arrays.map(a => {
        const before = previousArrays.get(a.name) ?? null;
        if (!sysfsEntryPresent(snapshot, a.name)) {
            problems.push(`${a.name}: listed in /proc/mdstat but its sysfs entry is gone (stopped meanwhile?).`);
        }
        if (!before || !reuse) return buildArray(snapshot, a, index, takenAt, before, null);
        const mdBefore = reuse.inputs.mdstat.get(a.name);
        if (arrayInputsUnchanged(before, a, mdBefore, reuse.devices)) return before;
        return buildArray(snapshot, a, index, takenAt, before,
            membersUnchanged(before, a, mdBefore, reuse.devices, reuse.memberArrays) ? before.members : null);
    });
    explainDelays(arrays);
    const disks = buildDisks(snapshot, index, reuse && !udevChanged(reuse.inputs.changedPaths)
        ? { disks: reuse.previous.disks, devices: reuse.devices } : null);
    const diskstats = parseDiskstatsReusing(readValue(snapshot, '/proc/diskstats'), reuse?.inputs.diskstats ?? new Map());
    const diskStats = diskstats.stats;
    recordIoSamples(arrays, diskStats, previousArrays, takenAt);

    const model: HostModel = {
        takenAt,
        mdAvailable: mdstatText !== undefined,
        personalities: mdstat.personalities,
        arrays,
        global,
        memory: parseMeminfo(readValue(snapshot, '/proc/meminfo')),
        pageSize: snapshot.pageSize ?? previous?.pageSize ?? null,
        disks,
        diskStats,
        backgroundJobs: backgroundJobs(filesUnder(snapshot, 'proc')),
        journal: parseJournal(snapshot.files.get(`/raidtune-state/${JOURNAL_FILE}`)),
        persisted: parsePersisted(snapshot.files.get(SYSCTL_SNAPSHOT_PATH), snapshot.files.get(UDEV_SNAPSHOT_PATH),
            snapshot.files.get(MODULES_LOAD_SNAPSHOT_PATH)),
        autoRestore: parseAutoRestore(filesUnder(snapshot, 'raidtune-state')),
        windowLimitsInForce: windowLimitsInForce(snapshot.files.get(`/raidtune-state/${WINDOW_LIMITS_ARMED}`),
            snapshot.files.get(`/raidtune-state/${WINDOW_LIMITS_HELD}`)),
        history: parseSyncHistory(filesUnder(snapshot, HISTORY_ROOT)),
        planRecord: parsePlanRecord(snapshot.files.get(`/raidtune-state/${PLAN_RECORD_FILE}`)),
        repairFlows: parseRepairFlows(filesUnder(snapshot, 'raidtune-state')),
        pausedChecks: parsePausedChecks(filesUnder(snapshot, 'raidtune-state')),
        systemd: snapshot.systemd === true,
        problems,
    };
    return {
        model: previous ? shareWithPrevious(previous, model, previousArrays) : model,
        mdstat: new Map(mdstat.arrays.map(a => [a.name, a])),
        mdstatReused,
        index,
        diskstats: diskstats.lines,
    };
}

/** The devices (/sys/block/NAME) among changed paths. */
function changedDevices(paths: ReadonlySet<string>): Set<string> {
    const devices = new Set<string>();
    for (const path of paths) {
        // A disk's enclosure slot is its own too (its locate LED turned on or off).
        const prefix = path.startsWith(SYS_BLOCK) ? SYS_BLOCK : path.startsWith(ENCLOSURE) ? ENCLOSURE : null;
        if (prefix === null) continue;
        const end = path.indexOf('/', prefix.length);
        devices.add(path.slice(prefix.length, end < 0 ? path.length : end));
    }
    return devices;
}

/** Where the gather's enclosure records are: /enclosure/DISK/WHAT. */
const ENCLOSURE = '/enclosure/';

/**
 * An idle array's model depends only on its mdstat entry and on what is read under its own and its
 * members' /sys/block entries. A syncing one also on time and on the disks' counters: rebuilt.
 */
function arrayInputsUnchanged(before: ArrayModel, md: MdstatArray, mdBefore: MdstatArray | undefined,
    devices: ReadonlySet<string>): boolean {
    return before.sync === null && md.sync === null && mdBefore !== undefined &&
        shareUnchanged(mdBefore, md) === mdBefore &&
        !devices.has(md.name) && before.members.every(m => !devices.has(m.disk));
}

/** Arrays with a changed path under one of their members (/sys/block/mdX/md/dev-NAME/...). */
function arraysWithChangedMembers(paths: ReadonlySet<string>): Set<string> {
    const arrays = new Set<string>();
    for (const path of paths) {
        if (!path.startsWith(SYS_BLOCK) || !path.includes('/md/dev-')) continue;
        arrays.add(path.slice(SYS_BLOCK.length, path.indexOf('/', SYS_BLOCK.length)));
    }
    return arrays;
}

/**
 * A member's model depends on its mdstat entry, its dev-NAME attributes and, for a partition, its
 * start under the disk's entry: a fast read (src/md/modelBuilder.ts) changes none of them.
 */
function membersUnchanged(before: ArrayModel, md: MdstatArray, mdBefore: MdstatArray | undefined,
    devices: ReadonlySet<string>, memberArrays: ReadonlySet<string>): boolean {
    return mdBefore !== undefined && !memberArrays.has(md.name) &&
        shareUnchanged(mdBefore.members, md.members) === mdBefore.members &&
        before.members.every(m => !devices.has(m.disk));
}

/**
 * Judged by array_state, which every read takes: a fast read keeps the level and other settings
 * of the last full read, so they still "exist" for an array stopped since.
 */
function sysfsEntryPresent(snapshot: Snapshot, name: string): boolean {
    return snapshot.files.has(`${SYS_BLOCK}${name}/md/array_state`);
}

/**
 * Reuse the previous refresh's objects where nothing changed (src/md/share.ts), so an idle array's
 * ArrayModel, its members and its disks stay the same objects and memoised cards skip them. Arrays
 * are matched by name (one stopped or created does not shift the others), the rest field by field.
 */
function shareWithPrevious(previous: HostModel, model: HostModel, previousArrays: Map<string, ArrayModel>): HostModel {
    const arrays = model.arrays.map(a => {
        const before = previousArrays.get(a.name);
        if (!before) return a;
        if (a.sync?.runState !== 'running' || !before.sync) return shareUnchanged(before, a);
        // A running sync is new at every refresh, and its sample lists are the previous ones plus
        // a sample (the same objects): comparing those hundreds of samples again finds nothing.
        const rest = shareUnchanged({ ...before, sync: null }, { ...a, sync: null });
        return { ...rest, sync: a.sync };
    });
    const sameList = arrays.length === previous.arrays.length && arrays.every((a, i) => a === previous.arrays[i]);
    const rest = shareUnchanged({ ...previous, arrays: [] }, { ...model, arrays: [] });
    return { ...rest, arrays: sameList ? previous.arrays : arrays };
}

/** `reusedMembers`: the previous model's members, when their inputs did not change. */
function buildArray(snapshot: Snapshot, md: MdstatArray, index: SysfsIndex, takenAt: number,
    previous: ArrayModel | null, reusedMembers: MemberModel[] | null): ArrayModel {
    const base = `/sys/block/${md.name}`;
    const attr = (name: string) => readValue(snapshot, `${base}/md/${name}`);
    const num = (name: string) => parseIntValue(attr(name));

    const level = attr('level') || md.level;
    const settings = readDeviceSettings(ARRAY_SETTINGS, { read: rel => readValue(snapshot, `${base}/${rel}`), level });
    const { speedMin, speedMax } = settings;
    const raidDisks = parseRaidDisks(attr('raid_disks'));
    const members = reusedMembers ?? buildMembers(snapshot, md, index);
    const raidDiskCount = raidDisks?.count ?? md.disks?.total ?? null;
    const missingSlots = findMissingSlots(raidDiskCount, members, md.status);
    const arrayState = attr('array_state');
    const sectors = parseIntValue(readValue(snapshot, `${base}/size`));
    const limits = { minKiBs: speedMin?.kiBs ?? null, maxKiBs: speedMax?.kiBs ?? null };
    const sync = buildSync(md, attr, raidDisks, arrayState, previous?.sync ?? null, takenAt,
        action => stoppedPosition(action, level, attr, members, sectors),
        limits, () => (previous ? rateAfterLimitChange(previous, limits) : null));
    if (sync?.runState === 'running') {
        sync.trend = addTrendSample(sync.trend, {
            at: takenAt, doneKiB: sync.doneKiB, totalKiB: sync.totalKiB, speedKiBs: sync.speedKiBs,
            minKiBs: speedMin?.kiBs ?? null, maxKiBs: speedMax?.kiBs ?? null,
        });
    }
    const chunk = parseChunkSize(attr('chunk_size'));
    const mismatchCount = num('mismatch_cnt');

    const array: ArrayModel = {
        ...settings,
        name: md.name,
        device: `/dev/${md.name}`,
        health: deriveHealth(md, arrayState, level, raidDiskCount, missingSlots, num('layout')),
        arrayState,
        readOnly: md.readOnly,
        level,
        sizeKiB: md.blocks ?? (sectors === null ? null : sectors / 2),
        metadata: md.super ?? attr('metadata_version'),
        chunkKiB: chunk?.bytes ? chunk.bytes / 1024 : md.chunkKiB,
        previousChunkKiB: chunk?.previousBytes ? chunk.previousBytes / 1024 : null,
        layout: num('layout'),
        partitions: (index.partitionsByDisk.get(md.name) ?? []).map(name => ({
            name, startSectors: parseIntValue(readValue(snapshot, `${base}/${name}/start`)),
        })),
        raidDisks: raidDiskCount,
        degradedDevices: num('degraded') ?? (md.disks ? md.disks.total - md.disks.active : null),
        missingSlots,
        uuid: attr('uuid'),
        bitmap: buildBitmap(md, attr),
        llbitmapOffered: bitmapTypesOffered(attr('bitmap_type')).includes('llbitmap'),
        consistencyPolicy: attr('consistency_policy'),
        members,
        sync,
        syncFrozen: attr('sync_action') === 'frozen',
        cappedByMax: sync?.runState === 'running' && speedMax !== null && sync.speedKiBs !== null &&
            sync.speedKiBs >= speedMax.kiBs * CAPPED_SHARE,
        mismatchCount,
        mismatchMeaning: mismatchCount === null ? null : mismatchMeaning(sync?.action ?? null, attr('last_sync_action')),
        stripeSizeBytes: settings.stripeCache === null ? null : num('stripe_size'),
        lastSyncAction: attr('last_sync_action'),
        // "max" (no bound) parses as null.
        syncMaxSectors: parseIntValue(attr('sync_max')),
    };
    if (sync) sync.stall = syncStall(array, takenAt);
    return array;
}

function buildMembers(snapshot: Snapshot, md: MdstatArray, index: SysfsIndex): MemberModel[] {
    const names = new Set([...md.members.map(m => m.name), ...(index.membersOf.get(md.name) ?? [])]);
    const devPrefix = `/sys/block/${md.name}/md/dev-`;
    const byName = new Map(md.members.map(m => [m.name, m]));
    const members = [...names].map(name =>
        buildMember(snapshot, `${devPrefix}${name}`, name, byName.get(name) ?? null, index.partitionsOf));
    return members.sort(compareMembers);
}

function buildMember(snapshot: Snapshot, dir: string, name: string, listed: MdstatMember | null,
    partitionsOf: Map<string, string>): MemberModel {
    const states = parseMemberState(readValue(snapshot, `${dir}/state`));
    const flags = listed?.flags ?? [];
    const slot = parseNumberOrNone(readValue(snapshot, `${dir}/slot`));
    const recoveryStart = parseNumberOrNone(readValue(snapshot, `${dir}/recovery_start`));
    const has = (state: string, flag: string) => states.includes(state) || (flags as string[]).includes(flag);
    let role: MemberRole;
    if (has('faulty', 'faulty')) role = 'faulty';
    else if (has('journal', 'journal')) role = 'journal';
    else if (has('replacement', 'replacement')) role = 'replacement';
    else if (states.includes('in_sync')) role = 'active';
    else if (slot !== null) role = 'rebuilding';
    else if (has('spare', 'spare')) role = 'spare';
    else role = states.length === 0 && !flags.includes('spare') ? 'active' : 'spare';
    const disk = partitionsOf.get(name);
    return {
        name,
        disk: disk ?? name,
        descriptor: listed?.role ?? null,
        slot,
        role,
        writeMostly: has('writemostly', 'write-mostly'),
        states,
        errors: parseIntValue(readValue(snapshot, `${dir}/errors`)),
        recoveryStartSectors: recoveryStart,
        startSectors: disk ? parseIntValue(readValue(snapshot, `${SYS_BLOCK}${disk}/${name}/start`)) : 0,
        dataOffsetSectors: parseIntValue(readValue(snapshot, `${dir}/offset`)),
    };
}

const ROLE_ORDER: MemberRole[] = ['active', 'rebuilding', 'replacement', 'journal', 'spare', 'faulty'];

// One collator: localeCompare() with options builds a new one per call (slow with 2048 members).
const NAME_ORDER = new Intl.Collator(undefined, { numeric: true });

function compareMembers(a: MemberModel, b: MemberModel): number {
    return ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role) ||
        (a.slot ?? Infinity) - (b.slot ?? Infinity) ||
        NAME_ORDER.compare(a.name, b.name);
}

/** Slots with no working member. Sysfs slots when known, else the `[UU_]` pattern's gaps. */
function findMissingSlots(raidDisks: number | null, members: MemberModel[], status: string | null): number[] {
    const haveSysfsSlots = members.some(m => m.slot !== null);
    if (raidDisks !== null && haveSysfsSlots) {
        const working = new Set(members.filter(m => m.role === 'active' || m.role === 'replacement').map(m => m.slot));
        return Array.from({ length: raidDisks }, (_, i) => i).filter(i => !working.has(i));
    }
    return status ? [...status].flatMap((c, i) => (c === '_' ? [i] : [])) : [];
}

function deriveHealth(md: MdstatArray, arrayState: string | null, level: string | null, raidDisks: number | null,
    missingSlots: number[], layout: number | null): ArrayHealth {
    if (md.state === 'inactive' || arrayState === 'inactive' || arrayState === 'clear') return 'inactive';
    const missing = missingSlots.length;
    if (missing > 0) {
        const lost = level === 'raid10' && raidDisks !== null
            ? raid10GroupLost(raidDisks, raid10Copies(layout), missingSlots)
            : missing > (failuresTolerated(level, raidDisks) ?? missing);
        return lost ? 'failed' : 'degraded';
    }
    if (md.readOnly || arrayState === 'readonly' || arrayState === 'read-auto') return 'read-only';
    return 'clean';
}

/** Arrays on the same disks resync one at a time; name the running one a DELAYED array waits for. */
function explainDelays(arrays: ArrayModel[]): void {
    const disksOf = (a: ArrayModel) => new Set(a.members.map(m => m.disk));
    const running = arrays.filter(a => a.sync?.runState === 'running');
    for (const array of arrays) {
        if (array.sync?.runState !== 'delayed') continue;
        const mine = disksOf(array);
        array.sync.waitingFor = running
            .filter(other => [...disksOf(other)].some(d => mine.has(d)))
            .map(other => other.name);
    }
}

/**
 * A disk whose /sys/block entry and enclosure slot did not change reuses its model (2048 disks at
 * 128 arrays). `reuse` is null when udev's database changed (disks came or went): all are rebuilt.
 */
function buildDisks(snapshot: Snapshot, index: SysfsIndex,
    reuse: { disks: ReadonlyMap<string, DiskModel>; devices: ReadonlySet<string> } | null,
): ReadonlyMap<string, DiskModel> {
    // The index is the last one, so are the disks: when none of them changed, so is their map.
    if (reuse && ![...reuse.devices].some(device => reuse.disks.has(device))) return reuse.disks;
    const disks = new Map<string, DiskModel>();
    let idPaths: ReadonlyMap<string, string> | null = null;
    for (const name of index.disks) {
        const before = reuse && !reuse.devices.has(name) ? reuse.disks.get(name) : undefined;
        disks.set(name, before ?? buildDisk(snapshot, name, idPaths ??= readIdPaths(snapshot)));
    }
    return disks;
}

function buildDisk(snapshot: Snapshot, name: string, idPaths: ReadonlyMap<string, string>): DiskModel {
    const base = `${SYS_BLOCK}${name}`;
    const read = (rel: string) => readValue(snapshot, `${base}/${rel}`);
    const num = (rel: string) => parseIntValue(read(rel));
    const rotational = num('queue/rotational');
    return {
        ...readDeviceSettings(DISK_SETTINGS, { read, level: null }),
        name,
        rotational: rotational === null ? null : rotational === 1,
        hwTags: num('mq/0/nr_tags'),
        readAheadKiB: num('queue/read_ahead_kb'),
        wwid: read('device/wwid') ?? read('wwid'),
        // QEMU's virtio disks without serial= show an empty file.
        serial: (read('device/serial') ?? read('serial'))?.trim() || null,
        enclosureSlot: readEnclosureSlot(snapshot, name),
        byPath: idPaths.get(read('dev') ?? '') ?? null,
    };
}

/** The disk's enclosure slot, from the gather's /enclosure/DISK/ records (src/host/gatherScript.ts). */
function readEnclosureSlot(snapshot: Snapshot, disk: string): EnclosureSlot | null {
    const read = (what: string) => readValue(snapshot, `${ENCLOSURE}${disk}/${what}`);
    const enclosure = read('enclosure');
    const component = read('component');
    if (!enclosure || !component) return null;
    const locate = read('locate');
    return {
        enclosure, component, slot: parseIntValue(read('slot')),
        locate: locate === '1' ? true : locate === '0' ? false : null,
    };
}

