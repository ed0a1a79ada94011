// SPDX-License-Identifier: LGPL-2.1-or-later
// Adding and removing the write-intent bitmap: the mdadm command and its undo, every reason md or
// mdadm would refuse, the chunk sizes offered, and the hint for mdadm's own failure messages.
// Arrays come from real-kernel captures (Linux 6.1, mdadm 4.2), changed where a case needs it.

import { buildModel } from '../../../../src/md/model';
import type { ArrayModel, SyncModel } from '../../../../src/md/modelTypes';
import { describePlan, invertStep, type RunCommandStep } from '../../../../src/md/plan';
import {
    bitmapAddPlan, bitmapCoverageKiB, bitmapFailureHint, bitmapGuidance, bitmapRemovePlan, bitmapUnavailable,
    BITMAP_CHUNKS_KIB, smallestBitmapChunkKiB, type BitmapAction,
} from '../../../../src/md/tuning/bitmap';
import type { Message } from '../../../../src/md/message';
import { loadCaptureFiles } from '../../helpers/realKernelCapture';

const MiB = 1024;
const TiB = 1024 ** 3;

function arraysOf(capture: string): ArrayModel[] {
    return buildModel({ files: loadCaptureFiles(capture), pageSize: 4096, missingRoots: [], complete: true }, 0).arrays;
}

/** RAID5, 3 x 256 MiB, internal bitmap with 4 MiB chunks, idle. */
const withBitmap = arraysOf('raid5-bitmap-chunk4M-dirty')[0];
/** RAID5, 4 x 256 MiB, no bitmap (consistency_policy resync), idle. */
const withoutBitmap = arraysOf('raid5-assume-clean-idle')[0];
/** RAID1 resyncing, with a bitmap. */
const resyncingWithBitmap = arraysOf('raid1-bitmap-internal-resync')[0];
/** RAID1 resyncing, no bitmap. */
const resyncing = arraysOf('raid1-resync')[0];

/** A lockless bitmap as the model has it from md/bitmap_type "none bitmap [llbitmap]". */
const llbitmap: ArrayModel['bitmap'] = { kind: 'llbitmap', chunkKiB: null, pagesUsed: null, pagesTotal: null };

/** A 2 x 4 TB RAID1 like the raid1-healthy scenario's, without a bitmap. */
const bigMirror: ArrayModel = { ...withoutBitmap, level: 'raid1', raidDisks: 2, sizeKiB: 3_906_885_632, chunkKiB: null };

function sync(action: SyncModel['action'], runState: SyncModel['runState'] = 'running'): SyncModel {
    return { ...resyncing.sync!, action, runState };
}

/** A message as the UI shows it (untranslated): the template with its arguments filled in. */
function filled(message: Message | null | undefined): string {
    return message ? message.message.replace(/\$(\d)/g, (_all, i) => String(message.args[Number(i)])) : '';
}

function runStep(result: ReturnType<typeof bitmapAddPlan>): RunCommandStep {
    const step = result.plan!.steps[0];
    if (step.kind !== 'run') throw new Error(`not a run step: ${step.kind}`);
    return step;
}

describe('the captures are what the cases assume', () => {
    test('bitmap state and sync as the kernel showed them', () => {
        expect(withBitmap.bitmap).toMatchObject({ kind: 'internal', chunkKiB: 4 * MiB });
        expect(withBitmap.sync).toBeNull();
        expect(withoutBitmap.bitmap).toBeNull();
        expect(withoutBitmap.consistencyPolicy).toBe('resync');
        expect(resyncingWithBitmap.sync?.action).toBe('resync');
        expect(resyncing.bitmap).toBeNull();
    });
});

