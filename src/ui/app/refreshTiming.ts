// User Timing entries for each refresh, read by the browser tests and the benchmark:
// "raidtune:refresh" measures read + parse + model build, with detail { seq, full, readMs, parseMs,
// buildMs } (full: a full read, not a fast one (src/md/modelBuilder.ts); readMs: the bridge round
// trip; parseMs: the parse; buildMs: the model build);
// "raidtune:render" measures the React commit of that model, with detail { seq }.
// Entries are cleared now and then so a page left open for days does not grow.

const KEEP_ENTRIES = 100;
let seq = 0;

export function recordRefresh(full: boolean, start: number, readDone: number, parsed: number, built: number): number {
    seq++;
    performance.measure('raidtune:refresh', {
        start, end: built, detail: { seq, full, readMs: readDone - start, parseMs: parsed - readDone, buildMs: built - parsed },
    });
    trim('raidtune:refresh');
    return seq;
}

export function recordRender(refreshSeq: number, start: number): void {
    performance.measure('raidtune:render', { start, end: performance.now(), detail: { seq: refreshSeq } });
    trim('raidtune:render');
}

function trim(name: string) {
    if (performance.getEntriesByName(name).length > KEEP_ENTRIES) performance.clearMeasures(name);
}
