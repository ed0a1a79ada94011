// SPDX-License-Identifier: LGPL-2.1-or-later
// Changes to the host's own configuration files, line by line. A file such as mdadm.conf or
// /etc/default/mdadm holds lines raidtune never wrote (ARRAY lines from `mdadm --detail --scan`,
// START_DAEMON, comments): a change says only which directive it sets, and is applied to the file
// as it is at that moment, so every other line stays byte for byte. An edit's undo is computed from
// the text the edit was applied to: the directive's old lines, put back in place of the new ones.
//
// Which lines a directive owns is one regular expression per format, written so that the page,
// the exported shell script (awk's ERE) and the playbook (Python's re) read it the same way:
// - mdadm.conf: a line whose first word is the keyword as mdadm matches it (three letters or more,
//   a prefix of the keyword, any case, the first keyword it is a prefix of), with the lines after it
//   that start with blank space (mdadm reads them as its continuation);
// - shell variables (/etc/default/mdadm, /etc/sysconfig/raid-check): `NAME=` or `export NAME=`;
// - sysctl.d: `key = value`, the key with '.' or '/' between its parts, '-' before it allowed.

export type FileFormat = 'mdadm-conf' | 'shell-vars' | 'sysctl';

export const FILE_FORMATS: readonly FileFormat[] = ['mdadm-conf', 'shell-vars', 'sysctl'];

/** Set the lines that own `key` to `lines` (in place of the first of them, or at the end); [] removes them. */
export interface LineEdit {
    key: string;
    lines: string[];
}

/** mdadm's keywords in the order its config.c tries them: a shortened word is the first that it starts. */
const MDADM_KEYWORDS = ['DEVICES', 'ARRAY', 'MAILADDR', 'MAILFROM', 'PROGRAM', 'CREATE', 'HOMEHOST', 'HOMECLUSTER',
    'AUTO', 'POLICY', 'PART-POLICY', 'SYSFS', 'MONITORDELAY', 'ENCRYPTION_NO_VERIFY', 'PROBING'];

/**
 * The directive names raidtune edits: a keyword or variable (capitals, digits, '_', '-'), or a
 * sysctl (lower-case parts between dots); nothing else a regex or a shell treats specially.
 */
const NAME = /^[A-Z][A-Z0-9_-]*$/;
const SYSCTL_KEY = /^[a-z0-9_]+(\.[a-z0-9_]+)+$/;

export function isEditableKey(key: string, format: FileFormat): boolean {
    return (format === 'sysctl' ? SYSCTL_KEY : NAME).test(key);
}

/** The words mdadm reads as `keyword`: its prefixes of three letters or more that no earlier keyword starts with. */
function mdadmSpellings(keyword: string): string[] {
    if (!MDADM_KEYWORDS.includes(keyword)) throw new Error(`not an mdadm.conf keyword: ${keyword}`);
    const spellings: string[] = [];
    for (let n = 3; n <= keyword.length; n++) {
        const word = keyword.slice(0, n);
        if (MDADM_KEYWORDS.find(k => k.startsWith(word)) === keyword) spellings.push(word);
    }
    return spellings;
}

/** A letter matched in either case, as a bracket both ERE and JavaScript read. */
function caseBlind(word: string): string {
    return [...word].map(c => (/[A-Z]/.test(c) ? `[${c}${c.toLowerCase()}]` : c)).join('');
}

export interface OwnerPattern {
    /** An ERE (also valid JavaScript and Python) a line that starts the directive matches. */
    regex: string;
    /** Whether the lines after it that start with blank space belong to it. */
    continues: boolean;
}

export function ownerPattern(format: FileFormat, key: string): OwnerPattern {
    if (!isEditableKey(key, format)) throw new Error(`not a directive name raidtune edits: ${key}`);
    if (format === 'mdadm-conf') {
        return { regex: `^(${mdadmSpellings(key).map(caseBlind).join('|')})([ \t]|$)`, continues: true };
    }
    if (format === 'sysctl') return { regex: `^[ \t]*-?${key.split('.').join('[./]')}[ \t]*=`, continues: false };
    return { regex: `^[ \t]*(export[ \t]+)?${key}=`, continues: false };
}

/** A file's text as lines, and whether its last line ends with a newline (an empty or absent file does). */
interface Lines {
    lines: string[];
    endsWithNewline: boolean;
}

function splitLines(text: string | null): Lines {
    if (text === null || text === '') return { lines: [], endsWithNewline: true };
    const endsWithNewline = text.endsWith('\n');
    return { lines: (endsWithNewline ? text.slice(0, -1) : text).split('\n'), endsWithNewline };
}

function joinLines({ lines, endsWithNewline }: Lines): string {
    return lines.length ? lines.join('\n') + (endsWithNewline ? '\n' : '') : '';
}

/** For each line, whether the directive owns it. */
function ownedLines(lines: readonly string[], format: FileFormat, key: string): boolean[] {
    const { regex, continues } = ownerPattern(format, key);
    const starts = new RegExp(regex);
    let owning = false;
    return lines.map(line => {
        owning = (continues && owning && /^[ \t]/.test(line)) || starts.test(line);
        return owning;
    });
}

/** The lines that own `key` in `text`, in order (what an undo puts back). */
export function linesOf(text: string | null, format: FileFormat, key: string): string[] {
    const { lines } = splitLines(text);
    const owned = ownedLines(lines, format, key);
    return lines.filter((_, i) => owned[i]);
}

function applyOne(file: Lines, format: FileFormat, edit: LineEdit): Lines {
    const owned = ownedLines(file.lines, format, edit.key);
    const first = owned.indexOf(true);
    const kept = file.lines.filter((_, i) => !owned[i]);
    if (first < 0) {
        // Appended lines end the file, so it ends with a newline again.
        return edit.lines.length ? { lines: [...kept, ...edit.lines], endsWithNewline: true } : file;
    }
    const at = owned.slice(0, first).filter(o => !o).length;
    const lastOwned = owned.lastIndexOf(true) === file.lines.length - 1;
    const lines = [...kept.slice(0, at), ...edit.lines, ...kept.slice(at)];
    return { lines, endsWithNewline: file.endsWithNewline || lastOwned };
}

/**
 * The file's text after the edits, applied in order to `text` (null: the file does not exist, so
 * it is made of the new lines alone).
 */
export function applyLineEdits(text: string | null, format: FileFormat, edits: readonly LineEdit[]): string {
    return joinLines(edits.reduce((file, edit) => applyOne(file, format, edit), splitLines(text)));
}

/** The edits that put back, in `before`'s place, what `edits` replaced: newest first. */
export function inverseLineEdits(before: string | null, format: FileFormat, edits: readonly LineEdit[]): LineEdit[] {
    let text = before;
    const inverse: LineEdit[] = [];
    for (const edit of edits) {
        inverse.unshift({ key: edit.key, lines: linesOf(text, format, edit.key) });
        text = applyLineEdits(text, format, [edit]);
    }
    return inverse;
}
