// SPDX-License-Identifier: LGPL-2.1-or-later
// The model built from real-kernel captures must say what mdadm --detail and sysfs say.

import { buildModel } from '../../../src/md/model';
import type { HostModel } from '../../../src/md/modelTypes';
import type { Snapshot } from '../../../src/md/snapshot';
import { loadCaptureFiles } from '../helpers/realKernelCapture';

function modelOf(capture: string, takenAt = 1000, previous: HostModel | null = null): HostModel {
    return buildModel(snapshotOf(loadCaptureFiles(capture)), takenAt, previous);
}

function snapshotOf(files: Map<string, string>): Snapshot {
    return { files, pageSize: 4096, missingRoots: [], complete: true };
}

describe('model from real-kernel captures', () => {
    test('raid5 recovery onto a new disk', () => {
        const model = modelOf('raid5-recovery');
        expect(model.problems).toEqual([]);
        const [md0] = model.arrays;
        expect(md0).toMatchObject({
            name: 'md0', level: 'raid5', health: 'degraded', raidDisks: 3, degradedDevices: 1,
            missingSlots: [1], sizeKiB: 520192, metadata: '1.2', chunkKiB: 512, bitmap: null,
            speedMin: { kiBs: 1000, source: 'system' }, speedMax: { kiBs: 1000, source: 'system' },
            stripeCache: { size: 256, active: 0 },
        });
        expect(md0.members.map(m => [m.name, m.role, m.slot])).toEqual([
            ['vda', 'active', 0], ['vdc', 'active', 2], ['vdd', 'rebuilding', 1],
        ]);
        expect(md0.sync).toMatchObject({
            action: 'recover', runState: 'running', percent: 1.7, doneKiB: 4608, totalKiB: 260096,
            speedKiBs: 1152, kernelFinishMinutes: 3.6, eta: null,
        });
        // 1152 KiB/s against a 1000 KiB/s maximum: the limit sets the pace.
        expect(md0.cappedByMax).toBe(true);
        expect(model.global).toEqual({ speedMinKiBs: 1000, speedMaxKiBs: 1000, syncIoDepth: null });
    });

    test('a failed member not yet removed', () => {
        const [md0] = modelOf('raid5-member-failed').arrays;
        expect(md0.health).toBe('degraded');
        expect(md0.members.map(m => [m.name, m.role])).toEqual([['vda', 'active'], ['vdc', 'active'], ['vdb', 'faulty']]);
        expect(md0.missingSlots).toEqual([1]);
        expect(md0.sync).toBeNull();
    });

    test('raid1 with a hot spare', () => {
        const [md0] = modelOf('raid1-with-spare').arrays;
        expect(md0.health).toBe('clean');
        expect(md0.members.map(m => [m.name, m.role])).toEqual([['vda', 'active'], ['vdb', 'active'], ['vdc', 'spare']]);
        expect(md0.stripeCache).toBeNull();
    });

    test('raid1 created with a missing slot', () => {
        const [md0] = modelOf('raid1-degraded-missing').arrays;
        expect(md0).toMatchObject({ health: 'degraded', missingSlots: [1], degradedDevices: 1 });
    });

    test('raid0 and linear have no sync and no redundancy', () => {
        const arrays = modelOf('raid0-and-linear').arrays;
        expect(arrays.map(a => [a.name, a.level, a.health, a.chunkKiB])).toEqual([
            ['md1', 'linear', 'clean', null], ['md0', 'raid0', 'clean', 128],
        ]);
    });

    test('internal bitmap with a 4 MiB chunk', () => {
        const [md0] = modelOf('raid5-bitmap-chunk4M-dirty').arrays;
        expect(md0.bitmap).toEqual({ kind: 'internal', chunkKiB: 4096, pagesUsed: 1, pagesTotal: 1 });
    });

    test('a running check', () => {
        const [md0] = modelOf('raid5-check').arrays;
        expect(md0.sync).toMatchObject({ action: 'check', runState: 'running', doneKiB: 4608 });
        expect(md0.health).toBe('clean');
    });

    test('no arrays, and a stopped array that left nothing', () => {
        for (const capture of ['00-empty', 'raid5-assemble-too-few']) {
            const model = modelOf(capture);
            expect(model.arrays).toEqual([]);
            expect(model.mdAvailable).toBe(true);
        }
    });

    test('the ETA is smoothed over the samples of one running sync', () => {
        const first = modelOf('raid1-resync', 0);
        const second = modelOf('raid1-resync-unfrozen', 10_000, first);
        // 4096 -> 8704 KiB in 10 s = 460.8 KiB/s; (261120 - 8704) / 460.8 = 547.8 s
        expect(second.arrays[0].sync?.eta).toMatchObject({ samples: 2, windowSeconds: 10 });
        expect(second.arrays[0].sync?.eta?.seconds).toBeCloseTo(547.8, 0);
    });
});

