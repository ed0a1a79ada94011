// /proc/mdstat read again at every refresh: with 128 arrays, parsing all of it took more of the
// refresh than anything else in the model, and comparing each idle array's entry with the last
// one field by field took as much again. Here a stanza whose text did not change keeps its array
// object from the last parse: unchanged is then a matter of identity, and only the syncing arrays'
// stanzas are parsed again.
//
// Only the kernel's own layout goes this way: a Personalities line, stanzas each ended by a
// whitespace-only line, the "unused devices" line, nothing else; and only stanzas that read
// without a problem. Anything else (a pasted capture, a cut-off read, an odd line) is parsed whole
// by parseMdstat(), whose problems then carry their line numbers. Either way the result is the
// one parseMdstat() gives (a unit test compares them on every capture the project has).

import { parseMdstat, type Mdstat, type MdstatArray } from './mdstat';

export interface MdstatKept {
    personalitiesLine: string;
    personalities: string[];
    /** The arrays of the last parse, by their stanza's text. */
    stanzas: ReadonlyMap<string, MdstatArray>;
}

const NOTHING_KEPT: MdstatKept = { personalitiesLine: '', personalities: [], stanzas: new Map() };
const UNUSED_LINE = /^unused devices\s*:/;
const HEADER_LINE = /^md[^\s:]{0,29}\s:\s/;

export function parseMdstatKeeping(text: string, kept: MdstatKept = NOTHING_KEPT): { mdstat: Mdstat; kept: MdstatKept } {
    const layout = kernelLayout(text);
    const whole = () => ({ mdstat: parseMdstat(text), kept: NOTHING_KEPT });
    if (!layout) return whole();
    const personalities = layout.personalitiesLine === kept.personalitiesLine
        ? kept.personalities
        : readAlone(layout.personalitiesLine)?.personalities;
    if (!personalities) return whole();
    const stanzas = new Map<string, MdstatArray>();
    const names = new Set<string>();
    for (const stanza of layout.stanzas) {
        const array = kept.stanzas.get(stanza) ?? onlyArray(readAlone(stanza));
        // Listed twice: parseMdstat keeps the later one and says so.
        if (!array || names.has(array.name)) return whole();
        names.add(array.name);
        stanzas.set(stanza, array);
    }
    return {
        mdstat: { personalities, arrays: [...stanzas.values()], problems: [] },
        kept: { personalitiesLine: layout.personalitiesLine, personalities, stanzas },
    };
}

/** The Personalities line and the array stanzas, when the text is laid out as the kernel prints it. */
function kernelLayout(text: string): { personalitiesLine: string; stanzas: string[] } | null {
    if (text.includes('\r')) return null;
    const lines = text.split('\n');
    if (!lines[0].startsWith('Personalities : ')) return null;
    const stanzas: string[] = [];
    let at = 1;
    while (at < lines.length && HEADER_LINE.test(lines[at])) {
        const start = at;
        while (at < lines.length && lines[at].trim() !== '') at++;
        if (at === lines.length) return null;
        at++;
        stanzas.push(lines.slice(start, at).join('\n'));
    }
    const rest = lines.slice(at);
    if (rest.length !== 2 || !UNUSED_LINE.test(rest[0]) || rest[1] !== '') return null;
    return { personalitiesLine: lines[0], stanzas };
}

/** Part of an mdstat text read on its own; null when it has a problem there. */
function readAlone(part: string): Mdstat | null {
    const mdstat = parseMdstat(`${part}\nunused devices: <none>\n`);
    return mdstat.problems.length ? null : mdstat;
}

function onlyArray(mdstat: Mdstat | null): MdstatArray | null {
    return mdstat?.arrays.length === 1 ? mdstat.arrays[0] : null;
}
