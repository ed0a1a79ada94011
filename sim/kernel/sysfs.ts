// SPDX-License-Identifier: LGPL-2.1-or-later
// The /sys/block tree: per md array its md/ attributes (only those its personality has, as the
// kernel's sysfs groups do), per member dev-X/, and per block device size, ro and queue files.
// Values use the kernel's exact formats ("1000 (system)", "123 / 456", "4 (3)", "[none] mq-deadline ").

import { arrayBlockBytes, arrayStateName, degradedCount, isStarted, loadActive } from '../model/array';
import { arraySectors, isParityLevel, isRedundant, parityDisks, STRIPE_SIZE_BYTES } from '../model/levels';
import { mismatchCount } from '../model/sync';
import { enclosureSlotName, SIM_ENCLOSURE } from '../model/devices';
import { diskSerial, diskWwid } from '../model/identity';
import type { Bitmap, BlockQueue, Disk, HostState, MdArray, Member, PartitionPlace } from '../model/types';
import { windowSpeedKiBs } from '../physics/progress';
import { cacheBoundedLimit, effectiveLimits } from '../physics/speed';
import { WRITABLE_ARRAY_ATTRIBUTES, WRITABLE_QUEUE_ATTRIBUTES } from '../writes/attributes';
import type { FileSet } from './files';

/** Member state flags in the order the kernel's state_show prints them. */
function memberState(member: Member): string {
    const words: string[] = [];
    if (member.faulty) words.push('faulty');
    if (member.inSync) words.push('in_sync');
    if (member.flags.has('write_mostly')) words.push('write_mostly');
    if (member.flags.has('blocked')) words.push('blocked');
    if (!member.faulty && !member.inSync) words.push('spare');
    if (member.flags.has('write_error')) words.push('write_error');
    if (member.flags.has('want_replacement')) words.push('want_replacement');
    if (member.flags.has('replacement')) words.push('replacement');
    if (member.flags.has('failfast')) words.push('failfast');
    return words.join(',');
}

/** sync_speed_min|max, sync_io_depth: the value that applies, and whose it is. */
function localOrSystem(value: number, local: boolean): string {
    return `${value} (${local ? 'local' : 'system'})`;
}

/** "none", "delayed" while waiting for another array, else "done / total" in sectors. */
function syncCompleted(array: MdArray): string {
    const sync = array.sync;
    if (!sync) return 'none';
    return sync.status === 'delayed' ? 'delayed' : `${sync.completed} / ${sync.total}`;
}

function syncSpeed(array: MdArray, now: number): string {
    const sync = array.sync;
    if (!sync) return 'none';
    return sync.status === 'delayed' ? '0' : String(windowSpeedKiBs(sync, now));
}

function consistencyPolicy(array: MdArray): string {
    if (!isStarted(array)) return 'unknown';
    if (array.bitmap) return 'bitmap';
    return isRedundant(array.level) ? 'resync' : 'none';
}

function renderQueue(files: FileSet, dir: string, queue: BlockQueue, isMd: boolean): void {
    const writable = (name: string) => WRITABLE_QUEUE_ATTRIBUTES.includes(name);
    files.attribute(`${dir}/queue/read_ahead_kb`, queue.readAheadKiB, writable('read_ahead_kb'));
    files.attribute(`${dir}/queue/nr_requests`, queue.nrRequests, writable('nr_requests'));
    files.attribute(`${dir}/queue/rotational`, queue.rotational ? 1 : 0);
    // A bio-based device (md) has no elevator: plain "none". Others list all, current in brackets.
    const scheduler = isMd ? 'none' : ['none', ...queue.schedulers]
        .map(name => name === queue.scheduler ? `[${name}] ` : `${name} `).join('');
    files.attribute(`${dir}/queue/scheduler`, scheduler, writable('scheduler'));
}

function renderBlockSizes(files: FileSet, dir: string, sizes: { logical: number; physical: number }): void {
    files.attribute(`${dir}/queue/logical_block_size`, sizes.logical);
    files.attribute(`${dir}/queue/physical_block_size`, sizes.physical);
}

function renderMembers(files: FileSet, dir: string, array: MdArray): void {
    for (const member of array.members) {
        const memberDir = `${dir}/md/dev-${member.name}`;
        files.attribute(`${memberDir}/state`, memberState(member));
        files.attribute(`${memberDir}/slot`, member.slot ?? 'none');
        files.attribute(`${memberDir}/errors`, member.errors);
        files.attribute(`${memberDir}/offset`, member.dataOffset);
        files.attribute(`${memberDir}/recovery_start`, member.inSync || member.recoveryOffset === null ? 'none' : member.recoveryOffset);
    }
}

