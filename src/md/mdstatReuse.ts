// SPDX-License-Identifier: LGPL-2.1-or-later
// /proc/mdstat read again at every refresh: with 128 arrays, parsing all of it took more of the
// refresh than anything else in the model, and comparing each idle array's entry with the last
// one field by field took as much again. Here a stanza whose text did not change reuses its array
// object from the last parse: unchanged is then a matter of identity, and only the syncing arrays'
// stanzas are parsed again.
//
// Only the kernel's own layout goes this way: a Personalities line, stanzas each ended by a
// whitespace-only line, the "unused devices" line, nothing else; and only stanzas that read
// without a problem. Anything else (a pasted capture, a cut-off read, an odd line) is parsed whole
// by parseMdstat(), whose problems then carry their line numbers. Either way the result is the
// one parseMdstat() gives (a unit test compares them on every capture the project has).

import { parseMdstat, type Mdstat, type MdstatArray, type MdstatMember } from './mdstat';

export interface MdstatReused {
    personalitiesLine: string;
    personalities: string[];
    /** The arrays of the last parse, by their stanza's text. */
    stanzas: ReadonlyMap<string, MdstatArray>;
    /**
     * Their members, by the stanza's header line: a syncing array's stanza is new at every refresh
     * (its progress line), its header line mostly is not, and the members come from that line alone.
     */
    members: ReadonlyMap<string, MdstatMember[]>;
}

const NOTHING_REUSED: MdstatReused = { personalitiesLine: '', personalities: [], stanzas: new Map(), members: new Map() };
/** The last line, alone after the last stanza. */
const UNUSED_LINE = /^unused devices\s*:[^\n]*\n$/;
const HEADER_LINE = /^md[^\s:]{0,29}\s:\s/;
/** The whitespace-only line that ends each array's stanza. */
const STANZA_END = /\n[ \t]*\n/;

export function parseMdstatReusing(text: string,
    reused: MdstatReused = NOTHING_REUSED): { mdstat: Mdstat; reused: MdstatReused } {
    const layout = kernelLayout(text);
    const whole = () => ({ mdstat: parseMdstat(text), reused: NOTHING_REUSED });
    if (!layout) return whole();
    const personalities = layout.personalitiesLine === reused.personalitiesLine
        ? reused.personalities
        : readAlone(layout.personalitiesLine)?.personalities;
    if (!personalities) return whole();
    const stanzas = new Map<string, MdstatArray>();
    const members = new Map<string, MdstatMember[]>();
    const names = new Set<string>();
    for (const stanza of layout.stanzas) {
        const lineEnd = stanza.indexOf('\n');
        const header = lineEnd < 0 ? stanza : stanza.slice(0, lineEnd);
        const array = reused.stanzas.get(stanza) ??
            withMembers(onlyArray(readAlone(stanza)), reused.members.get(header));
        // Listed twice: parseMdstat keeps the later one and says so.
        if (!array || names.has(array.name)) return whole();
        names.add(array.name);
        stanzas.set(stanza, array);
        members.set(header, array.members);
    }
    return {
        mdstat: { personalities, arrays: [...stanzas.values()], problems: [] },
        reused: { personalitiesLine: layout.personalitiesLine, personalities, stanzas, members },
    };
}

/** The Personalities line and the array stanzas, when the text is laid out as the kernel prints it. */
function kernelLayout(text: string): { personalitiesLine: string; stanzas: string[] } | null {
    const firstBreak = text.indexOf('\n');
    const personalitiesLine = text.slice(0, firstBreak);
    if (firstBreak < 0 || !personalitiesLine.startsWith('Personalities : ') || text.includes('\r')) return null;
    // One split, not line by line: this runs at every refresh over every array's stanza.
    const parts = text.slice(firstBreak + 1).split(STANZA_END);
    const stanzas = parts.slice(0, -1);
    if (!UNUSED_LINE.test(parts[parts.length - 1]) || !stanzas.every(stanza => HEADER_LINE.test(stanza))) return null;
    return { personalitiesLine, stanzas };
}

/** Part of an mdstat text read on its own; null when it has a problem there. */
function readAlone(part: string): Mdstat | null {
    const mdstat = parseMdstat(`${part}\nunused devices: <none>\n`);
    return mdstat.problems.length ? null : mdstat;
}

function withMembers(array: MdstatArray | null, members: MdstatMember[] | undefined): MdstatArray | null {
    return array && members ? { ...array, members } : array;
}

function onlyArray(mdstat: Mdstat | null): MdstatArray | null {
    return mdstat?.arrays.length === 1 ? mdstat.arrays[0] : null;
}
