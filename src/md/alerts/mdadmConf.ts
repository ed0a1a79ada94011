// SPDX-License-Identifier: LGPL-2.1-or-later
// The part of mdadm.conf that decides whether `mdadm --monitor` tells anyone: MAILADDR (where the
// mail goes), MAILFROM (its sender) and PROGRAM (run at every event). Read as mdadm's config.c
// reads it: '#' starts a comment, a line that starts with blank space continues the one before,
// keywords are case-blind and may be shortened to their first three letters or more, words may be
// quoted, and only the first MAILADDR and PROGRAM line counts (mdadm ignores later ones). An edit
// changes only those lines and keeps the rest of the file as it was.

import type { LineEdit } from '../lineEdit';

export interface MonitorConf {
    /** The first word of the first MAILADDR line: null when there is none. */
    mailAddr: string | null;
    /** MAILFROM's words, joined by blanks as mdadm does. */
    mailFrom: string | null;
    /** The first word of the first PROGRAM line (mdadm runs it with the event, device and member). */
    program: string | null;
}

export type MonitorKeyword = 'MAILADDR' | 'MAILFROM' | 'PROGRAM';
const KEYWORDS: readonly MonitorKeyword[] = ['MAILADDR', 'MAILFROM', 'PROGRAM'];

/** A keyword as mdadm matches it: at least three letters, a prefix of the keyword, any case. */
function keywordOf(word: string): MonitorKeyword | null {
    if (word.length < 3) return null;
    return KEYWORDS.find(k => k.startsWith(word.toUpperCase())) ?? null;
}

/** One logical line: its first physical line's index and how many physical lines it spans. */
interface LogicalLine {
    start: number;
    count: number;
    words: string[];
}

/** Words as conf_word() splits them: blanks separate, quotes group, '#' at a word's start ends the line. */
export function confWords(text: string): string[] {
    const words: string[] = [];
    const re = /\s*(?:"([^"]*)"?|'([^']*)'?|(#.*)|([^\s"']+))/gy;
    for (let m = re.exec(text); m && m[0] !== ''; m = re.exec(text)) {
        if (m[3] !== undefined) break;
        words.push(m[1] ?? m[2] ?? m[4]);
    }
    return words;
}

function logicalLines(lines: readonly string[]): LogicalLine[] {
    const result: LogicalLine[] = [];
    lines.forEach((line, index) => {
        const continues = /^\s/.test(line) && result.length > 0;
        if (continues) {
            const last = result[result.length - 1];
            last.count = index - last.start + 1;
            last.words.push(...confWords(line));
        } else {
            result.push({ start: index, count: 1, words: confWords(line) });
        }
    });
    return result;
}

function firstLineOf(lines: LogicalLine[], keyword: MonitorKeyword): LogicalLine | undefined {
    return lines.find(l => l.words.length > 0 && keywordOf(l.words[0]) === keyword);
}

export function parseMonitorConf(text: string): MonitorConf {
    const lines = logicalLines(text.split('\n'));
    const args = (k: MonitorKeyword) => firstLineOf(lines, k)?.words.slice(1) ?? [];
    const first = (k: MonitorKeyword) => args(k)[0] ?? null;
    const from = args('MAILFROM');
    return { mailAddr: first('MAILADDR'), mailFrom: from.length ? from.join(' ') : null, program: first('PROGRAM') };
}

/**
 * The edit that sets `keyword` to `value` (null: its lines removed), applied to the file as the host
 * holds it when the change runs (lineEdit.ts): the keyword's lines, with their continuation lines,
 * give way to one line; a file without one gets it at the end.
 */
export function monitorSettingEdit(keyword: MonitorKeyword, value: string | null): LineEdit {
    return { key: keyword, lines: value === null ? [] : [`${keyword} ${value}`] };
}
