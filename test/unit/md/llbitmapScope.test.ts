// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #35 item 4: on the lockless bitmap, what md syncs and how long that takes. The tree is
// Linux 6.1's raid5-recovery capture (4608 of 260096 KiB, speed=1152K/sec) given the files a kernel
// with llbitmap adds: md/bitmap_type and md/llbitmap/bits in md-llbitmap.c's format.

import { shownEstimate } from '../../../src/md/eta';
import { llbitmapSyncScope, parseLlbitmapBits, syncedDensity } from '../../../src/md/llbitmapScope';
import { buildModel } from '../../../src/md/model';
import type { SyncModel } from '../../../src/md/modelTypes';
import { loadCaptureFiles } from '../helpers/realKernelCapture';

const bitsText = (unwritten: number, clean: number, dirty: number, needSync: number, syncing: number) =>
    `unwritten ${unwritten}\nclean ${clean}\ndirty ${dirty}\nneed sync ${needSync}\nsyncing ${syncing}\n`;

function recovery(files: Map<string, string>): SyncModel {
    const model = buildModel({ files, pageSize: 4096, missingRoots: [], complete: true }, 0, null);
    return model.arrays[0].sync!;
}

function withLlbitmap(bits: string | null): Map<string, string> {
    const files = loadCaptureFiles('raid5-recovery');
    files.set('/sys/block/md0/md/bitmap_type', 'none bitmap [llbitmap] \n');
    if (bits !== null) files.set('/sys/block/md0/md/llbitmap/bits', bits);
    return files;
}

describe('md/llbitmap/bits', () => {
    test('reads the five counts; what md prints without counts is no reading', () => {
        expect(parseLlbitmapBits(bitsText(7000, 900, 100, 3, 1)))
            .toEqual({ unwritten: 7000, clean: 900, dirty: 100, needSync: 3, syncing: 1 });
        expect(parseLlbitmapBits('no bitmap\n')).toBeNull();
        expect(parseLlbitmapBits('bitmap io error\n')).toBeNull();
        expect(parseLlbitmapBits('unwritten 1\nclean 2\n')).toBeNull();
        expect(parseLlbitmapBits(null)).toBeNull();
    });
});

describe('what md syncs on the lockless bitmap', () => {
    test('a rebuild, check or repair: the written chunks, their share of what is not yet passed', () => {
        const bits = { unwritten: 750, clean: 200, dirty: 50, needSync: 0, syncing: 0 };
        for (const action of ['recover', 'check', 'repair'] as const)
            expect(llbitmapSyncScope(bits, action, 100_000, 500_000)).toEqual({ basis: 'written', share: 0.25, remainingKiB: 100_000 });
    });

    test('a resync md started itself: the chunks still marked, wherever they lie', () => {
        const bits = { unwritten: 500, clean: 488, dirty: 0, needSync: 10, syncing: 2 };
        expect(llbitmapSyncScope(bits, 'resync', 100_000, 500_000)).toEqual({ basis: 'need-sync', share: 0.012, remainingKiB: 6000 });
        // A reshape moves every stripe: the bitmap does not shorten it.
        expect(llbitmapSyncScope(bits, 'reshape', 100_000, 500_000)).toBeNull();
    });

    test('the page\'s model: the rebuild\'s scope, and the estimate from what is left over md\'s speed', () => {
        const sync = recovery(withLlbitmap(bitsText(3000, 900, 100, 0, 0)));
        expect(sync.scope).toEqual({ basis: 'written', share: 0.25, remainingKiB: 0.25 * (260096 - 4608) });
        expect(shownEstimate(sync)).toEqual({ basis: 'bitmap', seconds: 0.25 * (260096 - 4608) / 1152 });
    });

    test('without the bits (a classic bitmap, none, or md could not count them): the measured estimate as before', () => {
        expect(recovery(withLlbitmap(null)).scope).toBeNull();
        expect(recovery(withLlbitmap('bitmap io error\n')).scope).toBeNull();
        expect(recovery(loadCaptureFiles('raid5-recovery')).scope).toBeNull();
    });
});

describe('the sync I/O behind the progress', () => {
    test('is the progress times the share of the part ahead that md syncs; all of it without the lockless bitmap', () => {
        expect(syncedDensity(null, 100, 500)).toBe(1);
        expect(syncedDensity({ basis: 'written', share: 0.25, remainingKiB: 100 }, 100, 500)).toBe(0.25);
        // A resync's marks left, over the part ahead: 6000 KiB in 400000.
        expect(syncedDensity({ basis: 'need-sync', share: 0.012, remainingKiB: 6000 }, 100_000, 500_000)).toBe(0.015);
        expect(syncedDensity({ basis: 'need-sync', share: 0.012, remainingKiB: 6000 }, 500_000, 500_000)).toBe(0.012);
    });
});
