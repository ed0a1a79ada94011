// SPDX-License-Identifier: LGPL-2.1-or-later
// The record of original values kept on the host (root-owned, in the state folder) before
// raidtune's first change, so "Restore previous settings" works after a reload or a browser crash.
// Only the FIRST value seen for a path is kept: that is what the admin had before raidtune.

import { msg, N_, type Message } from './message';
import { attributeStep, type Plan, type Step } from './plan';

export const JOURNAL_FILE = 'restore.json';

export interface JournalEntry {
    path: string;
    original: string;
    setting: Message;
}

export interface Journal {
    version: 1;
    createdAt: string;
    entries: JournalEntry[];
}

export function parseJournal(text: string | null | undefined): Journal | null {
    if (!text) return null;
    try {
        const data = JSON.parse(text) as Journal;
        const valid = data && data.version === 1 && Array.isArray(data.entries) && data.entries.every(e =>
            typeof e.path === 'string' && typeof e.original === 'string' && /^\/(sys|proc)\//.test(e.path) &&
            !e.path.split('/').includes('..') && typeof e.setting?.message === 'string');
        return valid && data.entries.length ? data : null;
    } catch {
        return null;
    }
}

/** The journal with the originals of the attributes these steps change added (first seen wins). */
export function recordOriginals(journal: Journal | null, steps: readonly Step[], now: string): Journal {
    const entries = [...(journal?.entries ?? [])];
    const known = new Set(entries.map(e => e.path));
    for (const step of steps) {
        if (step.kind !== 'write-attribute' || step.from === null || known.has(step.path)) continue;
        entries.push({ path: step.path, original: step.from, setting: step.setting });
        known.add(step.path);
    }
    return { version: 1, createdAt: journal?.createdAt ?? now, entries };
}

export function serializeJournal(journal: Journal): string {
    return JSON.stringify(journal) + '\n';
}

/**
 * Writes every original value back, newest record first, as an undo does: a later change may
 * depend on an earlier one (nr_requests accepted only under the scheduler set before it).
 */
export function restorePlan(journal: Journal): Plan {
    return {
        title: msg(N_('Restore the settings from before raidtune changed them')),
        steps: [...journal.entries].reverse().map(e => attributeStep(e.setting, e.path, e.original, null)),
    };
}

/**
 * The plan's steps, preceded by a write of the updated journal when they change an attribute whose
 * original is not recorded yet: the record is on disk before the first change, so a crash midway
 * can still be undone. `alongGrowth` gives the steps that must follow the journal when it grows
 * (the armed automatic restores' copies of it, src/md/autoRestore.ts), also before the first change.
 */
export function stepsWithJournal(plan: Plan, journal: Journal | null, stateDir: string, now: string,
    alongGrowth: (updated: Journal) => Step[] = () => []): Step[] {
    const updated = recordOriginals(journal, plan.steps, now);
    if (updated.entries.length === (journal?.entries.length ?? 0)) return plan.steps;
    return [journalWrite(stateDir, serializeJournal(updated), journal), ...alongGrowth(updated), ...plan.steps];
}

/** Restore every original, then drop the journal. */
export function restoreSteps(journal: Journal, stateDir: string): Step[] {
    return [...restorePlan(journal).steps, journalWrite(stateDir, null, journal)];
}

function journalWrite(stateDir: string, content: string | null, previous: Journal | null): Step {
    return {
        kind: 'write-file', setting: msg(N_('raidtune\'s record of the previous settings')),
        path: `${stateDir}/${JOURNAL_FILE}`, content, previous: previous ? serializeJournal(previous) : null,
    };
}
