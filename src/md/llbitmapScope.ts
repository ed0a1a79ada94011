// SPDX-License-Identifier: LGPL-2.1-or-later
// What md syncs on an array with the lockless bitmap (llbitmap, Linux 6.18 and later). Every sync
// skips the chunks never written since the array was created ("unwritten"), and a resync that md
// starts on its own skips the clean ones too: it syncs only the chunks marked "need sync"
// (drivers/md/md-llbitmap.c, llbitmap_skip_sync_blocks). md's position still walks the whole device,
// so its percent and finish= count what it passes in an instant as if it had to be read; its
// speed= (sync_speed) counts only what it syncs. The estimate is then what is left to sync over
// that speed.

import type { SyncAction, SyncScope } from './modelTypes';

/** md/llbitmap/bits: how many of the bitmap's chunks are in each state. */
export interface LlbitmapBits {
    unwritten: number;
    clean: number;
    dirty: number;
    needSync: number;
    syncing: number;
}

const BIT_NAMES: Record<string, keyof LlbitmapBits> = {
    'unwritten': 'unwritten', 'clean': 'clean', 'dirty': 'dirty', 'need sync': 'needSync', 'syncing': 'syncing',
};

/**
 * "unwritten 7000\nclean 900\ndirty 100\nneed sync 0\nsyncing 0\n"; null for what md prints without
 * counts ("no bitmap", "bitmap io error") or anything else.
 */
export function parseLlbitmapBits(text: string | null): LlbitmapBits | null {
    if (text === null) return null;
    const bits: Partial<LlbitmapBits> = {};
    for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        const m = /^([a-z ]+?) (\d+)$/.exec(line.trim());
        const key = m ? BIT_NAMES[m[1]] : undefined;
        if (!m || !key) return null;
        bits[key] = Number(m[2]);
    }
    const all = Object.values(BIT_NAMES);
    return all.every(k => bits[k] !== undefined) ? bits as LlbitmapBits : null;
}

/**
 * The share of the part not yet passed that md syncs: its sync I/O is the position's progress times
 * that (1 without the lockless bitmap). The marks are taken to lie evenly, as the written chunks are.
 */
export function syncedDensity(scope: SyncScope | null, doneKiB: number, totalKiB: number | null): number {
    if (!scope) return 1;
    if (totalKiB === null || totalKiB <= doneKiB) return scope.share;
    return Math.min(1, scope.remainingKiB / (totalKiB - doneKiB));
}

const chunkCount = (b: LlbitmapBits) => b.unwritten + b.clean + b.dirty + b.needSync + b.syncing;

/**
 * A resync's marked chunks turn clean as md syncs them: what is left is counted exactly, wherever
 * the marks lie. The written chunks stay as they are through a rebuild or check, and md says only
 * how many there are, not where: what is left of them is their share of the part not yet passed.
 */
export function llbitmapSyncScope(bits: LlbitmapBits, action: SyncAction, doneKiB: number | null,
    totalKiB: number | null): SyncScope | null {
    const chunks = chunkCount(bits);
    if (chunks === 0 || doneKiB === null || totalKiB === null || action === 'reshape') return null;
    if (action === 'resync') {
        const share = (bits.needSync + bits.syncing) / chunks;
        return { basis: 'need-sync', share, remainingKiB: share * totalKiB };
    }
    const share = (chunks - bits.unwritten) / chunks;
    return { basis: 'written', share, remainingKiB: share * Math.max(0, totalKiB - doneKiB) };
}
