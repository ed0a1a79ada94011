// SPDX-License-Identifier: LGPL-2.1-or-later
// Writes into the tree's attribute files (`echo X | tee FILE`), applied to the host state the
// way the kernel's store functions apply them: same parsing, same limits, same clamping, same
// refusals. A refused write leaves the old value, so the file is put back.

import { isReadOnly, isStarted } from '../model/array';
import { defaultNrRequests, enclosureSlotName, SIM_ENCLOSURE } from '../model/devices';
import { isParityLevel, isRedundant } from '../model/levels';
import { interruptSync } from '../model/sync';
import type { BlockQueue, Disk, HostState, MdArray } from '../model/types';
import { matchesCommand, parseLenientUnsigned, parseProcInt, parseUnsigned, UINT_MAX, type Errno, type Parsed } from './parse';

/** Attribute names the simulator accepts writes to (the renderers mark exactly these writable). */
export const WRITABLE_PROC_ATTRIBUTES = ['speed_limit_min', 'speed_limit_max', 'sync_io_depth'];
export const WRITABLE_ARRAY_ATTRIBUTES = ['sync_speed_min', 'sync_speed_max', 'sync_io_depth', 'stripe_cache_size', 'group_thread_cnt', 'sync_action', 'sync_max'];
export const WRITABLE_QUEUE_ATTRIBUTES = ['read_ahead_kb', 'nr_requests', 'scheduler'];

export type WriteOutcome = { applied: true } | { applied: false; error: Errno | 'not simulated' };

const APPLIED: WriteOutcome = { applied: true };
const refuse = (error: Errno | 'not simulated'): WriteOutcome => ({ applied: false, error });

/** Larger queue_depth writes than the SCSI host can queue are refused; up to it they are clamped. */
const SCSI_CAN_QUEUE = 1023;
/** With a scheduler, nr_requests may grow up to the scheduler tag limit. */
const MAX_SCHED_REQUESTS = 2048;
const MIN_REQUESTS = 4;

/** Run `set` with the parsed number, or report the parse error. */
function withNumber(parsed: Parsed, set: (value: number) => WriteOutcome | void): WriteOutcome {
    return 'error' in parsed ? refuse(parsed.error) : set(parsed.value) ?? APPLIED;
}

/** All three are proc_dointvec: any int is taken, 0 and negative ones too (md.c raid_table). */
function writeSysctl(state: HostState, name: string, text: string): WriteOutcome {
    return withNumber(parseProcInt(text), value => {
        if (name === 'speed_limit_min') state.kernel.speedLimitMin = value;
        else if (name === 'speed_limit_max') state.kernel.speedLimitMax = value;
        else state.kernel.syncIoDepth = value;
    });
}

/**
 * sync_speed_min/max and sync_io_depth: "system" (prefix match, like the kernel) or kstrtouint > 0,
 * kept in an int (a value above INT_MAX reads back negative, as md.c's "%d" prints it).
 */
function writeLocalOrSystem(array: MdArray, which: 'localSpeedMin' | 'localSpeedMax' | 'localSyncIoDepth', text: string): WriteOutcome {
    if (text.startsWith('system')) {
        array[which] = null;
        return APPLIED;
    }
    return withNumber(parseUnsigned(text, UINT_MAX), value => {
        if (value === 0) return refuse('EINVAL');
        array[which] = value | 0;
    });
}

/**
 * sync_action: idle interrupts (md then resumes whatever is still needed), frozen interrupts
 * and holds. Other commands are refused while a sync thread exists. resync/recover only
 * unfreeze (md decides what is needed); check/repair are requested. reshape is not simulated.
 */
function writeSyncAction(array: MdArray, text: string): WriteOutcome {
    const is = (command: string) => matchesCommand(text, command);
    if (is('idle') || is('frozen')) {
        interruptSync(array);
        array.frozen = is('frozen');
    } else if (array.sync) {
        return refuse('EBUSY');
    } else if (is('resync') || is('recover')) {
        array.frozen = false;
    } else if (is('check') || is('repair')) {
        array.frozen = false;
        array.requested = is('check') ? 'check' : 'repair';
    } else if (is('reshape')) {
        return refuse('not simulated');
    } else {
        return refuse('EINVAL');
    }
    // Any sync_action write takes an auto-read-only array read-write.
    if (array.baseState === 'read-auto') array.baseState = 'clean';
    return APPLIED;
}

/**
 * sync_max (max_sync_store): "max" (prefix match) or a sector count, not below sync_min, a multiple
 * of the chunk; while a sync runs on a read-write array it may be raised, never lowered (EBUSY).
 */
function writeSyncMax(array: MdArray, text: string): WriteOutcome {
    if (text.startsWith('max')) {
        array.syncMax = null;
        return APPLIED;
    }
    return withNumber(parseUnsigned(text), value => {
        if (value < array.requestedStart) return refuse('EINVAL');
        if (value < (array.syncMax ?? Infinity) && array.sync && !isReadOnly(array)) return refuse('EBUSY');
        if (array.chunkKiB > 0 && value % (array.chunkKiB * 2) !== 0) return refuse('EINVAL');
        array.syncMax = value;
    });
}

