// SPDX-License-Identifier: LGPL-2.1-or-later
// The progress line of a /proc/mdstat stanza:
//   [==>.......]  recovery = 12.6% (123/456) finish=88.0min speed=35394K/sec   or   resync=DELAYED

import type { MdstatSync, SyncRunState } from './types';
import { words } from './words';

// A Map, not an object literal: a word such as "constructor" must not find Object.prototype's.
const WAITING_STATES = new Map<string, SyncRunState>([
    ['DELAYED', 'delayed'],
    ['PENDING', 'pending'],
    // md-cluster: another node is doing the resync, so for this array it is under way.
    ['REMOTE', 'running'],
]);

const PROGRESS = /^(?:\[[=>.]*\])?\s*([A-Za-z]+)\s*=\s*(.*)$/;
const PERCENT = /^(\d{1,3}(?:\.\d{1,3})?)%$/;
const COUNTERS = /^\((\d{1,15})\/(\d{1,15})\)$/;
const FINISH = /^finish=(\d{1,15}(?:\.\d{1,6})?)min$/;
const SPEED = /^speed=(\d{1,15})K\/sec$/;

/**
 * `[==>...]  recovery = 12.6% (123/456) finish=88.0min speed=35394K/sec` or `resync=DELAYED`; null
 * when the line names no action and state. Words after the percentage are read one by one, so one
 * odd word does not lose the others; returns the words it could not read.
 */
export function parseProgress(line: string): { sync: MdstatSync; unread: string[] } | null {
    const match = PROGRESS.exec(line);
    if (!match) return null;
    const action = match[1].toLowerCase();
    const [first = '', ...rest] = words(match[2]);
    const waiting = WAITING_STATES.get(first);
    const percent = PERCENT.exec(first);
    if (!waiting && !percent) return null;
    const sync: MdstatSync = {
        action, state: waiting ?? 'running', percent: percent ? Number(percent[1]) : null,
        done: null, total: null, finishMinutes: null, speedKiBs: null,
    };
    return { sync, unread: rest.filter(word => !readProgressWord(sync, word)) };
}

/** Reads one `(done/total)`, `finish=...` or `speed=...` word into `sync`; false if it is none of them. */
function readProgressWord(sync: MdstatSync, word: string): boolean {
    const counters = COUNTERS.exec(word);
    const finish = FINISH.exec(word);
    const speed = SPEED.exec(word);
    if (counters) {
        sync.done = Number(counters[1]);
        sync.total = Number(counters[2]);
    } else if (finish) {
        sync.finishMinutes = Number(finish[1]);
    } else if (speed) {
        sync.speedKiBs = Number(speed[1]);
    }
    return Boolean(counters || finish || speed);
}
