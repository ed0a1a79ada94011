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

    for (const line of output.split('\n')) {
        if (line.startsWith(MARKER)) {
            const [word, arg] = line.slice(MARKER.length).split(' ');
            if (word === 'root') prefix = `/${arg}/`;
            else if (word === 'missing') snapshot.missingRoots.push(arg);
            else if (word === 'pagesize') snapshot.pageSize = positiveIntOrNull(arg);
            else if (word === 'end') snapshot.complete = true;
            else if (word === 'systemd') snapshot.systemd = true;
            continue;
        }
        const colon = line.indexOf(':');
        if (prefix === null || colon <= 0) continue;
        // Most files are one line: append instead of collecting arrays (26k files at 128 arrays).
        const path = prefix + line.slice(0, colon);
        const sofar = snapshot.files.get(path);
        const value = line.slice(colon + 1) + '\n';
        snapshot.files.set(path, sofar === undefined ? value : sofar + value);
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
