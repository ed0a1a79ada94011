// SPDX-License-Identifier: LGPL-2.1-or-later
// A snapshot is everything one refresh read from the host, as raw text keyed by canonical path
// ("/proc/mdstat", "/sys/block/md0/md/level"), whatever root it was really read from.
//
// GatherParser parses one refresh after another and says what changed since the last one, so that
// buildModel can reuse what did not (src/md/modelBuilder.ts). At 128 arrays the output is 33k lines,
// of which a few hundred change from one refresh to the next: parsing them all again cost ~12 ms
// and rebuilding everything from them ~50 ms of the page's main thread.

export interface Snapshot {
    /** Canonical path -> file content (lines joined with "\n", final newline kept). */
    files: ReadonlyMap<string, string>;
    /** Page size in bytes, when the host was asked for it. */
    pageSize: number | null;
    /** Roots that could not be entered ("proc", "sys"). */
    missingRoots: string[];
    /** True when the output ended with the end marker: a cut-off transfer is not trusted. */
    complete: boolean;
    /** systemd runs the host (PID 1) and has systemd-run: the gather script's `@@systemd` marker. */
    systemd?: boolean;
    /** Which parse this is (unique): what a later snapshot's `changed.since` refers to. */
    id?: number;
    /**
     * The paths whose content may differ from the snapshot `since`'s (added and removed ones
     * included); every other path holds the same text. A root read anew lists all its paths.
     */
    changed?: { since: number; paths: ReadonlySet<string> };
    /** The /sys paths in output order; the same array object as the previous snapshot's when it held the same paths. */
    sysPaths?: readonly string[];
    /** Sections a fast read left out (`@@reused NAME`): their files are those of the last read that had them. */
    reusedSections?: string[];
    /** Each section's paths ("proc", "sys", "sys settings", "raidtune-state"...). */
    sectionPaths?: ReadonlyMap<string, readonly string[]>;
}

const MARKER = '@@';
const SYS_PREFIX = '/sys/';
const COLON = 58;

let lastSnapshotId = 0;

/** Parse the output of GATHER_SCRIPT (src/host/gatherScript.ts): markers plus `path:line` records. */
export function parseGatherOutput(output: string): Snapshot {
    return new GatherParser().parse(output);
}

/** One root's records as last read: compared with the next output's to find what changed. */
interface Section {
    /** The canonical folder of its paths: "/sys/" for the sections "sys" and "sys settings". */
    prefix: string;
    /** The records exactly as read. */
    body: string;
    /** The canonical path of each line of body (null: a line that is no record). */
    lineKeys: (string | null)[];
    /** Each path once, in order. */
    paths: string[];
    /** Paths whose file has more than one line (a changed line of these re-reads the section). */
    multiLine: Set<string>;
}

/**
 * Parses successive gather outputs of one host. The snapshots it returns share one files map,
 * updated in place: a snapshot is valid until the next parse (only the refresh loop keeps one).
 */
export class GatherParser {
    private readonly files = new Map<string, string>();
    private sections = new Map<string, Section>();
    private lastId: number | null = null;
    private sysPaths: { from: string[][]; paths: string[] } = { from: [], paths: [] };

    parse(output: string): Snapshot {
        const id = ++lastSnapshotId;
        const changed = new Set<string>();
        const snapshot: Snapshot = {
            files: this.files, pageSize: null, missingRoots: [], complete: false, id, reusedSections: [],
        };
        const sections = new Map<string, Section>();
        let open: { name: string; bodyStart: number } | null = null;
        const close = (end: number) => {
            if (!open) return;
            sections.set(open.name, this.updateSection(open.name, output.slice(open.bodyStart, end), changed));
            open = null;
        };

        for (let start = 0; start < output.length;) {
            if (!output.startsWith(MARKER, start)) {
                // Records: jump to the next marker line (records never start with the marker).
                const next = output.indexOf(`\n${MARKER}`, start);
                start = next < 0 ? output.length : next + 1;
                continue;
            }
            close(start);
            const newline = output.indexOf('\n', start);
            const end = newline < 0 ? output.length : newline;
            const marker = output.slice(start + MARKER.length, end);
            const space = marker.indexOf(' ');
            const word = space < 0 ? marker : marker.slice(0, space);
            const arg = space < 0 ? '' : marker.slice(space + 1);
            if (word === 'root' && arg) open = { name: arg, bodyStart: end + 1 };
            else if (word === 'reused' && arg) {
                const reused = this.sections.get(arg);
                if (reused) sections.set(arg, reused);
                snapshot.reusedSections!.push(arg);
            } else if (word === 'missing') snapshot.missingRoots.push(arg);
            else if (word === 'pagesize') snapshot.pageSize = positiveIntOrNull(arg);
            else if (word === 'end') snapshot.complete = true;
            else if (word === 'systemd') snapshot.systemd = true;
            start = end + 1;
        }
        close(output.length);

        for (const [name, gone] of this.sections) {
            if (!sections.has(name)) this.forget(gone, changed);
        }
        if (this.lastId !== null) snapshot.changed = { since: this.lastId, paths: changed };
        snapshot.sysPaths = this.sysPathsOf(sections);
        snapshot.sectionPaths = new Map([...sections].map(([name, section]) => [name, section.paths]));
        this.sections = sections;
        this.lastId = id;
        return snapshot;
    }