describe('adding a bitmap', () => {
    test('one mdadm --grow with an explicit --bitmap= and the chunk, undone by --bitmap=none', () => {
        const result = bitmapAddPlan(withoutBitmap, 64 * MiB);
        expect(result.plan!.steps).toHaveLength(1);
        expect(describePlan(result.plan!)).toBe('mdadm --grow /dev/md0 --bitmap=internal --bitmap-chunk=64M');
        expect(runStep(result).undoArgv).toEqual(['mdadm', '--grow', '/dev/md0', '--bitmap=none']);
        expect(result.warnings).toEqual([]);
    });

    test('the undo step runs the removal, and undoing that adds it back', () => {
        const step = runStep(bitmapAddPlan(bigMirror, 128 * MiB));
        const undo = invertStep(step) as RunCommandStep;
        expect(undo.argv).toEqual(['mdadm', '--grow', '/dev/md0', '--bitmap=none']);
        expect((invertStep(undo) as RunCommandStep).argv).toEqual(step.argv);
    });

    test('only the offered chunk sizes: powers of two from 4 to 256 MiB', () => {
        expect(BITMAP_CHUNKS_KIB).toEqual([4, 8, 16, 32, 64, 128, 256].map(m => m * MiB));
        for (const chunk of BITMAP_CHUNKS_KIB) expect(Math.log2(chunk) % 1).toBe(0);
        expect(bitmapAddPlan(withoutBitmap, 3 * MiB).errors?.chunk?.message).toBe('Choose one of the offered chunk sizes.');
        expect(bitmapAddPlan(withoutBitmap, 512 * MiB).errors?.chunk).toBeDefined();
    });
});

describe('removing a bitmap', () => {
    test('mdadm --grow --bitmap=none, undone by adding one with the chunk size it had', () => {
        const result = bitmapRemovePlan(withBitmap);
        expect(describePlan(result.plan!)).toBe('mdadm --grow /dev/md0 --bitmap=none');
        expect(runStep(result).undoArgv).toEqual(['mdadm', '--grow', '/dev/md0', '--bitmap=internal', '--bitmap-chunk=4M']);
    });

    test('with the chunk size unknown, the undo lets mdadm choose', () => {
        const unknownChunk = { ...withBitmap, bitmap: { ...withBitmap.bitmap!, chunkKiB: null } };
        expect(runStep(bitmapRemovePlan(unknownChunk)).undoArgv).toEqual(['mdadm', '--grow', '/dev/md0', '--bitmap=internal']);
    });

    test('a degraded array is warned that a returning disk would be rebuilt completely', () => {
        const result = bitmapRemovePlan({ ...withBitmap, health: 'degraded' });
        expect(result.plan).toBeDefined();
        expect(result.warnings![0].message).toMatch(/rebuilt completely/);
    });
});

