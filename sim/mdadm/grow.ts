// SPDX-License-Identifier: LGPL-2.1-or-later
// What mdadm 4.2's Grow_addbitmap and the kernel do with a bitmap request, applied to the
// simulated host's state: the same checks in the same order, the same messages and exit codes
// as checked on Linux 6.1 + mdadm 4.2 (/work/shared/notes/md-interface.md, "Checked on a real
// kernel"), then the change itself. Runs inside the simulator, on its live state.

import { isReadOnly, isStarted } from '../model/array';
import { isRedundant, syncTotalSectors } from '../model/levels';
import { neededSync } from '../model/sync';
import type { HostState, MdArray } from '../model/types';
import type { BitmapRequest, MdadmOutcome } from './args';

const OK: MdadmOutcome = { exitCode: 0, stdout: '', stderr: '' };

function fail(...lines: string[]): MdadmOutcome {
    return { exitCode: 1, stdout: '', stderr: lines.map(line => `mdadm: ${line}\n`).join('') };
}

/**
 * md refuses bitmap changes (EBUSY) while mddev->recovery has any bit set: a sync running or
 * waiting for the disks, one about to start, or a frozen sync_action (checked: even frozen).
 */
function isBusy(array: MdArray): boolean {
    return array.sync !== null || array.frozen || neededSync(array) !== null;
}

/**
 * Bytes mdadm left for the bitmap between superblock and data when it created the array,
 * from the member's data size (super1.c choose_bm_space(); 0.90 has a fixed 60 KiB).
 */
function bitmapSpaceBytes(componentSectors: number, metadata: string): number {
    if (metadata === '0.90') return 60 * 1024;
    if (componentSectors - 64 * 2 >= 200 * 1024 * 1024 * 2) return 128 * 1024;
    if (componentSectors - 4 * 2 > 8 * 1024 * 1024 * 2) return 64 * 1024;
    return 4 * 1024;
}

const BITMAP_SUPER_BYTES = 256;
/** mdadm's default: "for practical purpose, 64Meg is a good default chunk size". */
const DEFAULT_CHUNK_BYTES = 64 * 1024 * 1024;

/** add_internal_bitmap1(): the smallest chunk whose bits fit in the bitmap space. */
export function smallestChunkBytes(array: MdArray): number {
    const maxBits = (bitmapSpaceBytes(array.componentSectors, array.metadata) - BITMAP_SUPER_BYTES) * 8;
    let chunk = 4096; // "sub-page chunks don't work yet"
    // What the bitmap spans: a member's data, the whole array for raid10 (mdadm's bitmapsize).
    let bits = Math.floor((syncTotalSectors(array, 'resync') * 512) / chunk) + 1;
    while (bits > maxBits) {
        chunk *= 2;
        bits = Math.floor((bits + 1) / 2);
    }
    return chunk;
}

function removeBitmap(array: MdArray, device: string): MdadmOutcome {
    if (!array.bitmap) return fail(`no bitmap found on ${device}`);
    // SET_ARRAY_INFO: EBUSY while syncing, EROFS on a read-only array (the latter not checked on a real kernel).
    if (isBusy(array) || isReadOnly(array)) return fail('failed to remove internal bitmap.');
    // md takes a lockless bitmap away only while the array is stopped (bitmap_type): SET_ARRAY_INFO
    // fails. The message is mdadm's for any such failure; not checked on a real kernel.
    if (array.bitmap.kind === 'llbitmap') return fail('failed to remove internal bitmap.');
    array.removedBitmapChunkBytes = array.bitmap.chunkBytes;
    array.bitmap = null;
    return OK;
}

function addBitmap(array: MdArray, device: string, chunkBytes: number | null): MdadmOutcome {
    if (array.bitmap) return fail(`bitmap already present on ${device}`);
    if (!isRedundant(array.level)) return fail(`Bitmaps not meaningful with level ${array.level}`);
    // mdadm writes the bitmap's superblock to the members first, so a bad chunk is found before md is asked.
    const smallest = smallestChunkBytes(array);
    const chunk = chunkBytes ?? Math.max(smallest, DEFAULT_CHUNK_BYTES);
    if (chunk < smallest) return fail('failed to create internal bitmap - chunksize problem.');
    // Then the write of bitmap/location: EBUSY while syncing (EROFS: not checked on a real kernel).
    if (isBusy(array)) return fail('Cannot add bitmap while array is resyncing or reshaping etc.', 'failed to set internal bitmap.');
    if (isReadOnly(array)) return fail('failed to set internal bitmap.');
    // 4 KiB after the superblock for 1.1/1.2 (and after 0.90's); 1.0's would sit before its superblock: see README.
    array.bitmap = { kind: 'bitmap', chunkBytes: chunk, location: '+8', allocatedPages: null, writtenShare: 1, needSyncShare: 0 };
    return OK;
}

/** Apply `mdadm --grow DEVICE --bitmap=...` to the host; what mdadm prints and its exit status. */
export function growBitmap(state: HostState, request: BitmapRequest): MdadmOutcome {
    const array = state.arrays.find(a => a.name === request.array);
    if (!array) return fail(`error opening ${request.device}: No such file or directory`);
    // GET_ARRAY_INFO fails on an array that is not running (message not checked on a real kernel).
    if (!isStarted(array)) return fail(`cannot get array status for ${request.device}`);
    return request.bitmap === 'none' ? removeBitmap(array, request.device) : addBitmap(array, request.device, request.chunkBytes);
}
