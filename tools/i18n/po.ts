// SPDX-License-Identifier: LGPL-2.1-or-later
// Reading gettext PO files and turning a translation into the po.<lang>.js script Cockpit loads.
//
// Cockpit serves a package's "po.js" as its po.<lang>.js for the user's language (the CockpitLang
// cookie, else Accept-Language), or as an empty script when there is none. The script hands the
// catalogue to cockpit.locale(): { "": header, msgid: [msgid_plural|null, msgstr0, msgstr1, ...] },
// with "context\u0004msgid" keys for msgctxt. The header's "plural-forms" is a function of n that
// returns the index of the plural form (cockpit.js calls it; it never evaluates text, so the
// Content-Security-Policy without 'unsafe-eval' holds).
//
// Used by build.mjs (dist/po.*.js), the pot extraction (tools/i18n/pot.ts) and the unit tests.

export interface PoEntry {
    context: string | null;
    id: string;
    idPlural: string | null;
    /** msgstr, or msgstr[0..n] for a plural entry. */
    str: string[];
    flags: string[];
    /** "#:" lines, split into file[:line] items. */
    references: string[];
    /** "#." comments for translators (xgettext --add-comments). */
    extractedComments: string[];
    /** "# " comments by translators. */
    comments: string[];
}

export interface PoFile {
    /** The header entry's fields ("Plural-Forms", "Language", ...). */
    headers: Record<string, string>;
    /** Every entry except the header and obsolete (#~) ones, in file order. */
    entries: PoEntry[];
}

export class PoSyntaxError extends Error {
    constructor(file: string, line: number, message: string) {
        super(`${file}:${line}: ${message}`);
    }
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', a: '\x07', b: '\b', f: '\f', v: '\v' };

function unquote(text: string, where: () => never): string {
    if (!/^".*"$/.test(text)) where();
    return text.slice(1, -1).replace(/\\(.)/g, (_match, c: string) => ESCAPES[c] ?? where());
}

/** Parses PO text. Throws PoSyntaxError with file:line on anything it does not understand. */
export function parsePo(text: string, file = '<po>'): PoFile {
    const entries: PoEntry[] = [];
    let headers: Record<string, string> = {};
    let current: PoEntry | null = null;
    let field: { name: 'msgctxt' | 'msgid' | 'msgid_plural' | 'msgstr'; index: number } | null = null;
    let obsolete = false;
    let sawHeader = false;

    const fresh = (): PoEntry => ({ context: null, id: '', idPlural: null, str: [], flags: [], references: [], extractedComments: [], comments: [] });
    let pendingComments = fresh();

    const finish = () => {
        if (current && !obsolete) {
            if (current.context === null && current.id === '') {
                if (sawHeader) throw new PoSyntaxError(file, 0, 'two header entries');
                sawHeader = true;
                headers = parseHeader(current.str[0] ?? '');
            } else {
                entries.push(current);
            }
        }
        current = null;
        field = null;
        obsolete = false;
    };

    const lines = text.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
        const lineNo = i + 1;
        const fail = (message: string): never => { throw new PoSyntaxError(file, lineNo, message); };
        const bad = (): never => fail(`cannot parse: ${lines[i]}`);
        const line = lines[i].trim();
        if (line === '') {
            finish();
            continue;
        }
        if (line.startsWith('#~')) {
            // Obsolete entry: skip it whole (keep parsing to catch its end).
            if (current && !obsolete) finish();
            obsolete = true;
            current ??= fresh();
            continue;
        }
        if (line.startsWith('#')) {
            if (current && field) finish();
            const target: PoEntry = current ?? pendingComments;
            if (line.startsWith('#,')) target.flags.push(...line.slice(2).split(',').map(f => f.trim()).filter(Boolean));
            else if (line.startsWith('#:')) target.references.push(...line.slice(2).trim().split(/\s+/).filter(Boolean));
            else if (line.startsWith('#.')) target.extractedComments.push(line.slice(2).trim());
            else if (line.startsWith('#|')) { /* previous msgid of a fuzzy entry */ }
            else target.comments.push(line.slice(1).trim());
            continue;
        }
        const keyword = line.match(/^(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(".*")$/);
        if (keyword) {
            const [, name, index, value] = keyword;
            if (name === 'msgctxt' || (name === 'msgid' && (!current || field?.name === 'msgstr'))) {
                if (current && field?.name === 'msgstr') finish();
                if (!current) {
                    current = pendingComments;
                    pendingComments = fresh();
                }
            }
            if (!current) bad();
            const entry = current as PoEntry;
            const str = unquote(value, bad);
            switch (name) {
            case 'msgctxt': entry.context = str; field = { name, index: 0 }; break;
            case 'msgid': entry.id = str; field = { name, index: 0 }; break;
            case 'msgid_plural': entry.idPlural = str; field = { name, index: 0 }; break;
            case 'msgstr': {
                const n = index === undefined ? 0 : Number(index);
                if (n !== entry.str.length) fail(`msgstr[${n}] out of order`);
                entry.str.push(str);
                field = { name, index: n };
                break;
            }
            }
            continue;
        }
        if (line.startsWith('"')) {
            if (!current || !field) bad();
            const entry = current as PoEntry;
            const more = unquote(line, bad);
            const f = field as NonNullable<typeof field>;
            if (f.name === 'msgctxt') entry.context += more;
            else if (f.name === 'msgid') entry.id += more;
            else if (f.name === 'msgid_plural') entry.idPlural += more;
            else entry.str[f.index] += more;
            continue;
        }
        bad();
    }
    finish();
    return { headers, entries };
}

function parseHeader(text: string): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const line of text.split('\n')) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
    return headers;
}

