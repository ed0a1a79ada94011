// SPDX-License-Identifier: LGPL-2.1-or-later
// User Timing entries for each refresh, read by the browser tests and the benchmark:
// "raidtune:refresh" measures read + parse + model build, with detail { seq, full, readMs, parseMs,
// buildMs } (full: a full read, not a fast one (src/md/modelBuilder.ts); readMs: the bridge round
// trip; parseMs: the parse; buildMs: the model build);
// "raidtune:render" measures the React commit of that model, with detail { seq };
// "raidtune:refresh-start" marks the start of a refresh's read, with the detail { seq } it will
// have if it succeeds: a refresh is under way while that seq has not rendered yet.
// Entries are cleared now and then so a page left open for days does not grow; the newest of each
// kind always stays.

const KEEP_ENTRIES = 100;
let seq = 0;

export function recordRefreshStart(): void {
    trim('raidtune:refresh-start');
    performance.mark('raidtune:refresh-start', { detail: { seq: seq + 1 } });
}

export function recordRefresh(full: boolean, start: number, readDone: number, parsed: number, built: number): number {
    seq++;
    trim('raidtune:refresh');
    performance.measure('raidtune:refresh', {
        start, end: built,
        detail: { seq, full, readMs: readDone - start, parseMs: parsed - readDone, buildMs: built - parsed },
    });
    return seq;
}

export function recordRender(refreshSeq: number, start: number): void {
    trim('raidtune:render');
    performance.measure('raidtune:render', { start, end: performance.now(), detail: { seq: refreshSeq } });
}

function trim(name: string) {
    const entries = performance.getEntriesByName(name);
    if (entries.length < KEEP_ENTRIES) return;
    if (entries[0].entryType === 'mark') performance.clearMarks(name);
    else performance.clearMeasures(name);
}
