// SPDX-License-Identifier: LGPL-2.1-or-later
// After writing a kernel attribute raidtune reads it back: the kernel clamps some values
// (queue_depth above 128, nr_requests below 4) and may allocate a smaller stripe cache than asked.

import { localOrSystemText, parseLocalOrSystem } from './sysfs';

/** Whether the value read back says the write took effect; sync_action changes by itself. */
export function readBackMatches(path: string, written: string, readBack: string): boolean {
    return path.endsWith('/sync_action') || attributeValue(path, readBack) === written;
}

/**
 * An attribute's content in the form raidtune writes it (and keeps as a step's `from`): "system"
 * or the number for "1000 (system)" / "1000 (local)" (sync_speed_min|max, sync_io_depth), the
 * scheduler in use for "none [mq-deadline]".
 */
export function attributeValue(path: string, content: string): string {
    const value = content.trim();
    if (/\/md\/sync_(speed_min|speed_max|io_depth)$/.test(path)) {
        const setting = parseLocalOrSystem(value);
        if (setting) return localOrSystemText(setting)!;
    }
    if (path.endsWith('/queue/scheduler')) return schedulerInUse(value) ?? value;
    return value;
}

/**
 * The scheduler in use: the bracketed word of "none [mq-deadline] bfq", or the only word (bio-based
 * devices print just "none"; the simulated host shows the bare word written until its next tick).
 */
function schedulerInUse(value: string): string | null {
    const words = value.split(/\s+/);
    const bracketed = words.find(w => /^\[.+\]$/.test(w));
    if (bracketed) return bracketed.slice(1, -1);
    return words.length === 1 ? words[0] : null;
}
