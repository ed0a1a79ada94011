// SPDX-License-Identifier: LGPL-2.1-or-later
// The translations are complete and current: po/raidtune.pot holds exactly the strings the sources,
// the manifest and the metainfo have today, and po/de.po and po/zh_CN.po translate every one of
// them. Adding or changing a user-visible string fails here until `make po/raidtune.pot
// po-update` is run and the new strings are translated in both languages.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isTranslated, parsePo, parsePluralForms, type PoEntry } from '../../../tools/i18n/po';
import { manifestStrings, METAINFO, sourceFiles } from '../../../tools/i18n/pot';
import { REPO, stringsInSource } from './sourceStrings';

const LANGUAGES = ['de', 'zh_CN'];

const pot = parsePo(readFileSync(join(REPO, 'po/raidtune.pot'), 'utf8'), 'po/raidtune.pot');
const potIds = new Map(pot.entries.map(e => [e.id, e]));

/** The metainfo's translatable text: name, summary, description paragraphs and list items. */
function metainfoStrings(xml: string): string[] {
    const strings: string[] = [];
    for (const m of xml.matchAll(/<(name|summary|p|li)(\s[^>]*)?>([\s\S]*?)<\/\1>/g)) {
        if (/translate="no"/.test(m[2] ?? '') || /xml:lang=/.test(m[2] ?? '')) continue;
        strings.push(m[3].replace(/\s+/g, ' ').trim());
    }
    return strings;
}

describe('po/raidtune.pot', () => {
    const found = sourceFiles(REPO).map(file => stringsInSource(file, readFileSync(join(REPO, file), 'utf8')));
    const fromSources = found.flatMap(f => f.strings);

    it('has every string of the sources, the manifest and the metainfo, and nothing else', () => {
        const expected = new Set([
            ...fromSources.map(s => s.id),
            ...manifestStrings(JSON.parse(readFileSync(join(REPO, 'src/manifest.json'), 'utf8'))),
            ...metainfoStrings(readFileSync(join(REPO, METAINFO), 'utf8')),
        ]);
        const missing = [...expected].filter(id => !potIds.has(id));
        const stale = [...potIds.keys()].filter(id => !expected.has(id));
        // Out of date: run `make po/raidtune.pot po-update` and translate the new strings.
        expect({ missing, stale }).toEqual({ missing: [], stale: [] });
    });

    it('keeps the plural of every ngettext() call', () => {
        for (const s of fromSources.filter(s => s.plural !== null))
            expect([s.id, potIds.get(s.id)?.idPlural]).toEqual([s.id, s.plural]);
    });

    it('finds hundreds of strings in the UI, the host layer and the core (the extraction works)', () => {
        const files = new Set(pot.entries.flatMap(e => e.references));
        for (const file of ['src/ui/arrays/ArrayCard.tsx', 'src/ui/sync/SyncPanel.tsx', 'src/host/readSnapshot.ts', 'src/manifest.json', METAINFO])
            expect(files).toContain(file);
        expect(potIds.get('Size')?.references).toContain('src/ui/arrays/ArrayCard.tsx');
        expect(potIds.get('RAID tuning')?.references).toEqual(expect.arrayContaining(['src/manifest.json', METAINFO]));
        expect(pot.entries.length).toBeGreaterThan(100);
    });

    it('only translates computed text in the one place that shows core messages (src/md marks them with N_)', () => {
        expect(found.flatMap(f => f.dynamic)).toEqual(['src/ui/common/message.ts: _(message.message)']);
    });
});

/** "$0", "$1", ... used in a text, as a sorted set. */
function placeholders(text: string): string[] {
    return [...new Set(text.match(/\$\d+/g) ?? [])].sort();
}

describe.each(LANGUAGES)('po/%s.po', language => {
    const path = join(REPO, `po/${language}.po`);
    const po = parsePo(readFileSync(path, 'utf8'), `po/${language}.po`);
    const byId = new Map(po.entries.map(e => [e.id, e]));
    const { nplurals } = parsePluralForms(po.headers['Plural-Forms']);

    it('says its language and has plural forms', () => {
        expect(po.headers.Language).toBe(language);
        expect(nplurals).toBe(language === 'de' ? 2 : 1);
    });

    it('translates every string of the template (not empty, not fuzzy)', () => {
        const untranslated = pot.entries.filter(e => {
            const t = byId.get(e.id);
            return !t || !isTranslated(t);
        }).map(e => e.id);
        expect(untranslated).toEqual([]);
    });

    it('has a form for each plural and no strings the template dropped', () => {
        for (const entry of po.entries) {
            expect(potIds.has(entry.id) ? entry.id : `stale: ${entry.id}`).toBe(entry.id);
            if (entry.idPlural !== null) expect([entry.id, entry.str.length]).toEqual([entry.id, nplurals]);
        }
    });

    it('keeps every $0-style placeholder of the English text', () => {
        const broken = po.entries.filter((e: PoEntry) => e.str.some(s =>
            placeholders(s).join() !== placeholders(e.idPlural ?? e.id).join()
            // A singular form may leave the count out ("one sample" for "$0 sample").
            && !(e.idPlural !== null && placeholders(e.id).join() === placeholders(s).join())));
        expect(broken.map(e => `${e.id} -> ${e.str.join(' | ')}`)).toEqual([]);
    });

    it('passes msgfmt --check', () => {
        execFileSync('msgfmt', ['--check', '--output-file=/dev/null', path], { stdio: 'pipe' });
    });
});
