// SPDX-License-Identifier: LGPL-2.1-or-later
// The seeking disk model (tools/vm/seekModel.ts, issue #38): the seek curve meets the data sheet's
// three figures, a request costs what a 7200 rpm disk charges for it, and the disk picks the next
// request as command queueing would.
import { Head, HDD_7200, nextRequest, revolutionMs, seekCurve, trackBytes } from '../../../tools/vm/seekModel';

const TB = 1e12;

/** Midpoints of n equal steps over [0, 1): a grid of positions as a fraction of the disk. */
const grid = (n: number) => Array.from({ length: n }, (_, i) => (i + 0.5) / n);

describe('seek curve', () => {
    const seek = seekCurve(HDD_7200);

    test('a full stroke takes the full-stroke time', () => {
        expect(seek(1)).toBeCloseTo(HDD_7200.fullStrokeMs, 9);
    });

    test('a seek of one track takes about the track-to-track time', () => {
        // One track of a 1 TB disk, as a fraction of its stroke.
        expect(seek(trackBytes(HDD_7200) / TB)).toBeGreaterThan(HDD_7200.trackToTrackMs);
        expect(seek(trackBytes(HDD_7200) / TB)).toBeCloseTo(HDD_7200.trackToTrackMs, 1);
        expect(seek(1e-12)).toBeCloseTo(HDD_7200.trackToTrackMs, 4);
    });

    test('the mean over random pairs of positions is the average seek', () => {
        const positions = grid(600);
        let sum = 0;
        let pairs = 0;
        for (const x of positions) {
            for (const y of positions) {
                if (x === y) continue;
                sum += seek(Math.abs(x - y));
                pairs++;
            }
        }
        expect(sum / pairs).toBeCloseTo(HDD_7200.averageSeekMs, 1);
    });

    test('grows with the distance, no seek costs nothing', () => {
        const samples = grid(100).map(seek);
        samples.slice(1).forEach((t, i) => expect(t).toBeGreaterThan(samples[i]));
        expect(seek(0)).toBe(0);
    });

    test('figures no growing curve fits are refused', () => {
        // An average seek below what a straight line from track-to-track to full stroke gives.
        expect(() => seekCurve({ ...HDD_7200, averageSeekMs: 5 })).toThrow(/no curve/);
    });
});

describe('what a request costs', () => {
    const transferMs = (bytes: number) => bytes / HDD_7200.mediaBytesPerMs;

    test('a request right after the last one costs only its transfer', () => {
        const head = new Head(HDD_7200, TB);
        head.serve({ offset: 10e9, length: 65536 });
        expect(head.serve({ offset: 10e9 + 65536, length: 65536 })).toBeCloseTo(transferMs(65536), 12);
        expect(head.serve({ offset: 10e9 + 131072, length: 1 << 20 })).toBeCloseTo(transferMs(1 << 20), 12);
    });

    test('a short gap ahead costs the platter bringing it round, not a seek', () => {
        const head = new Head(HDD_7200, TB);
        head.serve({ offset: 0, length: 4096 });
        const gap = 100_000;
        expect(head.serve({ offset: 4096 + gap, length: 4096 })).toBeCloseTo(transferMs(gap) + transferMs(4096), 12);
    });

    test('a random 4 KiB read costs the average seek, half a turn and its transfer', () => {
        const positions = grid(300).map(u => Math.floor(u * TB));
        let sum = 0;
        let reads = 0;
        for (const from of positions) {
            for (const to of positions) {
                if (from === to) continue;
                const head = new Head(HDD_7200, TB);
                head.serve({ offset: from, length: 0 });
                sum += head.costMs({ offset: to, length: 4096 });
                reads++;
            }
        }
        const expected = HDD_7200.averageSeekMs + revolutionMs(HDD_7200) / 2 + transferMs(4096);
        expect(expected).toBeCloseTo(12.69, 2);
        expect(sum / reads).toBeCloseTo(expected, 1);
    });

    test('a read far behind the head pays a seek even if short', () => {
        const head = new Head(HDD_7200, TB);
        head.serve({ offset: 1e9, length: 4096 });
        const back = head.costMs({ offset: 1e9 - 4096, length: 4096 });
        expect(back).toBeGreaterThan(HDD_7200.trackToTrackMs + revolutionMs(HDD_7200) / 2);
    });
});

describe('which request the disk serves next', () => {
    // The head at 0; a far, a near and a middle request waiting, oldest first.
    const far = { offset: 0.9 * TB, length: 4096 };
    const near = { offset: 8192, length: 4096 };
    const middle = { offset: 0.4 * TB, length: 4096 };

    test('with a window of 1, the oldest', () => {
        expect(nextRequest([far, near, middle], new Head(HDD_7200, TB), 1)).toBe(0);
    });

    test('with command queueing, the nearest within the window', () => {
        expect(nextRequest([far, near, middle], new Head(HDD_7200, TB), 32)).toBe(1);
        expect(nextRequest([far, middle, near], new Head(HDD_7200, TB), 2)).toBe(1);
        expect(nextRequest([far, middle, near], new Head(HDD_7200, TB), 3)).toBe(2);
    });

    test('a tie goes to the oldest, and one request is the one served', () => {
        expect(nextRequest([near, { ...near }], new Head(HDD_7200, TB), 32)).toBe(0);
        expect(nextRequest([far], new Head(HDD_7200, TB), 32)).toBe(0);
    });
});
