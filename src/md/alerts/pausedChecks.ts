// SPDX-License-Identifier: LGPL-2.1-or-later
// The checks raidtune's check window has paused (recorder/raidtune-check-window's records in
// raidtune's state folder), and why one was not resumed when the window opened: the schedule card
// says where each stands, so a check that silently stopped for a degraded array is not a mystery.

/** The tool's records and reasons, relative to raidtune's state folder. */
export const PAUSED_CHECK_FILES = ['check-window/*.window', 'check-window/*.waiting'] as const;
const SNAPSHOT_DIR = '/raidtune-state/check-window/';

/** Why the window's start left a paused check paused: the array was busy, degraded or reshaping. */
export type CheckWaits = 'busy' | 'degraded' | 'reshape';
const WAITS: readonly CheckWaits[] = ['busy', 'degraded', 'reshape'];
const ARRAY_NAME = /^md[0-9a-z_]+$/;

export interface PausedCheck {
    array: string;
    /** md's checkpoint, 512-byte sectors per device: where the check goes on from. */
    sector: number;
    waits: CheckWaits | null;
}

/** "paused SECTOR NAME MISMATCHES" records (a resumed check runs: not listed) with their reasons. */
export function parsePausedChecks(files: ReadonlyMap<string, string>): PausedCheck[] {
    const checks: PausedCheck[] = [];
    for (const [path, text] of files) {
        if (!path.startsWith(SNAPSHOT_DIR) || !path.endsWith('.window')) continue;
        const [state, sector, array = '', mismatches = '', ...rest] = text.trim().split(/\s+/);
        const valid = /^\d+$/.test(sector) && ARRAY_NAME.test(array) && /^\d+$/.test(mismatches) && !rest.length;
        if (state !== 'paused' || !valid) continue;
        const [reason, named] = (files.get(path.replace(/\.window$/, '.waiting')) ?? '').trim().split(/\s+/);
        const waits = WAITS.find(w => w === reason && named === array) ?? null;
        checks.push({ array, sector: Number(sector), waits });
    }
    return checks.sort((a, b) => a.array.localeCompare(b.array, undefined, { numeric: true }));
}
