// SPDX-License-Identifier: LGPL-2.1-or-later
// The PO reader and the po.<lang>.js writer (tools/i18n/po.ts), checked by running the written
// script the way Cockpit 287's cockpit.js uses it: cockpit.locale() stores the catalogue,
// gettext() looks msgids up, ngettext() calls "plural-forms" and picks the form at index + 1.
import { runInNewContext } from 'node:vm';
import { compilePoJs, parsePluralForms, parsePo, poLanguage, type PoFile } from '../../../tools/i18n/po';

type Catalogue = Record<string, (string | null)[]> & { ''?: { 'plural-forms': (n: number) => number | boolean; language: string } };

/** Runs a po.<lang>.js text and returns gettext/ngettext that behave like cockpit.js 287's. */
function load(script: string) {
    let data: Catalogue = {};
    runInNewContext(script, { cockpit: { locale: (po: Catalogue) => { data = { ...data, ...po }; } } });
    const header = data[''] as NonNullable<Catalogue['']>;
    return {
        language: header.language,
        gettext: (id: string) => data[id]?.[1] || id,
        ngettext: (singular: string, plural: string, n: number) => {
            const forms = data[singular];
            const chosen = header['plural-forms'](n);
            const index = (chosen === true ? 1 : Number(chosen) || 0) + 1;
            return forms?.[index] || (n === 1 ? singular : plural);
        },
    };
}

const GERMAN = `# comment
msgid ""
msgstr ""
"Language: de\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

#: src/a.ts
msgid "Size"
msgstr "Größe"

#. Translators: a long one
msgid ""
"Two "
"lines"
msgstr "Zwei "
"Zeilen"

msgid "Say \\"hi\\"\\n"
msgstr "Sag \\"hallo\\"\\n"

msgid "$0 sample"
msgid_plural "$0 samples"
msgstr[0] "$0 Messung"
msgstr[1] "$0 Messungen"

#, fuzzy
msgid "Unsure"
msgstr "Unsicher"

msgid "Untranslated"
msgstr ""

msgctxt "verb"
msgid "Check"
msgstr "Prüfen"

#~ msgid "Gone"
#~ msgstr "Weg"
`;

describe('parsePo', () => {
    const po = parsePo(GERMAN, 'de.po');

    it('reads the header fields', () => {
        expect(po.headers['Plural-Forms']).toBe('nplurals=2; plural=(n != 1);');
        expect(po.headers.Language).toBe('de');
    });

    it('reads entries with continuation lines, escapes, plurals, flags, contexts and comments', () => {
        const byId = new Map(po.entries.map(e => [e.id, e]));
        expect(byId.get('Size')).toMatchObject({ str: ['Größe'], references: ['src/a.ts'], flags: [] });
        expect(byId.get('Two lines')).toMatchObject({ str: ['Zwei Zeilen'], extractedComments: ['Translators: a long one'] });
        expect(byId.get('Say "hi"\n')?.str).toEqual(['Sag "hallo"\n']);
        expect(byId.get('$0 sample')).toMatchObject({ idPlural: '$0 samples', str: ['$0 Messung', '$0 Messungen'] });
        expect(byId.get('Unsure')?.flags).toEqual(['fuzzy']);
        expect(byId.get('Check')?.context).toBe('verb');
    });

    it('leaves obsolete (#~) entries out', () => {
        expect(po.entries.map(e => e.id)).not.toContain('Gone');
        expect(po.entries).toHaveLength(7);
    });

    it('says where it cannot parse', () => {
        expect(() => parsePo('msgid "a"\nmsgstr "b"\nnonsense\n', 'x.po')).toThrow('x.po:3: cannot parse: nonsense');
        expect(() => parsePo('msgid "a\\q"\nmsgstr ""\n', 'y.po')).toThrow(/^y\.po:1:/);
        expect(() => parsePo('msgid "a"\nmsgid_plural "b"\nmsgstr[1] "x"\n', 'z.po')).toThrow('z.po:3: msgstr[1] out of order');
    });
});

describe('compilePoJs', () => {
    const po = parsePo(GERMAN, 'de.po');
    const cockpit = load(compilePoJs(po, 'de'));

    it('translates with cockpit.locale(), leaving fuzzy and empty entries in English', () => {
        expect(cockpit.language).toBe('de');
        expect(cockpit.gettext('Size')).toBe('Größe');
        expect(cockpit.gettext('Two lines')).toBe('Zwei Zeilen');
        expect(cockpit.gettext('Say "hi"\n')).toBe('Sag "hallo"\n');
        expect(cockpit.gettext('Unsure')).toBe('Unsure');
        expect(cockpit.gettext('Untranslated')).toBe('Untranslated');
        expect(cockpit.gettext('Gone')).toBe('Gone');
    });

    it('keys a msgctxt entry as context\\u0004msgid, as cockpit.gettext(context, id) looks it up', () => {
        expect(compilePoJs(po, 'de')).toContain('"verb\\u0004Check":[null,"Prüfen"]');
    });

    it('chooses German plural forms by the Plural-Forms expression', () => {
        expect(cockpit.ngettext('$0 sample', '$0 samples', 1)).toBe('$0 Messung');
        expect(cockpit.ngettext('$0 sample', '$0 samples', 0)).toBe('$0 Messungen');
        expect(cockpit.ngettext('$0 sample', '$0 samples', 5)).toBe('$0 Messungen');
    });

    it('uses the single Chinese form for every count', () => {
        const zh: PoFile = {
            headers: { 'Plural-Forms': 'nplurals=1; plural=0;' },
            entries: [{ context: null, id: '$0 sample', idPlural: '$0 samples', str: ['$0 次采样'], flags: [], references: [], extractedComments: [], comments: [] }],
        };
        const c = load(compilePoJs(zh, 'zh_CN'));
        expect(c.language).toBe('zh_CN');
        expect([0, 1, 2, 11].map(n => c.ngettext('$0 sample', '$0 samples', n))).toEqual(Array(4).fill('$0 次采样'));
    });

    it('refuses a plural entry with the wrong number of forms', () => {
        const bad = parsePo(GERMAN.replace('msgstr[1] "$0 Messungen"\n', ''), 'de.po');
        expect(() => compilePoJs(bad, 'de')).toThrow(/has 1 plural forms, Plural-Forms says 2/);
    });

    it('puts no text but arithmetic on n into the script', () => {
        expect(parsePluralForms('nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);').nplurals).toBe(3);
        expect(() => parsePluralForms('nplurals=2; plural=alert(1);')).toThrow(/not arithmetic/);
        expect(() => parsePluralForms(undefined)).toThrow(/missing/);
    });
});

it('names the language after the file', () => {
    expect(poLanguage('po/de.po')).toBe('de');
    expect(poLanguage('po/zh_CN.po')).toBe('zh_CN');
    expect(poLanguage('sr@latin.po')).toBe('sr@latin');
    expect(() => poLanguage('po/raidtune.pot')).toThrow();
});
