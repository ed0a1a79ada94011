// SPDX-License-Identifier: LGPL-2.1-or-later
// The status line of a /proc/mdstat stanza, what a personality's status() prints:
//   1046528 blocks super 1.2 level 5, 512k chunk, algorithm 2 [4/3] [UU_U]

import type { MdstatArray } from './types';
import { COUNT, KIB_SIZE, quote, type Report } from './words';

/** One phrase of the status line: its words (literal or pattern) and what it sets. */
interface Phrase {
    words: (string | RegExp)[];
    apply: (array: MdstatArray, w: string[]) => void;
}

// Everything a personality's status() prints, across raid0/1/4/5/6/10, linear and multipath.
const STATUS_PHRASES: Phrase[] = [
    { words: [COUNT, 'blocks'], apply: (a, w) => { a.blocks = Number(w[0]); } },
    // 1.2, 0.91, external:imsm, external:/md127/0, non-persistent; never a bracketed count.
    { words: ['super', /^[^[\]()]+$/], apply: (a, w) => { a.super = w[1]; } },
    // The header already names the personality; `level 5` repeats it.
    { words: ['level', COUNT], apply: () => undefined },
    { words: [KIB_SIZE, /^chunks?$/], apply: (a, w) => { a.chunkKiB = parseInt(w[0], 10); } },
    { words: [KIB_SIZE, 'rounding'], apply: (a, w) => { a.roundingKiB = parseInt(w[0], 10); } },
    { words: ['algorithm', COUNT], apply: (a, w) => { a.algorithm = Number(w[1]); } },
    { words: [COUNT, 'near-copies'], apply: (a, w) => { a.nearCopies = Number(w[0]); } },
    { words: [COUNT, 'far-copies'], apply: (a, w) => { a.farCopies = Number(w[0]); } },
    { words: [COUNT, 'offset-copies'], apply: (a, w) => { a.offsetCopies = Number(w[0]); } },
    // raid10 far layouts with sets smaller than the array; nothing we model.
    { words: [COUNT, 'devices', 'per', 'set'], apply: () => undefined },
    {
        words: [/^\[\d{1,6}\/\d{1,6}\]$/],
        apply: (a, w) => {
            const [total, active] = w[0].slice(1, -1).split('/').map(Number);
            a.disks = { total, active };
        },
    },
    { words: [/^\[[U_]*\]$/], apply: (a, w) => { a.status = w[0].slice(1, -1); } },
];

function phraseMatches(phrase: Phrase, tokens: string[], at: number): boolean {
    return phrase.words.every((word, i) => {
        const token = tokens[at + i];
        if (token === undefined) return false;
        return typeof word === 'string' ? token === word : word.test(token);
    });
}

export function applyStatusWords(array: MdstatArray, tokens: string[], start: number, report: Report): void {
    const clean = tokens.map(t => t.replace(/,$/, ''));
    let at = start;
    while (at < clean.length) {
        const phrase = STATUS_PHRASES.find(p => phraseMatches(p, clean, at));
        if (phrase) {
            phrase.apply(array, clean.slice(at, at + phrase.words.length));
            at += phrase.words.length;
        } else {
            report(`unrecognised word ${quote(tokens[at])} in the status of ${array.name}`);
            at += 1;
        }
    }
}