/**
 * A 6.1 capture as a newer kernel shows it (measured on Linux 7.3 from Debian's trixie-backports):
 * md/bitmap_type added with `type` ("[none] bitmap " is 7.3's own answer: a space after every
 * kind), and the bitmap/ folder gone when the array has no classic bitmap.
 */
function asNewerKernel(capture: string, type: string, keepBitmapFolder: boolean): Map<string, string> {
    const files = loadCaptureFiles(capture);
    for (const path of [...files.keys()]) {
        if (!keepBitmapFolder && path.startsWith('/sys/block/md0/md/bitmap/')) files.delete(path);
    }
    files.set('/sys/block/md0/md/bitmap_type', `${type}\n`);
    return files;
}

describe('the bitmap kind on kernels with md/bitmap_type (and without)', () => {
    const bitmapOf = (files: Map<string, string>) => buildModel(snapshotOf(files), 1000, null).arrays[0].bitmap;

    test('no bitmap: "[none] bitmap" and no bitmap/location reads none, with no problem reported', () => {
        const model = buildModel(snapshotOf(asNewerKernel('raid5-assume-clean-idle', '[none] bitmap ', false)), 1000, null);
        expect(model.arrays[0].bitmap).toBeNull();
        expect(model.problems).toEqual([]);
    });

    test('an internal bitmap: "none [bitmap]" with its location and chunk size', () => {
        expect(bitmapOf(asNewerKernel('raid5-bitmap-chunk4M-dirty', 'none [bitmap] llbitmap ', true)))
            .toEqual({ kind: 'internal', chunkKiB: 4096, pagesUsed: 1, pagesTotal: 1 });
    });

    test('a lockless bitmap: "none bitmap [llbitmap]" (md.c bitmap_type_show), without a bitmap/ folder', () => {
        expect(bitmapOf(asNewerKernel('raid5-assume-clean-idle', 'none bitmap [llbitmap] ', false)))
            .toEqual({ kind: 'llbitmap', chunkKiB: null, pagesUsed: null, pagesTotal: null });
    });

    test('whether the kernel offers the lockless bitmap: listed by bitmap_type, or not (7.3 lists none; 6.1 has no file)', () => {
        const offered = (files: Map<string, string>) =>
            buildModel(snapshotOf(files), 1000, null).arrays[0].llbitmapOffered;
        expect(offered(asNewerKernel('raid5-bitmap-chunk4M-dirty', 'none [bitmap] llbitmap ', true))).toBe(true);
        expect(offered(asNewerKernel('raid5-assume-clean-idle', '[none] bitmap ', false))).toBe(false);
        expect(offered(loadCaptureFiles('raid5-assume-clean-idle'))).toBe(false);
    });

    test('bitmap_type says none even where a stale bitmap/location is left: none', () => {
        expect(bitmapOf(asNewerKernel('raid5-bitmap-chunk4M-dirty', '[none] bitmap ', true))).toBeNull();
    });

    test('"[bitmap]" chosen but no bitmap/location and no mdstat line (an array that never had one): none', () => {
        expect(bitmapOf(asNewerKernel('raid5-assume-clean-idle', 'none [bitmap] ', false))).toBeNull();
    });

    test('no bitmap_type and no bitmap/ files, but a bitmap line in /proc/mdstat: internal, its chunk from there', () => {
        const files = asNewerKernel('raid5-bitmap-chunk4M-dirty', '', false);
        files.delete('/sys/block/md0/md/bitmap_type');
        expect(bitmapOf(files)).toEqual({ kind: 'internal', chunkKiB: 4096, pagesUsed: 1, pagesTotal: 1 });
    });

    test('a kernel without bitmap_type (6.1): bitmap/location decides, as before', () => {
        expect(loadCaptureFiles('raid5-bitmap-chunk4M-dirty').has('/sys/block/md0/md/bitmap_type')).toBe(false);
        expect(bitmapOf(loadCaptureFiles('raid5-assume-clean-idle'))).toBeNull();
        expect(bitmapOf(loadCaptureFiles('raid5-bitmap-chunk4M-dirty'))).toMatchObject({ kind: 'internal', chunkKiB: 4096 });
    });
});