function writeArrayAttribute(array: MdArray, name: string, text: string): WriteOutcome {
    if (!isStarted(array) || !isRedundant(array.level)) return refuse('EINVAL');
    switch (name) {
        case 'sync_speed_min': return writeLocalOrSystem(array, 'localSpeedMin', text);
        case 'sync_speed_max': return writeLocalOrSystem(array, 'localSpeedMax', text);
        case 'sync_io_depth': return writeLocalOrSystem(array, 'localSyncIoDepth', text);
        case 'sync_action': return writeSyncAction(array, text);
        case 'sync_max': return writeSyncMax(array, text);
    }
    if (!isParityLevel(array.level)) return refuse('EINVAL');
    // Parse failures of these two are EINVAL whatever the cause (the raid5 store functions say so).
    const parsed = parseUnsigned(text);
    if ('error' in parsed) return refuse('EINVAL');
    if (name === 'stripe_cache_size') {
        if (parsed.value <= 16 || parsed.value > 32768) return refuse('EINVAL');
        array.stripeCacheSize = parsed.value;
    } else {
        if (parsed.value > 8192) return refuse('EINVAL');
        array.groupThreadCnt = parsed.value;
    }
    return APPLIED;
}

function writeQueueAttribute(state: HostState, queue: BlockQueue, isMd: boolean, name: string,
    text: string): WriteOutcome {
    switch (name) {
        case 'read_ahead_kb':
            return withNumber(parseUnsigned(text), value => {
                if (value > UINT_MAX) return refuse('EINVAL');
                // Kept in pages: the value reads back rounded down to a page multiple.
                const kibPerPage = state.kernel.pageSize / 1024;
                queue.readAheadKiB = Math.floor(value / kibPerPage) * kibPerPage;
            });
        case 'nr_requests':
            if (isMd) return refuse('EINVAL'); // bio-based: no request queue to size
            return withNumber(parseUnsigned(text), value => {
                const max = queue.scheduler === 'none' ? queue.hwTags : MAX_SCHED_REQUESTS;
                if (value > max) return refuse('EINVAL');
                queue.nrRequests = Math.max(MIN_REQUESTS, value);
            });
        default: {
            if (isMd) return APPLIED; // accepted and ignored: md has no elevator
            const wanted = text.trim();
            if (wanted !== 'none' && !queue.schedulers.includes(wanted)) return refuse('EINVAL');
            if (wanted !== queue.scheduler) {
                queue.scheduler = wanted;
                queue.nrRequests = defaultNrRequests(wanted, queue.hwTags);
            }
            return APPLIED;
        }
    }
}

function writeQueueDepth(disk: Disk, text: string): WriteOutcome {
    const depth = parseLenientUnsigned(text);
    if (!disk.queueDepth || depth < 1 || depth > SCSI_CAN_QUEUE) return refuse('EINVAL');
    disk.queueDepth.value = Math.min(depth, disk.queueDepth.max);
    return APPLIED;
}

/** Apply a write to the file at `path` (relative to the root); null when the simulator has no such writable file. */
export function applyAttributeWrite(state: HostState, path: string, text: string): WriteOutcome | null {
    // A kernel without the sysctl has no sync_io_depth file anywhere.
    if (state.kernel.syncIoDepth === null && path.endsWith('/sync_io_depth')) return null;
    let match = /^proc\/sys\/dev\/raid\/(\w+)$/.exec(path);
    if (match && WRITABLE_PROC_ATTRIBUTES.includes(match[1])) return writeSysctl(state, match[1], text);

    match = /^sys\/block\/(md\d+)\/md\/(\w+)$/.exec(path);
    const array = match ? state.arrays.find(a => a.name === match![1]) : undefined;
    if (match && array && WRITABLE_ARRAY_ATTRIBUTES.includes(match[2])) {
        return writeArrayAttribute(array, match[2], text);
    }

    match = /^sys\/block\/([^/]+)\/queue\/(\w+)$/.exec(path);
    if (match && WRITABLE_QUEUE_ATTRIBUTES.includes(match[2])) {
        const md = state.arrays.find(a => a.name === match![1]);
        const disk = state.disks.find(d => d.name === match![1]);
        if (md) return writeQueueAttribute(state, md.queue, true, match[2], text);
        if (disk) return writeQueueAttribute(state, disk.queue, false, match[2], text);
    }

    match = /^sys\/block\/([^/]+)\/device\/queue_depth$/.exec(path);
    const disk = match ? state.disks.find(d => d.name === match![1]) : undefined;
    if (disk) return writeQueueDepth(disk, text);

    // The ses driver's locate LED: any number but 0 turns it on (what ledctl locate= writes).
    match = /^sys\/class\/enclosure\/([^/]+)\/([^/]+)\/locate$/.exec(path);
    const slotted = match && match[1] === SIM_ENCLOSURE
        ? state.disks.find(d => d.enclosureSlot && enclosureSlotName(d.enclosureSlot.number) === match![2]) : undefined;
    if (slotted?.enclosureSlot) {
        slotted.enclosureSlot.locate = parseLenientUnsigned(text) !== 0;
        return APPLIED;
    }
    return null;
}
