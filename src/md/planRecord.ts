// SPDX-License-Identifier: LGPL-2.1-or-later
// The record of a plan being applied, kept on the host beside the restore journal: written before
// the plan's first step, removed when it ended (done or failed). A record found at a later load
// means the plan was cut short (the tab closed, the page reloaded, the connection lost), and the
// page offers to finish it or undo what took effect. Which steps took effect is told from what the
// host holds now, step by step: the executor writes in order, so everything before the last step
// the host holds had run too.

import { msg, N_, type Message } from './message';
import { FILE_FORMATS, isEditableKey, type FileFormat } from './lineEdit';
import { editedText, invertSteps, type Plan, type Step } from './plan';
import { readBackMatches } from './readBack';

export const PLAN_RECORD_FILE = 'applying.json';

export interface PlanRecord {
    version: 1;
    /** Tells this page's own records (of plans it is applying) from ones left by another. */
    id: string;
    startedAt: string;
    /** Rewritten by the applying page while it applies: its last sign of life (absent: startedAt). */
    aliveAt?: string;
    title: Message;
    steps: Step[];
}

/** How often the applying page rewrites aliveAt, however long a step takes. */
export const HEARTBEAT_SECONDS = 5;
/** Silence after which the applier is taken for gone (the page closed, the connection lost). */
export const APPLIER_GONE_AFTER_SECONDS = 30;

/**
 * Whether another page is still applying the record's plan: it rewrites aliveAt every few seconds,
 * so a record that has not been rewritten for several of those was left by a page that is gone. A
 * live applier must never be told apart wrongly (another tab would offer to undo mid-apply), hence
 * the margin. `now` is this page's clock, in ms; aliveAt is the applier's.
 */
export function applierAlive(record: PlanRecord, now: number): boolean {
    const last = Date.parse(record.aliveAt ?? record.startedAt);
    return Number.isFinite(last) && now - last < APPLIER_GONE_AFTER_SECONDS * 1000;
}

const recordSetting = (): Message => msg(N_('raidtune\'s record of the change being made'));

export function planRecordPath(stateDir: string): string {
    return `${stateDir}/${PLAN_RECORD_FILE}`;
}

/** Written before the plan's first step. */
export function recordStartStep(record: PlanRecord, stateDir: string): Step {
    return { kind: 'write-file', setting: recordSetting(), path: planRecordPath(stateDir), content: JSON.stringify(record) + '\n', previous: null };
}

/** Run once the plan ended, whether it failed or not. */
export function recordEndStep(stateDir: string): Step {
    return { kind: 'write-file', setting: recordSetting(), path: planRecordPath(stateDir), content: null, previous: null };
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isMessage = (v: unknown): v is Message => {
    const m = v as Message | null;
    return !!m && isString(m.message) && Array.isArray(m.args) && m.args.every(a => isString(a) || typeof a === 'number');
};
/** Attribute paths as the plans make them: canonical /sys or /proc, no way out of them. */
const isAttributePath = (p: unknown): p is string => isString(p) && /^\/(sys|proc)\//.test(p) && !p.split('/').includes('..');
const isFilePath = (p: unknown): p is string => isString(p) && p.startsWith('/') && !p.split('/').includes('..');
const isArgv = (a: unknown): a is string[] => Array.isArray(a) && a.length > 0 && a.every(isString);
const isLineEdit = (format: FileFormat) => (e: unknown): boolean => {
    const edit = e as { key?: unknown; lines?: unknown } | null;
    return !!edit && isString(edit.key) && isEditableKey(edit.key, format) && Array.isArray(edit.lines) &&
        edit.lines.every(l => isString(l) && !l.includes('\n'));
};

function isStep(step: unknown): step is Step {
    const s = step as Record<string, unknown> | null;
    if (!s || !isMessage(s.setting)) return false;
    switch (s.kind) {
    case 'write-attribute':
        return isAttributePath(s.path) && isString(s.to) && (s.from === null || isString(s.from));
    case 'run':
        return isArgv(s.argv) && (s.undoArgv === null || isArgv(s.undoArgv)) &&
            (s.stdin === undefined || isString(s.stdin));
    case 'write-file':
        return isFilePath(s.path) && (s.content === null || isString(s.content)) &&
            (s.previous === null || isString(s.previous)) && (s.checked === undefined || typeof s.checked === 'boolean');
    case 'edit-file':
        return isFilePath(s.path) && FILE_FORMATS.includes(s.format as FileFormat) &&
            Array.isArray(s.edits) && s.edits.every(isLineEdit(s.format as FileFormat)) &&
            (s.opened === null || isString(s.opened));
    default:
        return false;
    }
}

/** The record the host holds, or null: none, or not one raidtune wrote (then nothing is offered). */
export function parsePlanRecord(text: string | null | undefined): PlanRecord | null {
    if (!text) return null;
    try {
        const data = JSON.parse(text) as PlanRecord;
        const valid = data && data.version === 1 && isString(data.id) && isString(data.startedAt) &&
            (data.aliveAt === undefined || isString(data.aliveAt)) && isMessage(data.title) &&
            Array.isArray(data.steps) && data.steps.length > 0 && data.steps.every(isStep);
        return valid ? data : null;
    } catch {
        return null;
    }
}

/** The file a step's effect shows in (null: a command, whose effect cannot be read back). */
export function stepCheckPath(step: Step): string | null {
    return step.kind === 'run' ? null : step.path;
}

/** Whether the host holds what the step writes; `current` is the file's content, null when absent. */
function holds(step: Step, current: string | null | undefined): boolean {
    switch (step.kind) {
    case 'write-attribute':
        return current != null && readBackMatches(step.path, step.to, current);
    case 'write-file':
        return (current ?? null) === step.content;
    case 'edit-file':
        return editedText(step, current ?? null) === (current ?? null);
    case 'run':
        return false;
    }
}

export interface PlanProgress {
    /** The steps that took effect, in order. */
    applied: Step[];
    /** The steps after them, which did not run. */
    remaining: Step[];
}

/**
 * Splits the record's steps where the plan was cut: after the last step the host holds. A step
 * before it whose value differs (a clamp, a command) ran all the same.
 * @param current each checked file's content as read now (null: absent)
 */
export function planProgress(record: PlanRecord, current: ReadonlyMap<string, string | null>): PlanProgress {
    let cut = 0;
    record.steps.forEach((step, i) => {
        const path = stepCheckPath(step);
        if (path !== null && holds(step, current.get(path))) cut = i + 1;
    });
    return { applied: record.steps.slice(0, cut), remaining: record.steps.slice(cut) };
}

/** The rest of the plan. */
export function finishPlan(record: PlanRecord, progress: PlanProgress): Plan {
    return { title: record.title, steps: progress.remaining };
}

/** Puts back what the steps that took effect changed (those that can be reversed). */
export function undoPlan(record: PlanRecord, progress: PlanProgress): Plan {
    return invertSteps(record.title, progress.applied);
}

/** Leaves the host as it is and forgets the record. */
export function forgetPlan(stateDir: string): Plan {
    return { title: msg(N_('Forget the unfinished change')), steps: [recordEndStep(stateDir)] };
}
