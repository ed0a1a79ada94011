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

it('names every unit it ships in its systemd scriptlets, and takes the macros from systemd-rpm-macros', () => {
    expect(spec).toMatch(/^BuildRequires:\s+systemd-rpm-macros$/m);
    const listed = (name: string) => spec.match(new RegExp(`^%global ${name} (.+)$`, 'm'))?.[1].split(' ') ?? [];
    const timers = listed('_raidtune_timers');
    const services = listed('_raidtune_services');
    const shipped = [...spec.matchAll(/^%\{_raidtune_unitdir\}\/(\S+)$/gm)].map(m => m[1]);
    // A template is named by its instances (one unit to stop each).
    const named = [...timers, ...services].map(unit => unit.replace(/@[^.]+\./, '@.'));
    expect(new Set(named)).toEqual(new Set(shipped));
    expect(spec).toMatch(/^%post\n%systemd_post %\{_raidtune_timers\}$/m);
    expect(spec).toMatch(/^%preun\n%systemd_preun %\{_raidtune_timers\} %\{_raidtune_services\}$/m);
    expect(spec).toMatch(/^%systemd_postun_with_restart %\{_raidtune_timers\}$/m);
});