    /** All /sys paths, as the same array as last time while every /sys section has the same paths. */
    private sysPathsOf(sections: Map<string, Section>): string[] {
        const from = [...sections.values()].filter(s => s.prefix === SYS_PREFIX).map(s => s.paths);
        const last = this.sysPaths;
        if (from.length !== last.from.length || from.some((paths, i) => paths !== last.from[i])) {
            this.sysPaths = { from, paths: from.flat() };
        }
        return this.sysPaths.paths;
    }

    /** Brings one root's files up to date with its new records; notes the paths that changed. */
    private updateSection(name: string, body: string, changed: Set<string>): Section {
        const before = this.sections.get(name);
        if (before?.body === body) return before;
        if (before && this.updateInPlace(before, body, changed)) return before;
        if (before) this.forget(before, changed);
        const section = this.readSection(`/${name.split(' ')[0]}/`, body);
        for (const path of section.paths) changed.add(path);
        return section;
    }

    /**
     * The common case: the same files in the same order, some lines changed. Walks the old and new
     * records side by side and replaces only the lines that differ. False when the files are not
     * the same (a device came or went, a process ended): the caller reads the section anew.
     */
    private updateInPlace(section: Section, body: string, changed: Set<string>): boolean {
        const old = section.body;
        const updates: [key: string, value: string][] = [];
        let a = 0;
        let b = 0;
        let line = 0;
        while (a < body.length && b < old.length) {
            const newEnd = lineEnd(body, a);
            const oldEnd = lineEnd(old, b);
            if (newEnd - a !== oldEnd - b || body.substring(a, newEnd) !== old.substring(b, oldEnd)) {
                const key = section.lineKeys[line];
                const colon = old.indexOf(':', b);
                const pathLength = colon - b;
                if (key == null || section.multiLine.has(key) || body.charCodeAt(a + pathLength) !== COLON ||
                    !body.startsWith(old.substring(b, colon), a)) return false;
                updates.push([key, recordValue(body, a + pathLength, newEnd)]);
            }
            a = newEnd + 1;
            b = oldEnd + 1;
            line++;
        }
        if (a < body.length || b < old.length || line !== section.lineKeys.length) return false;
        for (const [key, value] of updates) {
            this.files.set(key, value);
            changed.add(key);
        }
        section.body = body;
        return true;
    }

    private readSection(prefix: string, body: string): Section {
        const section: Section = { prefix, body, lineKeys: [], paths: [], multiLine: new Set() };
        // Walks the text by index rather than split('\n'): a record's value is then one slice of
        // the output, its newline included, with no concatenation.
        for (let start = 0; start < body.length;) {
            const end = lineEnd(body, start);
            const colon = body.indexOf(':', start);
            let key: string | null = null;
            if (colon > start && colon < end) {
                key = prefix + body.slice(start, colon);
                const value = recordValue(body, colon, end);
                const sofar = this.files.get(key);
                // Most files are one line: append instead of collecting arrays (26k files at 128 arrays).
                if (sofar !== undefined && section.lineKeys[section.lineKeys.length - 1] === key) {
                    this.files.set(key, sofar + value);
                    section.multiLine.add(key);
                } else {
                    this.files.set(key, value);
                    section.paths.push(key);
                }
            }
            section.lineKeys.push(key);
            start = end + 1;
        }
        return section;
    }

    private forget(section: Section, changed: Set<string>): void {
        for (const path of section.paths) {
            this.files.delete(path);
            changed.add(path);
        }
    }
}

function lineEnd(text: string, start: number): number {
    const newline = text.indexOf('\n', start);
    return newline < 0 ? text.length : newline;
}

/** A record's value: what follows the path's colon, with its newline (added when cut off). */
function recordValue(text: string, colon: number, end: number): string {
    return end < text.length ? text.slice(colon + 1, end + 1) : `${text.slice(colon + 1)}\n`;
}

function positiveIntOrNull(text: string | undefined): number | null {
    const n = Number(text);
    return Number.isInteger(n) && n > 0 ? n : null;
}

/** The files read under one root ("proc", "raidtune-state"), without walking every path of the snapshot. */
export function filesUnder(snapshot: Snapshot, root: string): ReadonlyMap<string, string> {
    if (snapshot.sectionPaths) {
        const paths = snapshot.sectionPaths.get(root) ?? [];
        return new Map(paths.map(path => [path, snapshot.files.get(path)!]));
    }
    const prefix = `/${root}/`;
    return new Map([...snapshot.files].filter(([path]) => path.startsWith(prefix)));
}

/** A snapshot's file, trimmed, or null when it was not there. */
export function readValue(snapshot: Snapshot, path: string): string | null {
    const content = snapshot.files.get(path);
    return content === undefined ? null : content.trim();
}
