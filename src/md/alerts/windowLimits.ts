// SPDX-License-Identifier: LGPL-2.1-or-later
// The limits an open check window (ownWindow.ts) replaced and wrote, as the model reads them and an
// apply weighs them: apart from the window's plans, which the host model does not need.

import type { OpenWindowLimits } from '../modelTypes';
import { parseArmedFile } from '../autoRestore';

/**
 * The values an open window's end writes back, where recorder/raidtune-check-window keeps them
 * (relative to raidtune's state folder): written at the window's start, removed at its end.
 */
export const WINDOW_LIMITS_ARMED = 'check-window/limits.armed';

/**
 * The values an open window wrote at its start, as the kernel read them back (the tool's
 * limits.held, same format): its end keeps a limit that no longer holds one, as changed meanwhile.
 */
export const WINDOW_LIMITS_HELD = 'check-window/limits.held';

/** The limits an open window replaced and wrote; null when none are in force. */
export function windowLimitsInForce(armed: string | undefined, held?: string): OpenWindowLimits | null {
    if (armed === undefined) return null;
    return { before: parseArmedFile(armed), held: held === undefined ? null : new Map(parseArmedFile(held)) };
}

/**
 * What a limit will be once the open window has closed, if it is `now` until then: the value from
 * before the window while it holds the window's own (the end writes that back; also where the start
 * did not say what it wrote), else `now`, which the end keeps. A limit the window does not hold: `now`.
 */
export function valueAfterWindow(window: OpenWindowLimits | null, path: string, now: string): string {
    const before = window?.before.find(([p]) => p === path)?.[1];
    if (before === undefined) return now;
    const held = window?.held?.get(path);
    return held === undefined || held === now ? before : now;
}
