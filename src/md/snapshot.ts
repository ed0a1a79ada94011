// A snapshot is everything one refresh read from the host, as raw text keyed by canonical path
// ("/proc/mdstat", "/sys/block/md0/md/level"), whatever root it was really read from.

export interface Snapshot {
    /** Canonical path -> file content (lines joined with "\n", final newline kept). */
    files: Map<string, string>;
    /** Page size in bytes, when the host was asked for it. */
    pageSize: number | null;
    /** Roots that could not be entered ("proc", "sys"). */
    missingRoots: string[];
    /** True when the output ended with the end marker: a cut-off transfer is not trusted. */
    complete: boolean;
    /** systemd runs the host (PID 1) and has systemd-run: the gather script's `@@systemd` marker. */
    systemd?: boolean;
}

const MARKER = '@@';

/** Parse the output of GATHER_SCRIPT (src/host/gatherScript.ts): markers plus `path:line` records. */
export function parseGatherOutput(output: string): Snapshot {
    const snapshot: Snapshot = { files: new Map(), pageSize: null, missingRoots: [], complete: false };
    let prefix: string | null = null;

    // Walks the text by index rather than split('\n'): at 128 arrays that is 29k lines, and a
    // record's value is then one slice of the output, its newline included, with no concatenation.
    for (let start = 0; start < output.length;) {
        const newline = output.indexOf('\n', start);
        const end = newline < 0 ? output.length : newline;
        if (output.startsWith(MARKER, start)) {
            const [word, arg] = output.slice(start + MARKER.length, end).split(' ');
            if (word === 'root') prefix = `/${arg}/`;
            else if (word === 'missing') snapshot.missingRoots.push(arg);
            else if (word === 'pagesize') snapshot.pageSize = positiveIntOrNull(arg);
            else if (word === 'end') snapshot.complete = true;
            else if (word === 'systemd') snapshot.systemd = true;
        } else {
            const colon = output.indexOf(':', start);
            if (prefix !== null && colon > start && colon < end) {
                // Most files are one line: append instead of collecting arrays (26k files at 128 arrays).
                const path = prefix + output.slice(start, colon);
                const value = newline < 0 ? `${output.slice(colon + 1)}\n` : output.slice(colon + 1, newline + 1);
                const sofar = snapshot.files.get(path);
                snapshot.files.set(path, sofar === undefined ? value : sofar + value);
            }
        }
        start = end + 1;
    }
    return snapshot;
}

function positiveIntOrNull(text: string | undefined): number | null {
    const n = Number(text);
    return Number.isInteger(n) && n > 0 ? n : null;
}

/** A snapshot's file, trimmed, or null when it was not there. */
export function readValue(snapshot: Snapshot, path: string): string | null {
    const content = snapshot.files.get(path);
    return content === undefined ? null : content.trim();
}
