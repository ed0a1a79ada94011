// SPDX-License-Identifier: LGPL-2.1-or-later
// A change dialog builds its plan against the values the host had when it opened: each write's
// `from`. Another tab, a shell or a udev rule may change them before the user presses Apply, and
// the user decided on what the dialog showed. So at Apply the values are read again; when one
// differs nothing is written until the user has seen "was X, is Y" and confirmed. The same holds
// for the files a plan edits or writes over: a file whose text is no longer the one the dialog read
// when it opened (another tab, `mdadm --detail --scan >> mdadm.conf`) stops the apply too.

import { isNoOp, type EditFileStep, type Step, type WriteAttributeStep, type WriteFileStep } from './plan';
import { attributeValue } from './readBack';

export type ChangedSinceOpened = ChangedValue | ChangedFile;

export interface ChangedValue {
    step: WriteAttributeStep;
    /** The value the plan was built against. */
    was: string;
    /** The value on the host now, in the form raidtune writes it; null when it could not be read. */
    now: string | null;
}

export interface ChangedFile {
    step: EditFileStep | WriteFileStep;
    /** The file's text when the dialog opened, and now (null: no such file). */
    was: string | null;
    now: string | null;
}

/**
 * Writes whose replaced value is known. sync_action changes by itself (a check ends, a recovery
 * starts), and its steps record no `from`, so it is never compared.
 */
function comparedSteps(steps: readonly Step[]): WriteAttributeStep[] {
    return steps.filter((s): s is WriteAttributeStep => s.kind === 'write-attribute' && s.from !== null && !s.path.endsWith('/sync_action'));
}

/** The paths to read again before applying these steps. */
export function pathsToRecheck(steps: readonly Step[]): string[] {
    return [...new Set(comparedSteps(steps).map(s => s.path))];
}

/** The steps whose file's text is checked, with the text they were decided on. */
type CheckedFile = { step: EditFileStep | WriteFileStep; was: string | null };

function checkedFiles(steps: readonly Step[]): CheckedFile[] {
    return steps.flatMap((s): CheckedFile[] => {
        if (s.kind === 'edit-file') return [{ step: s, was: s.opened }];
        return s.kind === 'write-file' && s.checked ? [{ step: s, was: s.previous }] : [];
    });
}

/** The files the steps edit or write over, to read again before applying them. */
export function filesToRecheck(steps: readonly Step[]): string[] {
    return [...new Set(checkedFiles(steps).map(c => c.step.path))];
}

/**
 * Whether a file holds the text a change was decided on. The kept files' text comes from the page's
 * refresh, which reads lines (an empty file is none to it, and a last line gets a newline), so those
 * differences are none. (An edit is applied to the file as it is anyway: this only asks the user.)
 */
export function sameFileText(was: string | null, now: string | null): boolean {
    const lines = (text: string | null) => (!text ? '' : text.endsWith('\n') ? text : `${text}\n`);
    return lines(was) === lines(now);
}

/** The steps whose file's text is no longer the one the plan was built against (`texts`: null, no file). */
export function filesChangedSinceOpened(steps: readonly Step[],
    texts: ReadonlyMap<string, string | null>): ChangedFile[] {
    return checkedFiles(steps).flatMap(({ step, was }) => {
        const now = texts.get(step.path) ?? null;
        return sameFileText(was, now) ? [] : [{ step, was, now }];
    });
}

/** The writes whose value on the host is no longer the one the plan was built against. */
export function changedSinceOpened(steps: readonly Step[],
    contents: ReadonlyMap<string, string | null>): ChangedValue[] {
    return comparedSteps(steps).flatMap(step => {
        const content = contents.get(step.path);
        const now = content === undefined || content === null ? null : attributeValue(step.path, content);
        return now === step.from ? [] : [{ step, was: step.from!, now }];
    });
}

/**
 * The steps to apply once the user confirmed anyway: each replaces what is there now (so undo and
 * the record of originals hold the real previous value), and writes of a value already there go.
 * An edit is applied to the file's text as it is now, its own lines only.
 */
export function rebasedOnCurrent(steps: readonly Step[], changes: readonly ChangedSinceOpened[]): Step[] {
    const values = new Map(changes.filter(c => c.step.kind === 'write-attribute' && c.now !== null).map(c => [c.step.path, c.now!]));
    const files = new Map(changes.filter(c => c.step.kind !== 'write-attribute').map(c => [c.step.path, c.now]));
    return steps
        .map((s): Step => {
            if (s.kind === 'write-attribute' && s.from !== null && values.has(s.path)) return { ...s, from: values.get(s.path)! };
            if (s.kind === 'edit-file' && files.has(s.path)) return { ...s, opened: files.get(s.path)! };
            if (s.kind === 'write-file' && s.checked && files.has(s.path)) return { ...s, previous: files.get(s.path)! };
            return s;
        })
        .filter(s => !isNoOp(s));
}