describe('model edge cases', () => {
    test('an idle array frozen by hand has no sync, but says it is frozen (checked on a real kernel)', () => {
        const files = loadCaptureFiles('raid1-with-spare');
        files.set('/sys/block/md0/md/sync_action', 'frozen\n');
        const [md0] = buildModel(snapshotOf(files), 0).arrays;
        expect(md0.sync).toBeNull();
        expect(md0.syncFrozen).toBe(true);
    });

    test('dates progress samples by the host\'s uptime when it came with the snapshot', () => {
        const files = loadCaptureFiles('raid1-resync');
        files.set('/proc/uptime', '100.00 150.00\n');
        const first = buildModel(snapshotOf(files), 0);
        const later = loadCaptureFiles('raid1-resync-unfrozen');
        later.set('/proc/uptime', '120.00 190.00\n');
        // The browser saw 2 s pass (a slow answer); the host says 20 s: the rate uses 20 s.
        const second = buildModel(snapshotOf(later), 2000, first);
        expect(second.arrays[0].sync?.eta).toMatchObject({ windowSeconds: 20, rateKiBs: (8704 - 4096) / 20 });
    });

    test('no /proc/mdstat: the md driver is not loaded', () => {
        const model = buildModel(snapshotOf(new Map()), 0);
        expect(model.mdAvailable).toBe(false);
        expect(model.arrays).toEqual([]);
    });

    test('an array listed in mdstat whose sysfs entry vanished is still shown, with a note', () => {
        const files = loadCaptureFiles('raid1-with-spare');
        for (const path of [...files.keys()]) if (path.startsWith('/sys/block/md0/')) files.delete(path);
        const model = buildModel(snapshotOf(files), 0);
        expect(model.arrays.map(a => a.name)).toEqual(['md0']);
        expect(model.problems.join('\n')).toMatch(/md0: .*sysfs entry is gone/);
    });

    // Frozen (echo frozen > sync_action), as Linux 6.1 shows it: no sync thread, so mdstat prints only
    // "resync=PENDING" (or nothing, for a recovery) and sync_completed reads "none"; the position
    // stays in resync_start / recovery_start.
    test('a frozen resync shows where it stopped, from resync_start', () => {
        const files = loadCaptureFiles('raid1-resync');
        files.set('/proc/mdstat', files.get('/proc/mdstat')!.replace(/ *\[>.*\n/, '\tresync=PENDING\n'));
        files.set('/sys/block/md0/md/sync_action', 'frozen\n');
        files.set('/sys/block/md0/md/sync_completed', 'none\n');
        files.set('/sys/block/md0/md/resync_start', '193236\n'); // of 2 * 261120 sectors: 37.0%
        const [md0] = buildModel(snapshotOf(files), 0).arrays;
        expect(md0.sync).toMatchObject({
            action: 'resync', runState: 'frozen', percent: 37, doneKiB: 96618, totalKiB: 261120, speedKiBs: null, eta: null,
        });
    });

    test('a frozen recovery shows where it stopped, from the rebuilding member\'s recovery_start', () => {
        const files = loadCaptureFiles('raid5-recovery');
        files.set('/proc/mdstat', files.get('/proc/mdstat')!.replace(/ *\[>.*\n/, ''));
        files.set('/sys/block/md0/md/sync_action', 'frozen\n');
        files.set('/sys/block/md0/md/sync_completed', 'none\n');
        files.set('/sys/block/md0/md/dev-vdd/recovery_start', '52020\n'); // of 2 * 260096 sectors: 10.0%
        const [md0] = buildModel(snapshotOf(files), 0).arrays;
        expect(md0.sync).toMatchObject({ action: 'recover', runState: 'frozen', percent: 10, totalKiB: 260096 });
        expect(md0.sync?.doneKiB).toBe(26010);
    });

    test('a clean array\'s resync_start "none" gives no position', () => {
        const files = loadCaptureFiles('raid1-resync');
        files.set('/proc/mdstat', files.get('/proc/mdstat')!.replace(/ *\[>.*\n/, '\tresync=PENDING\n'));
        files.set('/sys/block/md0/md/sync_action', 'frozen\n');
        files.set('/sys/block/md0/md/sync_completed', 'none\n');
        files.set('/sys/block/md0/md/resync_start', 'none\n');
        const [md0] = buildModel(snapshotOf(files), 0).arrays;
        expect(md0.sync).toMatchObject({ runState: 'frozen', percent: null, doneKiB: null });
    });

    test('a cut-off answer is flagged', () => {
        const model = buildModel({ ...snapshotOf(new Map()), complete: false }, 0);
        expect(model.problems.join('\n')).toMatch(/cut off/);
    });
});

describe('chart samples and armed automatic restores', () => {
    test('each refresh of a running sync adds a sample with the effective limits; the armed restore is read', () => {
        const files = loadCaptureFiles('raid5-recovery');
        files.delete('/proc/uptime');
        files.set('/raidtune-state/auto-restore/md0.armed', '/proc/sys/dev/raid/speed_limit_min\t1000\n');
        files.set('/raidtune-state/auto-restore/md0.history', '5.00 100 260096 900 1000 1000\n');
        const first = buildModel(snapshotOf(files), 1000);
        const second = buildModel(snapshotOf(files), 3000, first);
        const sync = second.arrays[0].sync!;
        expect(sync.trend.map(s => s.at)).toEqual([1000, 3000]);
        expect(sync.trend[1]).toMatchObject({ doneKiB: 4608, totalKiB: 260096, minKiBs: 1000, maxKiBs: 1000 });
        expect(second.autoRestore.get('md0')?.history).toEqual([
            { at: 5000, doneKiB: 100, totalKiB: 260096, speedKiBs: 900, minKiBs: 1000, maxKiBs: 1000 },
        ]);
        expect(second.systemd).toBe(false);
    });
});
