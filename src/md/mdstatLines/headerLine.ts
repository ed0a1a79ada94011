// SPDX-License-Identifier: LGPL-2.1-or-later
// The header line of a /proc/mdstat stanza:
//   md0 : active (auto-read-only) raid5 sdd1[3] sdc1[2](F) sdb1[4](S) ...

import { applyStatusWords } from './statusLine';
import type { MdstatArray, MdstatMember, MemberFlag } from './types';
import { COUNT, quote, toCount, words, type Report } from './words';

// Maps, not object literals: a word such as "constructor" must not find Object.prototype's.
const FLAG_LETTERS = new Map<string, MemberFlag>([
    ['F', 'faulty'], ['S', 'spare'], ['W', 'write-mostly'], ['R', 'replacement'], ['J', 'journal'],
]);

const READ_ONLY_MARKS = new Map<string, MdstatArray['readOnly']>([
    ['(read-only)', 'read-only'], ['(auto-read-only)', 'auto-read-only'],
]);

function emptyArray(name: string, state: MdstatArray['state']): MdstatArray {
    return {
        name, state, readOnly: false, level: null, members: [], blocks: null, super: null, disks: null,
        status: null, sync: null, bitmap: null, chunkKiB: null,
        algorithm: null, roundingKiB: null, nearCopies: null, farCopies: null, offsetCopies: null,
    };
}

// name[descriptor](flag)(flag)...; a device name of up to 31 characters, none of them brackets.
const MEMBER = /^([^[\]()]{1,31})\[([^\]]*)\]((?:\([^()]*\))*)$/;
// Personality names: raid0, raid10, linear, multipath, faulty...
const LEVEL = /^[a-z][a-z0-9]{0,15}$/;

function parseMember(token: string, arrayName: string, report: Report): MdstatMember | null {
    const match = MEMBER.exec(token);
    if (!match) return null;
    const [, name, number, flagText] = match;
    const role = toCount(number);
    if (role === null) report(`member ${quote(name)} of ${arrayName} has an unreadable number ${quote(`[${number}]`)}`);
    const flags: MemberFlag[] = [];
    const letters = flagText === '' ? [] : flagText.slice(1, -1).split(')(');
    for (const letter of letters) {
        const flag = FLAG_LETTERS.get(letter);
        if (!flag) report(`member ${quote(name)} of ${arrayName} has an unknown flag ${quote(`(${letter})`)}; ignored`);
        else if (!flags.includes(flag)) flags.push(flag);
    }
    return { name, role, flags };
}

export function parseHeader(line: string, report: Report): MdstatArray | null {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim();
    const tokens = words(line.slice(colon + 1));
    const state = tokens[0];
    if (state !== 'active' && state !== 'inactive') {
        report(`array ${quote(name)} has no active/inactive state (${quote(state ?? '')}); skipped`);
        return null;
    }
    const array = emptyArray(name, state);
    for (let at = 1; at < tokens.length; at++) {
        const token = tokens[at];
        const member = parseMember(token, name, report);
        if (member) {
            array.members.push(member);
        } else if (READ_ONLY_MARKS.has(token)) {
            array.readOnly = READ_ONLY_MARKS.get(token) ?? false;
        } else if (token === 'super' || COUNT.test(token)) {
            // The status line's words: an inactive array with no members prints `super ...` here,
            // and a capture with lost line breaks puts the whole status line here.
            applyStatusWords(array, tokens, at, report);
            break;
        } else if (LEVEL.test(token) && array.level === null && array.members.length === 0) {
            array.level = token;
        } else {
            report(`unrecognised word ${quote(token)} in the header of ${name}`);
        }
    }
    return array;
}