/** "[none] bitmap ", "none bitmap [llbitmap] ": every kind this kernel has, the array's in brackets. */
function bitmapType(kinds: string[], current: string): string {
    return ['none', ...kinds].map(kind => (kind === current ? `[${kind}] ` : `${kind} `)).join('');
}

/** md's llbitmap/ writes its daemon's period and the bitmap's place after the superblock, in sectors. */
const LLBITMAP_DAEMON_SLEEP_S = 30;
const LLBITMAP_OFFSET_SECTORS = 16;

/**
 * md/llbitmap/bits and metadata (md-llbitmap.c's formats). The written and marked chunks lie evenly
 * over the device: a resync has synced the marked ones behind its position, one is in hand.
 */
function renderLlbitmap(array: MdArray, bitmap: Bitmap, attr: (name: string, value: string | number) => void): void {
    const chunkSectors = bitmap.chunkBytes / 512;
    const chunks = Math.ceil(array.componentSectors / chunkSectors);
    const written = Math.round(chunks * bitmap.writtenShare);
    const resync = array.sync?.action === 'resync' && array.sync.status === 'running' ? array.sync : null;
    const marked = Math.round(chunks * bitmap.needSyncShare * (resync ? 1 - resync.position / resync.total : 1));
    const syncing = resync ? Math.min(marked, 1) : 0;
    attr('llbitmap/bits', `unwritten ${chunks - written}\nclean ${written - marked}\ndirty 0\n` +
        `need sync ${marked - syncing}\nsyncing ${syncing}\n`);
    attr('llbitmap/metadata', `chunksize ${chunkSectors}\nchunkshift ${Math.log2(chunkSectors)}\nchunks ${chunks}\n` +
        `offset ${LLBITMAP_OFFSET_SECTORS}\ndaemon_sleep ${LLBITMAP_DAEMON_SLEEP_S}\n`);
}

/**
 * 6.1 always has bitmap/ (location "none" without a bitmap); newer kernels have md/bitmap_type
 * and bitmap/ only while the classic bitmap runs (its sysfs group comes and goes with it).
 */
function renderBitmap(state: HostState, array: MdArray, attr: (name: string, value: string | number) => void): void {
    const started = isStarted(array);
    const kinds = state.kernel.bitmapTypes;
    if (kinds) attr('bitmap_type', bitmapType(kinds, array.bitmap?.kind ?? 'none'));
    if (started && array.bitmap?.kind === 'llbitmap') renderLlbitmap(array, array.bitmap, attr);
    if (kinds && !(started && array.bitmap?.kind === 'bitmap')) return;
    attr('bitmap/location', started && array.bitmap ? array.bitmap.location : 'none');
    // After a removal md still reads the chunk size of the bitmap it had (checked on Linux 6.1).
    attr('bitmap/chunksize', !started ? 0 : array.bitmap ? array.bitmap.chunkBytes : array.removedBitmapChunkBytes ?? 0);
}

function renderArray(files: FileSet, state: HostState, array: MdArray): void {
    const dir = `sys/block/${array.name}`;
    const md = `${dir}/md`;
    const started = isStarted(array);
    const attr = (name: string, value: string | number) =>
        files.attribute(`${md}/${name}`, value, WRITABLE_ARRAY_ATTRIBUTES.includes(name));

    files.attribute(`${dir}/size`, started ? arraySectors(array) : 0);
    files.attribute(`${dir}/ro`, array.baseState === 'readonly' ? 1 : 0);
    renderQueue(files, dir, array.queue, true);
    renderBlockSizes(files, dir, arrayBlockBytes(array));

    attr('level', array.level);
    attr('raid_disks', array.reshape ? `${array.raidDisks} (${array.reshape.fromRaidDisks})` : array.raidDisks);
    attr('chunk_size', array.chunkKiB * 1024);
    attr('layout', array.layout);
    attr('metadata_version', array.metadata);
    // Striped and linear arrays have no per-device size: their members may differ.
    attr('component_size', isRedundant(array.level) ? array.componentSectors / 2 : 0);
    attr('uuid', array.uuid);
    attr('array_state', arrayStateName(array, state.time));
    attr('reshape_position', array.reshape ? array.reshape.checkpoint * (array.raidDisks - parityDisks(array.level)) : 'none');
    attr('resync_start', array.resyncCheckpoint ?? 'none');
    attr('consistency_policy', consistencyPolicy(array));
    renderBitmap(state, array, attr);
    renderMembers(files, dir, array);
    // A stopped array's partitions are gone with its block device's contents.
    if (started) renderPartitions(files, dir, array.partitions);
    if (!started || !isRedundant(array.level)) return;

    // The redundancy group: only personalities with a sync_request have it.
    const limits = effectiveLimits(state, array);
    attr('degraded', degradedCount(array));
    attr('sync_action', array.frozen ? 'frozen' : array.sync?.action ?? 'idle');
    attr('last_sync_action', array.lastSyncAction);
    attr('sync_completed', syncCompleted(array));
    attr('sync_max', array.syncMax ?? 'max');
    attr('sync_speed', syncSpeed(array, state.time));
    attr('mismatch_cnt', mismatchCount(array));
    // md's resync_min: 0 after a check or repair completed, its checkpoint after one was interrupted.
    attr('sync_min', array.requestedStart);
    attr('sync_speed_min', localOrSystem(limits.min, array.localSpeedMin !== null));
    attr('sync_speed_max', localOrSystem(limits.max, array.localSpeedMax !== null));
    // Only kernels with the sysctl have the attribute (both came with the same change).
    if (state.kernel.syncIoDepth !== null) attr('sync_io_depth', localOrSystem(array.localSyncIoDepth ?? state.kernel.syncIoDepth, array.localSyncIoDepth !== null));
    if (!isParityLevel(array.level)) return;
    attr('stripe_cache_size', array.stripeCacheSize);
    attr('stripe_size', STRIPE_SIZE_BYTES);
    attr('stripe_cache_active', stripeCacheActive(state, array));
    attr('group_thread_cnt', array.groupThreadCnt);
}