/** "nplurals=2; plural=(n != 1);" -> { nplurals: 2, expression: "(n != 1)" }, refusing anything but arithmetic on n. */
export function parsePluralForms(header: string | undefined): { nplurals: number; expression: string } {
    const m = (header ?? '').match(/^\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?)\s*;?\s*$/);
    if (!m) throw new Error(`Plural-Forms header missing or not understood: ${JSON.stringify(header)}`);
    const expression = m[2];
    // Only n, numbers, C operators and parentheses: the expression becomes code in po.<lang>.js.
    if (!/^[n0-9\s()?:<>=!&|%+\-*/]+$/.test(expression))
        throw new Error(`Plural-Forms expression has characters that are not arithmetic: ${expression}`);
    return { nplurals: Number(m[1]), expression };
}

/** Entries that count as translated: not fuzzy, every msgstr non-empty. */
export function isTranslated(entry: PoEntry): boolean {
    return !entry.flags.includes('fuzzy') && entry.str.length > 0 && entry.str.every(s => s !== '');
}

/** The key cockpit.gettext() looks up: msgid, or "msgctxt\u0004msgid". */
export function catalogueKey(entry: Pick<PoEntry, 'context' | 'id'>): string {
    return entry.context === null ? entry.id : `${entry.context}\u0004${entry.id}`;
}

/**
 * The po.<lang>.js script for Cockpit: a cockpit.locale() call with the translated entries
 * (untranslated and fuzzy ones are left out, so cockpit.gettext() falls back to English).
 */
export function compilePoJs(po: PoFile, language: string): string {
    const { nplurals, expression } = parsePluralForms(po.headers['Plural-Forms']);
    const catalogue: Record<string, (string | null)[]> = {};
    for (const entry of po.entries) {
        if (!isTranslated(entry)) continue;
        if (entry.idPlural !== null && entry.str.length !== nplurals)
            throw new Error(`${language}: "${entry.id}" has ${entry.str.length} plural forms, Plural-Forms says ${nplurals}`);
        catalogue[catalogueKey(entry)] = [entry.idPlural, ...entry.str];
    }
    const direction = /^(ar|fa|he|ur|yi)(_|$)/.test(language) ? 'rtl' : 'ltr';
    // cockpit.js: ngettext() takes the function's result as the index of the plural form (true = 1).
    const header = `{"plural-forms":n=>+(${expression}),"language":${JSON.stringify(language)},"language-direction":"${direction}"}`;
    const body = JSON.stringify(catalogue, Object.keys(catalogue).sort()).slice(1, -1);
    return `cockpit.locale({"":${header}${body ? `,${body}` : ''}});\n`;
}

/** Language of a po/<lang>.po path: "po/zh_CN.po" -> "zh_CN". */
export function poLanguage(path: string): string {
    const m = path.match(/(?:^|\/)([A-Za-z]{2,3}(?:_[A-Za-z0-9]+)?(?:@\w+)?)\.po$/);
    if (!m) throw new Error(`not a po/<language>.po path: ${path}`);
    return m[1];
}
