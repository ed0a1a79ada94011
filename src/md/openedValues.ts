// SPDX-License-Identifier: LGPL-2.1-or-later
// A change dialog builds its plan against the values the host had when it opened: each write's
// `from`. Another tab, a shell or a udev rule may change them before the user presses Apply, and
// the user decided on what the dialog showed. So at Apply the values are read again; when one
// differs nothing is written until the user has seen "was X, is Y" and confirmed.

import { isNoOp, type Step, type WriteAttributeStep } from './plan';
import { attributeValue } from './readBack';

export interface ChangedSinceOpened {
    step: WriteAttributeStep;
    /** The value the plan was built against. */
    was: string;
    /** The value on the host now, in the form raidtune writes it; null when it could not be read. */
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

/** The writes whose value on the host is no longer the one the plan was built against. */
export function changedSinceOpened(steps: readonly Step[],
    contents: ReadonlyMap<string, string | null>): ChangedSinceOpened[] {
    return comparedSteps(steps).flatMap(step => {
        const content = contents.get(step.path);
        const now = content === undefined || content === null ? null : attributeValue(step.path, content);
        return now === step.from ? [] : [{ step, was: step.from!, now }];
    });
}

/**
 * The steps to apply once the user confirmed anyway: each replaces what is there now (so undo and
 * the record of originals hold the real previous value), and writes of a value already there go.
 */
export function rebasedOnCurrent(steps: readonly Step[], changes: readonly ChangedSinceOpened[]): Step[] {
    const now = new Map(changes.filter(c => c.now !== null).map(c => [c.step.path, c.now!]));
    return steps
        .map(s => (s.kind === 'write-attribute' && s.from !== null && now.has(s.path) ? { ...s, from: now.get(s.path)! } : s))
        .filter(s => !isNoOp(s));
}
