// SPDX-License-Identifier: LGPL-2.1-or-later
// The estimate after a change of the sync's limits: it learns the new speed from the change on and
// shows the what-if's prediction meanwhile (`make bench-eta`, run max-halved).

import { shownEstimate } from '../../../src/md/eta';
import { buildModel } from '../../../src/md/model';
import type { HostModel, SyncModel } from '../../../src/md/modelTypes';
import { loadCaptureFiles } from '../helpers/realKernelCapture';

const TOTAL_KIB = 260096;

/** The raid5-recovery capture at `doneKiB`, its maximum (system and array) at `maxKiBs`. */
function host(at: number, doneKiB: number, maxKiBs: number, previous: HostModel | null): HostModel {
    const files = loadCaptureFiles('raid5-recovery');
    files.set('/proc/mdstat', files.get('/proc/mdstat')!.replace('(4608/260096)', `(${doneKiB}/${TOTAL_KIB})`));
    files.set('/proc/sys/dev/raid/speed_limit_max', `${maxKiBs}\n`);
    files.set('/sys/block/md0/md/sync_speed_max', `${maxKiBs} (system)\n`);
    files.set('/proc/sys/dev/raid/speed_limit_min', '100\n');
    files.set('/sys/block/md0/md/sync_speed_min', '100 (system)\n');
    return buildModel({ files, pageSize: 4096, missingRoots: [], complete: true }, at, previous);
}

/** Refreshes every 2 s from `start`, progressing at `rateKiBs`; returns the last sync. */
type Step = { seconds: number; rateKiBs: number; maxKiBs: number };

function run(steps: Step[]): { sync: SyncModel; at: number; done: number } {
    let model: HostModel | null = null;
    let at = 0;
    let done = 10_000;
    for (const step of steps) {
        for (let t = 0; t < step.seconds; t += 2) {
            model = host(at, Math.round(done), step.maxKiBs, model);
            at += 2000;
            done += step.rateKiBs * 2;
        }
    }
    return { sync: model!.arrays[0].sync!, at, done };
}

const BEFORE: Step = { seconds: 60, rateKiBs: 1000, maxKiBs: 2000 };

describe('the estimate after a change of the limits', () => {
    test('a lowered maximum: the old speed is forgotten, the capped one predicted at once', () => {
        // 60 s at 1000 KiB/s under a maximum of 2000, then the maximum is lowered to 400.
        const { sync } = run([BEFORE, { seconds: 2, rateKiBs: 400, maxKiBs: 400 }]);
        expect(sync.limits).toEqual({ minKiBs: 100, maxKiBs: 400 });
        expect(sync.relearning).toMatchObject({ predictedKiBs: 400 });
        expect(sync.eta).toBeNull();
        const left = TOTAL_KIB - sync.doneKiB!;
        expect(shownEstimate(sync)).toEqual({ basis: 'predicted', seconds: left / 400 });
    });

    test('the prediction stands until the samples since the change span md\'s own 30 s', () => {
        // 14 s: enough for an estimate, not for md's throttling to have settled.
        const { sync } = run([BEFORE, { seconds: 14, rateKiBs: 400, maxKiBs: 400 }]);
        expect(sync.eta).not.toBeNull();
        expect(shownEstimate(sync)?.basis).toBe('predicted');
    });

    test('the new speed is measured once the samples since the change span the window', () => {
        const { sync } = run([BEFORE, { seconds: 34, rateKiBs: 400, maxKiBs: 400 }]);
        expect(sync.relearning).toBeNull();
        // Only samples since the change: 400 KiB/s, not an average with the minute at 1000.
        expect(sync.eta?.rateKiBs).toBeCloseTo(400);
        expect(shownEstimate(sync)?.basis).toBe('measured');
    });

    test('unchanged limits keep the history', () => {
        const { sync } = run([BEFORE, { seconds: 34, rateKiBs: 400, maxKiBs: 2000 }]);
        expect(sync.relearning).toBeNull();
        expect(sync.eta?.windowSeconds).toBeGreaterThan(60);
    });
});
