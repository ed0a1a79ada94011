// SPDX-License-Identifier: LGPL-2.1-or-later
// The history of sync operations that the host's recorder keeps (recorder/raidtune-history, run
// by raidtune-history.timer while no browser is open): one JSON line per ended operation in
// <state>/history/<array uuid>.jsonl. Read from the snapshot's `raidtune-history` section at full
// reads. Every line is checked field by field: a bad or truncated line (a disk that filled up, an
// edit by hand) is skipped and counted, never trusted and never a failure of the page.

/** Where the gather script puts the history files in a snapshot (its `raidtune-history` root). */
export const HISTORY_ROOT = 'raidtune-history';
export const HISTORY_DIR = 'history';
/** The recorder's systemd timer (installed with the plugin, off until the page turns it on). */
export const HISTORY_TIMER = 'raidtune-history.timer';
/** Lines the recorder keeps per array (its service passes this; the newest are kept). */
export const HISTORY_KEEP = 50;

export const OPERATION_TYPES = ['resync', 'recover', 'check', 'repair', 'reshape'] as const;
export type OperationType = typeof OPERATION_TYPES[number];

export interface SyncOperation {
    array: string;
    uuid: string;
    type: OperationType;
    /** Unix seconds of the first sample that saw it running, and of its end as sampled. */
    start: number;
    end: number;
    seconds: number;
    /** Where it started (a resumed check starts past 0), how far it got and the whole, KiB per device. */
    startKiB: number | null;
    doneKiB: number | null;
    sizeKiB: number | null;
    avgKiBs: number | null;
    /** The effective per-device limits at its last sample, KiB/s; limitsChanged when they moved while it ran. */
    speedMinKiBs: number | null;
    speedMaxKiBs: number | null;
    limitsChanged: boolean;
    /** mismatch_cnt as the operation ended (null when the array was gone). */
    mismatches: number | null;
    finished: boolean;
    /** Seconds between the recorder's samples: start and end are known to within it. */
    intervalSeconds: number | null;
}

export interface ArrayHistory {
    /** Newest first. */
    operations: SyncOperation[];
    /** Lines that could not be read. */
    skipped: number;
}

export interface SyncHistory {
    /** Keyed by the file's name: the array's uuid (or its name when md has no uuid attribute). */
    byKey: Map<string, ArrayHistory>;
    /** Unix seconds of the recorder's last run; null when it never ran. */
    lastRun: number | null;
}

const KEY = /^[0-9A-Za-z:_-]+$/;
const ARRAY_NAME = /^md[A-Za-z0-9_]+$/;

const isCount = (value: unknown): value is number =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const countOrNull = (value: unknown): number | null | undefined =>
    (value === null ? null : isCount(value) ? value : undefined);

/** One recorder line as an operation, or null when any field is missing or not what the recorder writes. */
export function parseHistoryLine(line: string): SyncOperation | null {
    let raw: unknown;
    try {
        raw = JSON.parse(line);
    } catch {
        return null;
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
    const r = raw as Record<string, unknown>;
    if (r.v !== 1 || typeof r.array !== 'string' || !ARRAY_NAME.test(r.array)) return null;
    if (typeof r.uuid !== 'string' || !KEY.test(r.uuid)) return null;
    if (!(OPERATION_TYPES as readonly unknown[]).includes(r.type)) return null;
    if (!isCount(r.start) || !isCount(r.end) || r.end < r.start || r.seconds !== r.end - r.start) return null;
    if (r.result !== 'finished' && r.result !== 'interrupted') return null;
    if (typeof r.limitsChanged !== 'boolean') return null;
    const numbers = ['startKiB', 'doneKiB', 'sizeKiB', 'avgKiBps', 'speedMin', 'speedMax', 'mismatches', 'interval']
        .map(key => countOrNull(r[key]));
    if (numbers.includes(undefined)) return null;
    const [startKiB, doneKiB, sizeKiB, avgKiBs, speedMinKiBs, speedMaxKiBs, mismatches, intervalSeconds] =
        numbers as (number | null)[];
    return {
        array: r.array, uuid: r.uuid, type: r.type as OperationType, start: r.start, end: r.end, seconds: r.seconds,
        startKiB, doneKiB, sizeKiB, avgKiBs, speedMinKiBs, speedMaxKiBs, limitsChanged: r.limitsChanged, mismatches,
        finished: r.result === 'finished', intervalSeconds,
    };
}

/** One file's text: its operations newest first, and how many lines were skipped. */
export function parseHistoryFile(text: string): ArrayHistory {
    const operations: SyncOperation[] = [];
    let skipped = 0;
    for (const line of text.split('\n')) {
        if (!line.trim()) continue;
        const operation = parseHistoryLine(line);
        if (operation) operations.push(operation);
        else skipped++;
    }
    return { operations: operations.reverse(), skipped };
}

// The files change only when an operation ends: the same text gives the same object, so a full
// read every 10 s neither parses again nor hands the cards a new history.
const parsed = new Map<string, { text: string; history: ArrayHistory }>();

/** The snapshot's history section (paths /raidtune-history/NAME) as histories per array key. */
export function parseSyncHistory(files: ReadonlyMap<string, string>): SyncHistory {
    const byKey = new Map<string, ArrayHistory>();
    let lastRun: number | null = null;
    const prefix = `/${HISTORY_ROOT}/`;
    for (const [path, text] of files) {
        const name = path.startsWith(prefix) ? path.slice(prefix.length) : '';
        if (name === 'last-run') {
            const n = Number(text.trim());
            lastRun = isCount(n) && text.trim() !== '' ? n : null;
            continue;
        }
        const key = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : '';
        if (!KEY.test(key)) continue;
        let entry = parsed.get(key);
        if (entry?.text !== text) {
            entry = { text, history: parseHistoryFile(text) };
            parsed.set(key, entry);
        }
        byKey.set(key, entry.history);
    }
    return { byKey, lastRun };
}

/** An array's history: by its uuid as md reports it, else by its name (md without a uuid attribute). */
export function historyOf(history: SyncHistory, array: { name: string; uuid: string | null }): ArrayHistory | null {
    return (array.uuid !== null ? history.byKey.get(array.uuid) : undefined) ?? history.byKey.get(array.name) ?? null;
}

export const EMPTY_HISTORY: SyncHistory = { byKey: new Map(), lastRun: null };
