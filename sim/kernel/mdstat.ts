// SPDX-License-Identifier: LGPL-2.1-or-later
// /proc/mdstat byte for byte as Linux's md_seq_show, the personalities' status functions,
// status_resync and md_bitmap_status print it (written from their documented output and the
// real-kernel captures in test/fixtures/real-kernel/).

import { degradedCount, isStarted, loadActive, memberInSlot } from '../model/array';
import { arraySectors, isRedundant, levelNumber, syncTotalSectors } from '../model/levels';
import type { HostState, MdArray, Member, SyncRun } from '../model/types';
import { speedWindow } from '../physics/progress';

const BAR_WIDTH = 20;

function memberToken(member: Member): string {
    let token = `${member.name}[${member.desc}]`;
    if (member.flags.has('write_mostly')) token += '(W)';
    if (member.faulty) return `${token}(F)`;
    if (member.slot === null) token += '(S)';
    if (member.flags.has('replacement')) token += '(R)';
    return token;
}

function headerLine(array: MdArray): string {
    let line = `${array.name} : ${isStarted(array) ? 'active' : 'inactive'}`;
    if (isStarted(array)) {
        if (array.baseState === 'readonly') line += ' (read-only)';
        if (array.baseState === 'read-auto') line += ' (auto-read-only)';
        line += ` ${array.level}`;
    }
    // Members are listed newest first: md adds each one at the head of its list.
    for (const member of [...array.members].reverse()) line += ` ${memberToken(member)}`;
    return line;
}

/** " super 1.2"; 0.90 superblocks print nothing. */
function superblock(array: MdArray): string {
    return array.metadata === '0.90' ? '' : ` super ${array.metadata}`;
}

/** " [4/3] [UU_U]": raid disks, working ones, and a U per in-sync slot. */
function slotStatus(array: MdArray): string {
    let slots = '';
    for (let slot = 0; slot < array.raidDisks; slot++) slots += memberInSlot(array, slot)?.inSync ? 'U' : '_';
    return ` [${array.raidDisks}/${array.raidDisks - degradedCount(array)}] [${slots}]`;
}

/** What each personality's ->status() appends to the blocks line. */
function personalityStatus(array: MdArray): string {
    switch (array.level) {
        case 'linear': return ` ${array.chunkKiB}k rounding`;
        case 'raid0': return ` ${array.chunkKiB}k chunks`;
        case 'raid1': return slotStatus(array);
        case 'raid10': {
            let status = array.nearCopies < array.raidDisks ? ` ${array.chunkKiB}K chunks` : '';
            status += ` ${array.nearCopies} near-copies`;
            return status + slotStatus(array);
        }
        default:
            return ` level ${levelNumber(array.level)}, ${array.chunkKiB}k chunk, algorithm ${array.layout}` + slotStatus(array);
    }
}

function progressLabel(sync: SyncRun): string {
    switch (sync.action) {
        case 'reshape': return 'reshape';
        case 'check': return 'check';
        case 'recover': return 'recovery';
        default: return 'resync'; // a repair shows as resync too: only sysfs tells them apart
    }
}

/** "[==>......]  recovery = 12.6% (123/456) finish=88.0min speed=35394K/sec", in integer math like the kernel. */
export function progressLine(sync: SyncRun, now: number): string {
    const done = Math.floor(sync.position);
    const max = sync.total;
    const perMille = Math.floor(Math.floor(done / 1024) * 1000 / (Math.floor(max / 1024) + 1));
    const filled = Math.floor(perMille / 50);
    const bar = `[${'='.repeat(filled)}>${'.'.repeat(BAR_WIDTH - filled)}] `;
    const percent = `${String(Math.floor(perMille / 10)).padStart(3)}.${perMille % 10}%`;
    const { seconds, sectors } = speedWindow(sync, now);
    // Remaining time: divide first, scaled by 32, as status_resync does to stay in range.
    const remaining = Math.floor(Math.floor((max - done) / (Math.floor(sectors / 32) + 1)) * seconds / 32);
    const finish = `${Math.floor(remaining / 60)}.${Math.floor((remaining % 60) / 6)}min`;
    const speed = Math.floor(sectors / 2 / seconds);
    return `${bar} ${progressLabel(sync)} =${percent} (${Math.floor(done / 2)}/${Math.floor(max / 2)}) finish=${finish} speed=${speed}K/sec`;
}

/**
 * status_resync: the progress line, DELAYED while another array holds the disks, PENDING when a
 * needed resync cannot run.
 */
function resyncStatus(array: MdArray, now: number): string | null {
    if (array.sync?.status === 'running') return progressLine(array.sync, now);
    if (array.sync?.status === 'delayed') return '\tresync=DELAYED';
    if (array.resyncCheckpoint !== null) return '\tresync=PENDING';
    return null;
}

/** "bitmap: 1/8 pages [4KB], 65536KB chunk" plus its newline, or nothing without a bitmap. */
function bitmapStatus(state: HostState, array: MdArray): string {
    const bitmap = array.bitmap;
    // A lockless bitmap's line is not known here (no kernel with one was at hand): none is printed.
    if (!bitmap || bitmap.kind === 'llbitmap' || !isStarted(array)) return '';
    const pageSize = state.kernel.pageSize;
    const covered = syncTotalSectors(array, 'resync');
    const chunks = Math.ceil(covered / (bitmap.chunkBytes / 512));
    // 16-bit counters: a page of counters covers pageSize * 8 / 16 chunks.
    const pages = Math.ceil(chunks / (pageSize / 2));
    const writing = loadActive(array.competingIo, state.time) && array.competingIo.writeKiBs > 0;
    const allocated = Math.min(pages, bitmap.allocatedPages ??
        (array.sync?.status === 'running' ? pages : writing ? Math.ceil(pages / 4) : 0));
    const chunkKiB = bitmap.chunkBytes >> 10;
    const chunk = chunkKiB ? `${chunkKiB}KB` : `${bitmap.chunkBytes}B`;
    return `bitmap: ${allocated}/${pages} pages [${allocated * pageSize / 1024}KB], ${chunk} chunk\n`;
}

function renderArray(state: HostState, array: MdArray): string {
    let text = headerLine(array);
    const blocks = isStarted(array) ? arraySectors(array) / 2
        : array.members.filter(m => !m.faulty).length * array.componentSectors / 2;
    text += `\n      ${Math.floor(blocks)} blocks${superblock(array)}`;
    if (isStarted(array)) {
        text += personalityStatus(array) + '\n      ';
        const status = isRedundant(array.level) ? resyncStatus(array, state.time) : null;
        if (status !== null) text += status + '\n      ';
    } else {
        text += '\n       ';
    }
    return text + bitmapStatus(state, array) + '\n';
}

export function renderMdstat(state: HostState): string {
    let text = `Personalities : ${state.personalities.map(p => `[${p}] `).join('')}\n`;
    // Arrays are listed newest first, like the kernel's all_mddevs list.
    for (const array of [...state.arrays].reverse()) text += renderArray(state, array);
    return text + 'unused devices: <none>\n';
}
