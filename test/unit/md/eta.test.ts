// SPDX-License-Identifier: LGPL-2.1-or-later
import { addSample, ETA_WINDOW_MS, smoothedEta } from '../../../src/md/eta';

describe('smoothed ETA', () => {
    test('averages the progress over the window, not the last step', () => {
        let history = addSample([], { at: 0, doneKiB: 0 });
        history = addSample(history, { at: 10_000, doneKiB: 50_000 }); // burst: 5000 KiB/s
        history = addSample(history, { at: 20_000, doneKiB: 60_000 }); // slow: 1000 KiB/s
        const eta = smoothedEta(history, 120_000);
        expect(eta).toMatchObject({ rateKiBs: 3000, samples: 3, windowSeconds: 20 });
        expect(eta?.seconds).toBeCloseTo(20);
    });

    test('needs two samples and real progress', () => {
        expect(smoothedEta(addSample([], { at: 0, doneKiB: 5 }), 100)).toBeNull();
        const stalled = addSample(addSample([], { at: 0, doneKiB: 5 }), { at: 15000, doneKiB: 5 });
        expect(smoothedEta(stalled, 100)).toBeNull();
    });

    test('waits for a window long enough to mean something', () => {
        const short = addSample(addSample([], { at: 0, doneKiB: 0 }), { at: 9000, doneKiB: 900 });
        expect(smoothedEta(short, 10_000)).toBeNull();
        expect(smoothedEta(addSample(short, { at: 10_000, doneKiB: 1000 }), 10_000)?.seconds).toBeCloseTo(90);
    });

    test('starts over when progress goes backwards (the sync restarted)', () => {
        const history = addSample(addSample([], { at: 0, doneKiB: 500 }), { at: 1000, doneKiB: 100 });
        expect(history).toEqual([{ at: 1000, doneKiB: 100 }]);
    });

    test('forgets samples older than the window', () => {
        let history = addSample([], { at: 0, doneKiB: 0 });
        history = addSample(history, { at: ETA_WINDOW_MS / 2, doneKiB: 10 });
        history = addSample(history, { at: ETA_WINDOW_MS + 1, doneKiB: 20 });
        expect(history.map(s => s.at)).toEqual([ETA_WINDOW_MS / 2, ETA_WINDOW_MS + 1]);
    });

    test('keeps older samples 5 s apart and the newest always: the estimate is the same as from every sample', () => {
        let thinned: ReturnType<typeof addSample> = [];
        for (let at = 0; at <= 60_000; at += 2000)
            thinned = addSample(thinned, { at, doneKiB: at / 10 + (at % 4000 ? 7 : 0) });
        const gaps = thinned.slice(1, -1).map((s, i) => s.at - thinned[i].at);
        expect(Math.min(...gaps)).toBeGreaterThanOrEqual(5000);
        expect(thinned[0]).toEqual({ at: 0, doneKiB: 0 });
        expect(thinned[thinned.length - 1]).toEqual({ at: 60_000, doneKiB: 6000 });
        expect(thinned.length).toBeLessThan(16);
        // First and last are what the rate comes from: 6000 KiB in 60 s.
        expect(smoothedEta(thinned, 12_000)).toMatchObject({ rateKiBs: 100, windowSeconds: 60 });
    });

    test('a window of 15 minutes: a sample 14 minutes old still counts, one of 16 does not', () => {
        const minute = 60_000;
        let history = addSample([], { at: 0, doneKiB: 0 });
        history = addSample(history, { at: 2 * minute, doneKiB: 100 });
        history = addSample(history, { at: 16 * minute, doneKiB: 1500 });
        expect(history.map(s => s.at)).toEqual([2 * minute, 16 * minute]);
        expect(ETA_WINDOW_MS).toBe(15 * minute);
        // Another window (the benchmark's replay): 5 minutes forgets both older ones.
        const fiveMinutes = addSample(history, { at: 20 * minute, doneKiB: 1900 }, 5 * minute);
        expect(fiveMinutes.map(s => s.at)).toEqual([16 * minute, 20 * minute]);
    });
});
