// SPDX-License-Identifier: LGPL-2.1-or-later
// The AppStream metainfo: valid for `appstreamcli validate --no-net` as written and as installed
// (translations merged in by msgfmt --xml, what `make install` and the RPM install), an addon of
// Cockpit launched by raidtune's manifest.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { METAINFO } from '../../../tools/i18n/pot';
import { REPO } from './sourceStrings';

const hasAppstreamcli = spawnSync('appstreamcli', ['--version']).status === 0;
if (!hasAppstreamcli)
    console.warn('SKIPPED: appstreamcli is missing, the metainfo is not validated (install "appstream": tools/install-deps.sh)');
const withAppstreamcli = hasAppstreamcli ? it : it.skip;

function validate(path: string): string {
    const result = spawnSync('appstreamcli', ['validate', '--no-net', '--pedantic', '--explain', path], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`appstreamcli validate ${path} failed:\n${result.stdout}${result.stderr}`);
    return result.stdout;
}

describe('the metainfo', () => {
    const source = join(REPO, METAINFO);
    const xml = readFileSync(source, 'utf8');
    let work: string;
    let merged: string;
    beforeAll(() => {
        work = mkdtempSync(join(tmpdir(), 'raidtune-metainfo-'));
        merged = join(work, METAINFO);
        execFileSync('msgfmt', ['--xml', '-d', join(REPO, 'po'), '--template', source, '-o', merged]);
    });
    afterAll(() => rmSync(work, { recursive: true, force: true }));

    it('is an addon of Cockpit, launched by the manifest, named after its file', () => {
        const manifest = JSON.parse(readFileSync(join(REPO, 'src/manifest.json'), 'utf8'));
        expect(xml).toMatch(/<component type="addon">/);
        expect(xml).toContain('<extends>org.cockpit_project.cockpit</extends>');
        const launchable = xml.match(/<launchable type="cockpit-manifest">([^<]+)<\/launchable>/)?.[1];
        expect(Object.keys(manifest.tools)).toContain(launchable);
        // Installed under its id (what AppStream tools look for); the source keeps the project's name.
        expect(xml.match(/<id>([^<]+)<\/id>/)?.[1]).toBe('org.cockpit_project.raidtune');
    });

    withAppstreamcli('passes appstreamcli validate --no-net --pedantic without a single remark', () => {
        expect(validate(source)).not.toMatch(/^[EWI]:/m);
    });

    withAppstreamcli('passes it as installed, with the German and Chinese translations merged in', () => {
        const text = readFileSync(merged, 'utf8');
        expect(text).toContain('<name xml:lang="de">RAID-Optimierung</name>');
        expect(text).toContain('<name xml:lang="zh_CN">RAID 调优</name>');
        expect(text.match(/<summary xml:lang=/g)).toHaveLength(2);
        expect(text.match(/<p xml:lang=/g)).toHaveLength(2);
        expect(validate(merged)).not.toMatch(/^[EWI]:/m);
    });
});