/**
 * Stripes in use: a sync that saturates its disks (or, on disks that seek, its cache) keeps the
 * cache nearly full, one held back
 * by its speed limit (sleeping between windows) leaves it nearly empty; writes use a few.
 */
function stripeCacheActive(state: HostState, array: MdArray): number {
    const sync = array.sync;
    if (sync?.status === 'running') {
        const pressure = Math.min(1, sync.rateKiBs / cacheBoundedLimit(array));
        return Math.floor(array.stripeCacheSize * 0.95 * pressure);
    }
    const writing = loadActive(array.competingIo, state.time) && array.competingIo.writeKiBs > 0;
    return writing ? Math.min(array.stripeCacheSize, 64) : 0;
}

function renderDisk(files: FileSet, disk: Disk): void {
    const dir = `sys/block/${disk.name}`;
    files.attribute(`${dir}/size`, disk.sizeSectors);
    files.attribute(`${dir}/ro`, 0);
    files.attribute(`${dir}/dev`, `${disk.major}:${disk.minor}`);
    renderQueue(files, dir, disk.queue, false);
    renderBlockSizes(files, dir, { logical: disk.logicalBlockBytes, physical: disk.physicalBlockBytes });
    // blk-mq's tags per hardware queue: without a scheduler nr_requests may not exceed them.
    files.attribute(`${dir}/mq/0/nr_tags`, disk.queue.hwTags);
    if (disk.queueDepth) files.attribute(`${dir}/device/queue_depth`, disk.queueDepth.value, true);
    const wwid = diskWwid(disk);
    if (wwid) files.attribute(`${dir}/${wwid.file}`, wwid.value);
    const serial = diskSerial(disk);
    if (serial) files.attribute(`${dir}/${serial.file}`, serial.value);
    renderPartitions(files, dir, disk.partitions);
}

function renderPartitions(files: FileSet, dir: string, partitions: PartitionPlace[]): void {
    for (const partition of partitions) {
        const partDir = `${dir}/${partition.name}`;
        files.attribute(`${partDir}/partition`, partition.number);
        files.attribute(`${partDir}/start`, partition.startSector);
        files.attribute(`${partDir}/size`, partition.sizeSectors);
    }
}

/**
 * The SES enclosure the SAS disks sit in, as the kernel's ses driver lists it: a folder per slot
 * (its number in `slot`, Linux 4.x and later; its locate LED in `locate`), whose `device` is the
 * SCSI device, with the disk under its block/ folder.
 */
function renderEnclosureSlot(files: FileSet, disk: Disk): void {
    if (!disk.enclosureSlot) return;
    const dir = `sys/class/enclosure/${SIM_ENCLOSURE}/${enclosureSlotName(disk.enclosureSlot.number)}`;
    files.attribute(`${dir}/slot`, disk.enclosureSlot.number);
    files.attribute(`${dir}/locate`, disk.enclosureSlot.locate ? 1 : 0, true);
    files.attribute(`${dir}/fault`, 0, true);
    files.attribute(`${dir}/device/block/${disk.name}/dev`, `${disk.major}:${disk.minor}`);
}

export function renderSysfs(files: FileSet, state: HostState): void {
    for (const disk of state.disks) {
        renderDisk(files, disk);
        renderEnclosureSlot(files, disk);
    }
    for (const array of state.arrays) renderArray(files, state, array);
}
