// SPDX-License-Identifier: LGPL-2.1-or-later
// A disk whose head has a place (issue #38): what each request costs on a 7200 rpm SATA disk, where
// a read far from the last one pays a seek and half a turn and a read right after it pays only its
// transfer. QEMU's throttling (diskModels.ts) charges every request alike wherever it lands, which
// cannot show what the seeds measured on real disks: how the interleaving of a rebuild's sequential
// stream with other I/O, and how many requests the disk may reorder, decide how often a seek is paid.
// Pure: times in milliseconds of the real disk; the server (nbdDisk.ts) scales them.
//
// Figures: Hitachi Deskstar 7K1000.C hard disk drive specification (2-disk model), table 9: average
// seek (read, typical, without command overhead, including settling) 8.5 ms; Hitachi's 7200 rpm
// specifications of the same generation (Deskstar 7K320 OEM specification, tables 7 and 8): single
// track seek 1.0 ms, one revolution 8.3 ms, average latency 4.2 ms. Full stroke: 16 ms, as issue #38
// gives it (the 7K320's table 6 says 20 ms for an older, slower actuator). Media rate: 160 MB/s, the
// outer zone of a current 7200 rpm SATA disk.

export interface SeekingDiskFigures {
    /** Sequential media rate, bytes per millisecond (160 MB/s = 160000). */
    mediaBytesPerMs: number;
    trackToTrackMs: number;
    averageSeekMs: number;
    fullStrokeMs: number;
    rpm: number;
}

export const HDD_7200: SeekingDiskFigures = {
    mediaBytesPerMs: 160_000, trackToTrackMs: 1.0, averageSeekMs: 8.5, fullStrokeMs: 16, rpm: 7200,
};

/**
 * The seek curve t(u) = a + b·√u + c·u over the fraction u of the stroke crossed (0 < u <= 1): the
 * square root for the short seeks an actuator spends accelerating, the linear part for the coast of
 * long ones. Fixed by the three figures a data sheet gives: t(one track) ≈ a, t(1) = the full
 * stroke, and the mean over random pairs of positions (|x - y| has density 2(1 - u), so the mean
 * of √u is 8/15 and of u 1/3) = the average seek.
 */
export function seekCurve(f: SeekingDiskFigures): (u: number) => number {
    const a = f.trackToTrackMs;
    const b = 5 * (f.averageSeekMs - a - (f.fullStrokeMs - a) / 3);
    const c = f.fullStrokeMs - a - b;
    if (b < 0 || c < 0) throw new Error('these seek figures fit no curve that grows with the distance');
    return u => (u <= 0 ? 0 : a + b * Math.sqrt(Math.min(1, u)) + c * Math.min(1, u));
}

export const revolutionMs = (f: SeekingDiskFigures): number => 60_000 / f.rpm;

/** What one revolution passes under the head: a forward gap shorter than this costs its rotation, not a seek. */
export const trackBytes = (f: SeekingDiskFigures): number => f.mediaBytesPerMs * revolutionMs(f);

export interface Request {
    offset: number;
    length: number;
}

/**
 * The head: where the last request ended. `costMs` is what a request costs from there: its transfer
 * alone right after the last one (the disk read ahead while it waited, as drives do); a forward gap
 * within one track, the time the platter takes to bring it round; anything else, a seek over the
 * distance and on average half a turn before the sector comes.
 */
export class Head {
    private position = 0;
    private readonly seek: (u: number) => number;

    constructor(private readonly figures: SeekingDiskFigures, private readonly capacityBytes: number) {
        this.seek = seekCurve(figures);
    }

    /** Whether the request costs a seek: it neither follows the last one nor lies ahead within one track. */
    seeks(request: Request): boolean {
        const gap = request.offset - this.position;
        return gap < 0 || gap >= trackBytes(this.figures);
    }

    positioningMs(request: Request): number {
        const gap = request.offset - this.position;
        if (!this.seeks(request)) return gap / this.figures.mediaBytesPerMs;
        return this.seek(Math.abs(gap) / this.capacityBytes) + revolutionMs(this.figures) / 2;
    }

    costMs(request: Request): number {
        return this.positioningMs(request) + request.length / this.figures.mediaBytesPerMs;
    }

    /** Serves the request: its cost, and the head is where it ended. */
    serve(request: Request): number {
        const cost = this.costMs(request);
        this.position = request.offset + request.length;
        return cost;
    }
}

/**
 * Which pending request the disk serves next: the oldest, or with command queueing (NCQ) of `window`
 * requests the one among the oldest `window` that the head reaches soonest. 1: no reordering.
 */
export function nextRequest<R extends Request>(pending: readonly R[], head: Head, window: number): number {
    let best = 0;
    for (let i = 1; i < Math.min(window, pending.length); i++) {
        if (head.positioningMs(pending[i]) < head.positioningMs(pending[best])) best = i;
    }
    return best;
}

/** What diskprobe.c measures, as the figures say it should read: real milliseconds and MB/s. */
/** A read of `bytes` anywhere on the disk, served alone: the average seek, half a turn, the transfer. */
export function randomReadMs(f: SeekingDiskFigures, bytes: number): number {
    return f.averageSeekMs + revolutionMs(f) / 2 + bytes / f.mediaBytesPerMs;
}

export interface ProbeFigures {
    sequentialMBs: number;
    randomQd1Ms: number;
    /** Fraction of the disk crossed -> the latency of a 4 KiB read there after one at offset 0. */
    distanceMs: Record<string, number>;
}

const PROBE_READ_BYTES = 4096;

/**
 * The figures a probe of a disk of `capacityBytes` should give: the media rate; a scattered read's
 * average seek, half a turn and its transfer; a read `fraction` of the disk away, the seek curve
 * there (or, within a track, the turn that brings it round) and its transfer.
 */
export function expectedProbe(f: SeekingDiskFigures, capacityBytes: number,
    fractions: readonly number[]): ProbeFigures {
    const head = (from: number) => {
        const h = new Head(f, capacityBytes);
        h.serve({ offset: from, length: 0 });
        return h;
    };
    const distanceMs = Object.fromEntries(fractions.map(fraction => {
        const far = Math.floor((fraction * capacityBytes) / PROBE_READ_BYTES) * PROBE_READ_BYTES;
        return [String(fraction), head(PROBE_READ_BYTES).costMs({ offset: far, length: PROBE_READ_BYTES })];
    }));
    return {
        sequentialMBs: f.mediaBytesPerMs / 1000,
        randomQd1Ms: randomReadMs(f, PROBE_READ_BYTES),
        distanceMs,
    };
}
