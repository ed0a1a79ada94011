// SPDX-License-Identifier: LGPL-2.1-or-later
// What the RPM spec, the manifest and the Makefile promise each other (the RPM itself is built and
// installed into a scratch root by test/browser/package.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(__dirname, '../..');
const spec = readFileSync(join(REPO, 'cockpit-raidtune.spec.in'), 'utf8');
const manifest = JSON.parse(readFileSync(join(REPO, 'src/manifest.json'), 'utf8'));

it('requires the same Cockpit in the spec and in the manifest', () => {
    const bridge = spec.match(/^Requires:\s+cockpit-bridge >= (\d+)$/m)?.[1];
    expect(bridge).toBeDefined();
    expect(manifest.requires).toEqual({ cockpit: bridge });
    // The spec explains the number.
    expect(spec).toMatch(new RegExp(`# Why ${bridge}:`));
});

it('requires mdadm and installs under /usr/share/cockpit/raidtune and /usr/share/metainfo', () => {
    expect(spec).toMatch(/^Requires:\s+mdadm$/m);
    expect(spec).toMatch(/^BuildArch:\s+noarch$/m);
    expect(spec).toMatch(/^%\{_datadir\}\/cockpit\/raidtune$/m);
    expect(spec).toMatch(/^%\{_datadir\}\/metainfo\/org\.cockpit_project\.raidtune\.metainfo\.xml$/m);
});

it('shows the page only where the md driver is present (on Cockpit versions that evaluate conditions)', () => {
    expect(manifest.conditions).toEqual([{ 'path-exists': '/proc/mdstat' }]);
});