describe('every refusal has its reason, and no plan', () => {
    const cases: [string, ArrayModel, BitmapAction, RegExp][] = [
        ['a resync (checked on Linux 6.1)', resyncing, 'add', /A resync is in progress/],
        ['a resync, removing', resyncingWithBitmap, 'remove', /A resync is in progress/],
        ['a rebuild', { ...withoutBitmap, sync: sync('recover') }, 'add', /A rebuild is in progress/],
        ['a check', { ...withoutBitmap, sync: sync('check') }, 'add', /A check is in progress/],
        ['a repair', { ...withBitmap, sync: sync('repair') }, 'remove', /A repair is in progress/],
        ['a reshape', { ...withoutBitmap, sync: sync('reshape') }, 'add', /A reshape is in progress/],
        ['a resync waiting for shared disks', { ...withoutBitmap, sync: sync('resync', 'delayed') }, 'add', /waiting to run/],
        ['a frozen sync (checked: md says EBUSY even then)', { ...withBitmap, sync: sync('check', 'frozen') }, 'remove', /paused \(frozen\)/],
        ['raid0', arraysOf('raid0-and-linear').find(a => a.level === 'raid0')!, 'add', /raid0 arrays keep no redundancy.*Bitmaps not meaningful with level raid0/],
        ['linear', arraysOf('raid0-and-linear').find(a => a.level === 'linear')!, 'add', /linear arrays keep no redundancy/],
        ['PPL', { ...withoutBitmap, consistencyPolicy: 'ppl' }, 'add', /partial parity log \(PPL\)/],
        ['a write journal', { ...withoutBitmap, consistencyPolicy: 'journal' }, 'add', /write journal/],
        ['external metadata (IMSM)', { ...withoutBitmap, metadata: 'external:/md127/0' }, 'add', /managed outside the kernel \(external:\/md127\/0/],
        ['external metadata, removing', { ...withBitmap, metadata: 'external:ddf' }, 'remove', /managed outside the kernel/],
        ['a bitmap already present', withBitmap, 'add', /already has a write-intent bitmap/],
        ['a file bitmap, adding', { ...withoutBitmap, bitmap: { ...withBitmap.bitmap!, kind: 'file' } }, 'add', /already has/],
        ['no bitmap to remove', withoutBitmap, 'remove', /has no write-intent bitmap/],
        ['a file bitmap, removing (raidtune could not put it back)', { ...withBitmap, bitmap: { ...withBitmap.bitmap!, kind: 'file' } }, 'remove', /kept in a file/],
        // mdadm: "lockless bitmap is only supported with creating the array with 1.2 metadata".
        ['a lockless bitmap (llbitmap), removing', { ...withBitmap, bitmap: llbitmap }, 'remove', /lockless bitmap \(llbitmap, experimental in md\)\. mdadm chooses it only when it creates an array \(--bitmap=lockless\) and cannot add or remove it with --grow/],
        ['a lockless bitmap (llbitmap), adding', { ...withBitmap, bitmap: llbitmap }, 'add', /lockless bitmap \(llbitmap, experimental in md\)/],
        ['an inactive array', { ...withBitmap, health: 'inactive', arrayState: 'inactive' }, 'remove', /not running/],
        ['a read-only array', { ...withoutBitmap, health: 'read-only', readOnly: 'read-only', arrayState: 'readonly' }, 'add', /is read-only/],
        ['an auto-read-only array', { ...withBitmap, health: 'read-only', readOnly: 'auto-read-only', arrayState: 'read-auto' }, 'remove', /auto-read-only/],
    ];

    test.each(cases)('%s', (_name, array, action, reason) => {
        expect(filled(bitmapUnavailable(array, action))).toMatch(reason);
        const result = action === 'add' ? bitmapAddPlan(array, 64 * MiB) : bitmapRemovePlan(array);
        expect(result.plan).toBeUndefined();
        expect(result.errors?.bitmap).toEqual(bitmapUnavailable(array, action));
    });

    test('reasons carry their arguments separately, for translation', () => {
        const raid0 = arraysOf('raid0-and-linear').find(a => a.level === 'raid0')!;
        expect(bitmapUnavailable(raid0, 'add')).toEqual(expect.objectContaining({ args: ['raid0'] }));
    });

    test('the opposite action is the one an idle array offers', () => {
        expect(bitmapUnavailable(withBitmap, 'remove')).toBeNull();
        expect(bitmapUnavailable(withoutBitmap, 'add')).toBeNull();
        expect(bitmapUnavailable({ ...withoutBitmap, health: 'degraded' }, 'add')).toBeNull();
    });
});

describe('chunk sizes: what mdadm accepts and what raidtune recommends', () => {
    test('the bitmap spans one member, or the whole array on raid10', () => {
        expect(bitmapCoverageKiB(withoutBitmap)).toBe(780288 / 3);
        expect(bitmapCoverageKiB({ ...withoutBitmap, level: 'raid6' })).toBe(780288 / 2);
        expect(bitmapCoverageKiB(bigMirror)).toBe(bigMirror.sizeKiB);
        expect(bitmapCoverageKiB({ ...bigMirror, level: 'raid10', raidDisks: 4 })).toBe(bigMirror.sizeKiB);
        expect(bitmapCoverageKiB({ ...bigMirror, sizeKiB: null })).toBeNull();
    });

    test('smallest chunk: one bit per chunk in the space mdadm reserved (128 KiB from 200 GiB)', () => {
        expect(smallestBitmapChunkKiB(3.64 * TiB, '1.2')).toBe(4 * MiB);
        expect(smallestBitmapChunkKiB(7.3 * TiB, '1.2')).toBe(8 * MiB);
        expect(smallestBitmapChunkKiB(15 * TiB, '1.2')).toBe(16 * MiB);
        // 16 TiB in 16 MiB chunks is 2^20 bits: just more than 128 KiB of bitmap holds.
        expect(smallestBitmapChunkKiB(16 * TiB, '1.2')).toBe(32 * MiB);
        // The real-kernel result: 4K on 256 MiB members fails ("chunksize problem"), 4M works.
        expect(smallestBitmapChunkKiB(260096, '1.2')).toBeGreaterThan(4);
        expect(smallestBitmapChunkKiB(260096, '1.2')).toBeLessThanOrEqual(4 * MiB);
        // 0.90 keeps at most 60 KiB of bitmap.
        expect(smallestBitmapChunkKiB(3.64 * TiB, '0.90')).toBe(8 * MiB);
    });

    test('multi-TB members: 64 MiB recommended, smaller ones 16 MiB', () => {
        const big = bitmapGuidance(bigMirror);
        expect(big.recommendedKiB).toBe(64 * MiB);
        expect(big.choices.filter(c => c.recommended).map(c => c.chunkKiB)).toEqual([64 * MiB]);
        expect(big.choices.every(c => c.tooSmall === null)).toBe(true);
        expect(bitmapGuidance(withoutBitmap).recommendedKiB).toBe(16 * MiB);
        expect(bitmapGuidance({ ...bigMirror, sizeKiB: null }).recommendedKiB).toBe(64 * MiB);
    });

    test('too small chunks for a 15 TiB member are offered disabled, with the reason, and refused', () => {
        const huge = { ...bigMirror, sizeKiB: 15 * TiB };
        const guidance = bitmapGuidance(huge);
        expect(guidance.choices.filter(c => c.tooSmall).map(c => c.chunkKiB)).toEqual([4 * MiB, 8 * MiB]);
        expect(guidance.choices[0].tooSmall).toEqual(expect.objectContaining({ args: ['16 MiB'] }));
        expect(bitmapAddPlan(huge, 8 * MiB).errors?.chunk?.message).toMatch(/Too small for this array/);
        expect(bitmapAddPlan(huge, 16 * MiB).plan).toBeDefined();
    });

    test('the write penalty table is the published measurement', () => {
        const guidance = bitmapGuidance(bigMirror);
        expect(guidance.penalty.map(r => [r.chunkKiB / MiB, r.sequentialWritePercent]))
            .toEqual([[4, -27], [16, -8.7], [64, -12]]);
        expect(guidance.penaltySource.message).toMatch(/bonnie\+\+/);
        expect(guidance.advice.message).toMatch(/64 MiB or more/);
    });
});

describe('what to do when mdadm still refuses', () => {
    // As the executor passes them: the text after the last colon of mdadm's last line.
    test.each([
        ['failed to set internal bitmap.', /Wait until it has finished/],
        ['failed to remove internal bitmap.', /Wait until it has finished/],
        ['Cannot add bitmap while array is resyncing or reshaping etc.', /Wait until it has finished/],
        ['bitmap already present on /dev/md0', /added meanwhile/],
        ['no bitmap found on /dev/md0', /removed meanwhile/],
        ['failed to create internal bitmap - chunksize problem.', /choose a larger chunk/],
        ['invalid bitmap chunksize: 3M', /powers of two/],
        ['Bitmaps not meaningful with level raid0', /RAID 0, linear/],
        ['Cannot add bitmap to array with PPL', /partial parity log/],
        ['Cannot add bitmaps to sub-arrays yet', /outside the kernel/],
        ['not-found', /mdadm package installed/],
    ])('%j', (reason, hint) => {
        expect(bitmapFailureHint(reason)?.message).toMatch(hint);
    });

    test('nothing to add to other failures', () => {
        expect(bitmapFailureHint('Administrative access is required.')).toBeNull();
    });
});

test('a frozen array with no sync is refused too: "frozen" is one of md\'s recovery flags', () => {
    const files = loadCaptureFiles('raid1-with-spare');
    files.set('/sys/block/md0/md/sync_action', 'frozen\n');
    const [md0] = buildModel({ files, pageSize: 4096, missingRoots: [], complete: true }, 0).arrays;
    expect(md0.sync).toBeNull();
    expect(bitmapUnavailable(md0, 'add')?.message).toMatch(/paused \(frozen\)/);
});
