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
});
