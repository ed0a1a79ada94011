// SPDX-License-Identifier: LGPL-2.1-or-later
// The extraction itself (tools/i18n/pot.ts: esbuild strips TypeScript and JSX, xgettext reads the
// result): it finds strings where plain xgettext on .tsx misses them, and on this repository it
// produces exactly the committed po/raidtune.pot.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parsePo } from '../../../tools/i18n/po';
import { buildPot, METAINFO } from '../../../tools/i18n/pot';
import { REPO } from './sourceStrings';

function tree(files: Record<string, string>): string {
    const root = mkdtempSync(join(tmpdir(), 'raidtune-pot-test-'));
    for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
    }
    return root;
}

const FIXTURE = {
    'src/manifest.json': JSON.stringify({
        tools: { t: { label: 'Tool label', keywords: [{ matches: ['word'] }, { matches: ['mdadm'], translate: false }] } },
    }),
    [METAINFO]: '<?xml version="1.0"?>\n<component type="addon"><id>x</id><name>App name</name><summary>App summary</summary>' +
        '<description><p>A paragraph.</p></description></component>\n',
    'src/ui/View.tsx': `import { _, ngettext } from '../i18n';
interface Props<T> { items: T[]; label?: string }
export function View<T>({ items }: Props<T>) {
    return (
        <section aria-label={_('Section label')}>
            <Fact term={_('In an attribute')}>{items.length > 1 ? _('In a child') : null}</Fact>
            <p title={_("Don't stop")}>{ngettext('$0 item', '$0 items', items.length)}</p>
            {/* _('In a comment') is not a call */}
        </section>
    );
}
`,
    'src/md/core.ts': `import { N_ } from './message';
export const TITLES: Record<string, string> = { a: N_('Marked in the core') };
const typed = <T,>(x: T): T => x;
export const regex = /_\\('not a call'\\)/;
export const used = typed(\`\${regex}\`);
`,
};

describe('buildPot', () => {
    let root: string;
    beforeAll(() => { root = tree(FIXTURE); });
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it('finds strings in JSX attributes and children, ngettext plurals, N_ marks, the manifest and the metainfo', () => {
        const pot = parsePo(buildPot(root), 'fixture.pot');
        const ids = Object.fromEntries(pot.entries.map(e => [e.id, e]));
        expect(Object.keys(ids).sort()).toEqual([
            '$0 item', 'A paragraph.', 'App name', 'App summary', "Don't stop", 'In a child', 'In an attribute',
            'Marked in the core', 'Section label', 'Tool label', 'word',
        ]);
        expect(ids['$0 item'].idPlural).toBe('$0 items');
        expect(ids['In an attribute'].references).toEqual(['src/ui/View.tsx']);
        expect(ids['Marked in the core'].references).toEqual(['src/md/core.ts']);
        expect(ids['Tool label'].references).toEqual(['src/manifest.json']);
        expect(ids['App name'].references).toEqual([METAINFO]);
    });
});

describe('po/raidtune.pot', () => {
    it('is what `make po/raidtune.pot` makes of this tree (regenerate it after changing strings)', () => {
        expect(buildPot(REPO)).toBe(readFileSync(join(REPO, 'po/raidtune.pot'), 'utf8'));
    });
});
