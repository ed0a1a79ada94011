// SPDX-License-Identifier: LGPL-2.1-or-later
// Shipping: `make dist` gives the same bytes twice; `make rpm` builds cockpit-raidtune from that
// tarball (through the source RPM); installed into a scratch root (rpm --root, without scriptlets),
// it has exactly the expected files; its scriptlets ask systemd for nothing on install, a reload and
// restart of what runs on upgrade, and stop and disable everything on removal, which leaves only the
// admin's own files; and Cockpit serves the page from the scratch root without a single console
// error, bare and in the shell, translated. Built and checked once per run, on the default Cockpit;
// the other Cockpits' tiers open the page of this RPM (installed-page.test.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { setupRaidtune } from './harness/env';
import { BUILD_TIMEOUT_MS, buildRpm, DBPATH, installedPageTests, make, PLUGIN_PATH, REPO, RPM, rpmOnRoot, TARBALL, VERSION, withPackageLock } from './harness/packageBuild';
import { realSystemctl, rpmScriptlets, runPhase, type SystemctlCall } from './harness/rpmScriptlets';

const root = mkdtempSync(join(tmpdir(), 'raidtune-rpm-root-'));
const pluginDir = join(root, PLUGIN_PATH);
const UNIT_DIR = 'usr/lib/systemd/system';

function sha256(path: string): string {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Every file below `top` by its path on the host that root stands for, without rpm's database. */
function files(dir: string, top = root): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap(e => {
        const path = join(dir, e.name);
        if (path === join(top, DBPATH)) return [];
        return e.isDirectory() ? files(path, top) : ['/' + relative(top, path)];
    });
}

const tarballHashes: string[] = [];
beforeAll(() => withPackageLock(() => {
    // Twice, from scratch: the release tarball must not depend on when or how often it is made.
    // Between the runs a file's time changes (as a checkout or an edit would): no effect either.
    for (let i = 0; i < 2; i++) {
        if (i === 1) utimesSync(join(REPO, 'README.md'), new Date(), new Date());
        rmSync(TARBALL, { force: true });
        make('dist');
        tarballHashes.push(sha256(TARBALL));
    }
    buildRpm();
    rpmOnRoot(root, '-i', RPM);
}), BUILD_TIMEOUT_MS);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const env = setupRaidtune({ scenario: 'raid6-recovery', pluginDir, openBarePage: false });

describe('the release tarball', () => {
    test('is reproducible: two runs of make dist give the same bytes', () => {
        expect(tarballHashes).toHaveLength(2);
        expect(tarballHashes[0]).toBe(tarballHashes[1]);
    });

    test('has sorted names under raidtune-VERSION/, owner root, one fixed time, and ships dist/ and the spec', () => {
        const listing = execFileSync('tar', ['--numeric-owner', '-tvJf', TARBALL], { encoding: 'utf8' }).trim().split('\n');
        const names = listing.map(line => line.split(/\s+/).slice(5).join(' '));
        expect(names.every(n => n.startsWith(`raidtune-${VERSION}/`))).toBe(true);
        // Each folder's entries in byte order (GNU tar --sort=name).
        const byFolder = new Map<string, string[]>();
        for (const name of names.map(n => n.replace(/\/$/, ''))) byFolder.set(dirname(name), [...byFolder.get(dirname(name)) ?? [], name]);
        for (const entries of byFolder.values())
            expect(entries).toEqual([...entries].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
        expect(listing.every(line => line.split(/\s+/)[1] === '0/0')).toBe(true);
        expect(new Set(listing.map(line => line.split(/\s+/).slice(3, 5).join(' '))).size).toBe(1);
        for (const file of ['dist/index.html', 'dist/index.js', 'dist/po.de.js', 'dist/po.zh_CN.js', 'cockpit-raidtune.spec',
            'Makefile', 'COPYING', 'po/de.po', 'po/LINGUAS', 'org.cockpit-project.raidtune.metainfo.xml', 'src/manifest.json'])
            expect(names).toContain(`raidtune-${VERSION}/${file}`);
        expect(names.some(n => /\/dist\/chunks\/later-[^/]+\.js$/.test(n))).toBe(true);
        expect(names.some(n => n.includes('/node_modules/') || n.endsWith('.map'))).toBe(false);
    });
});

describe('the RPM', () => {
    test('is cockpit-raidtune, noarch, and requires cockpit-bridge and mdadm', () => {
        const query = (...args: string[]) => execFileSync('rpm', ['-qp', ...args, RPM], { encoding: 'utf8' }).trim();
        expect(query('--queryformat', '%{NAME} %{VERSION} %{ARCH}')).toBe(`cockpit-raidtune ${VERSION} noarch`);
        const requires = query('--requires').split('\n');
        // /usr/bin/python3: raidtune-metrics' shebang; /bin/sh: raidtune-history's and
        // raidtune-check-window's; config(...): rpm's own for %config files.
        expect(requires).toEqual(expect.arrayContaining(['cockpit-bridge >= 215', 'mdadm', '/usr/bin/python3', '/bin/sh',
            `config(cockpit-raidtune) = ${VERSION}-1`]));
        // Listed once a use: the file's /bin/sh and each scriptlet's (post, preun, postun).
        expect(new Set(requires.filter(r => !r.startsWith('rpmlib(')))).toHaveProperty('size', 5);
        expect(query('--provides')).toContain('bundled(npm(react)) = ');
    });

    test('installs the page, the metainfo, raidtune-metrics, raidtune-history and raidtune-check-window, nothing else', () => {
        const installed = files(root).sort();
        const assets = readdirSync(join(REPO, 'dist/assets')).map(a => `/usr/share/cockpit/raidtune/assets/${a}`);
        // The chunks: the first view's and the one of everything else (src/later.ts).
        const chunks = readdirSync(join(REPO, 'dist/chunks')).map(c => `/usr/share/cockpit/raidtune/chunks/${c}`);
        expect(chunks.some(c => c.includes('/later-'))).toBe(true);
        expect(installed).toEqual([
            ...assets,
            ...chunks,
            ...['index.css', 'index.html', 'index.js', 'manifest.json', 'po.de.js', 'po.zh_CN.js'].map(f => `/usr/share/cockpit/raidtune/${f}`),
            `/usr/share/doc/cockpit-raidtune-${VERSION}/README.md`,
            `/usr/share/licenses/cockpit-raidtune-${VERSION}/COPYING`,
            `/usr/share/licenses/cockpit-raidtune-${VERSION}/index.js.LEGAL.txt`,
            '/usr/share/metainfo/org.cockpit_project.raidtune.metainfo.xml',
            '/usr/libexec/raidtune/raidtune-history',
            '/usr/libexec/raidtune/raidtune-check-window',
            '/usr/libexec/raidtune/raidtune-metrics',
            '/usr/lib/systemd/system/raidtune-history.service',
            '/usr/lib/systemd/system/raidtune-history.timer',
            '/usr/lib/systemd/system/raidtune-check-window@.service',
            '/usr/lib/systemd/system/raidtune-check-window-start.timer',
            '/usr/lib/systemd/system/raidtune-check-window-end.timer',
            '/usr/lib/systemd/system/raidtune-metrics.service',
            '/usr/lib/systemd/system/raidtune-metrics.timer',
            '/etc/raidtune/metrics.env',
            '/usr/share/raidtune/prometheus/raidtune-alerts.yml',
        ].sort());
        // RHEL's node_exporter textfile directory, not Debian's.
        expect(readFileSync(join(root, 'etc/raidtune/metrics.env'), 'utf8'))
            .toMatch(/^RAIDTUNE_METRICS_DIR=\/var\/lib\/node_exporter\/textfile_collector$/m);
        // What it serves is what the build made.
        for (const file of ['index.js', 'index.css', 'po.de.js', 'manifest.json', ...chunks.map(c => c.replace(/^.*\/chunks\//, 'chunks/'))])
            expect(sha256(join(pluginDir, file))).toBe(sha256(join(REPO, 'dist', file)));
        expect(statSync(join(pluginDir, 'index.html')).mode & 0o777).toBe(0o644);
    });

    test('installs the metainfo with the translations merged in, valid for appstreamcli', () => {
        const metainfo = join(root, 'usr/share/metainfo/org.cockpit_project.raidtune.metainfo.xml');
        expect(readFileSync(metainfo, 'utf8')).toContain('<name xml:lang="de">RAID-Optimierung</name>');
        if (spawnSync('appstreamcli', ['--version']).status !== 0) {
            console.warn('SKIPPED: appstreamcli is missing, the installed metainfo is not validated');
            return;
        }
        execFileSync('appstreamcli', ['validate', '--no-net', metainfo], { stdio: 'pipe' });
    });

    test('rpmlint reports only what the spec explains', () => {
        if (spawnSync('rpmlint', ['--version']).status !== 0) {
            console.warn('SKIPPED: rpmlint is missing (Debian: apt-get install rpmlint)');
            return;
        }
        const srpm = readdirSync(join(REPO, 'rpmbuild/SRPMS')).map(f => join(REPO, 'rpmbuild/SRPMS', f));
        const result = spawnSync('rpmlint', [RPM, ...srpm, join(REPO, 'cockpit-raidtune.spec')], { encoding: 'utf8' });
        const findings = result.stdout.split('\n').filter(line => /^cockpit-raidtune[^:]*: [EW]: /.test(line));
        const explained = /: [EW]: (no-signature|no-packager-tag|no-group-tag|no-buildroot-tag|invalid-license|only-non-binary-in-usr-lib)\b/;
        expect(findings.filter(line => !explained.test(line))).toEqual([]);
        const spec = readFileSync(join(REPO, 'cockpit-raidtune.spec.in'), 'utf8');
        for (const check of new Set(findings.map(line => line.match(explained)![1])))
            expect(spec).toContain(check);
    });
});

/** The unit files the package installed into the scratch root, by name, with their text. */
function installedUnits(): Map<string, string> {
    const dir = join(root, UNIT_DIR);
    return new Map(readdirSync(dir).map(name => [name, readFileSync(join(dir, name), 'utf8')]));
}

/** The units an admin (or the page) can enable: those with an [Install] section. */
function enableable(units: Map<string, string>): string[] {
    return [...units].filter(([, text]) => /^\[Install\]$/m.test(text)).map(([name]) => name).sort();
}

/** The timers, and the service each starts: its Unit=, or the service of its own name. */
function timersAndServices(units: Map<string, string>): { timers: string[]; services: string[] } {
    const timers = [...units.keys()].filter(name => name.endsWith('.timer')).sort();
    const services = timers.map(name => units.get(name)!.match(/^Unit=(.+)$/m)?.[1] ?? name.replace(/\.timer$/, '.service'));
    return { timers, services: services.sort() };
}

/** The enablement links below a root's /etc/systemd/system, by path. */
function enablementLinks(dir: string): string[] {
    const etc = join(dir, 'etc/systemd/system');
    return existsSync(etc) ? files(etc, dir).filter(path => lstatSync(join(dir, path)).isSymbolicLink()).sort() : [];
}

const verbs = (calls: SystemctlCall[]) => [...new Set(calls.map(c => c.verb))].sort();
const unitsAsked = (calls: SystemctlCall[], verb: string) =>
    calls.filter(c => c.verb === verb).flatMap(c => c.units).sort();

describe('the RPM\'s scriptlets, run as rpm would with a stand-in systemctl that records what systemd is asked', () => {
    let scriptlets: Map<string, string>;
    let units: Map<string, string>;
    beforeAll(() => {
        scriptlets = rpmScriptlets(RPM);
        units = installedUnits();
        console.info([...scriptlets].map(([name, body]) => `%${name}:${body}`).join('\n'));
    });

    /** One phase's calls, shown in the test's output as the systemctl command lines they are. */
    function phaseCalls(phase: Parameters<typeof runPhase>[1]): SystemctlCall[] {
        const calls = runPhase(scriptlets, phase);
        console.info(`${phase}:\n${calls.map(c => `  systemctl ${c.line}`).join('\n') || '  (none)'}`);
        return calls;
    }

    test('install: a preset of each unit that can be enabled, nothing enabled or started', () => {
        const calls = phaseCalls('install');
        expect(enableable(units).length).toBeGreaterThan(0);
        expect(verbs(calls).filter(verb => verb !== 'daemon-reload')).toEqual(['preset']);
        expect(unitsAsked(calls, 'preset')).toEqual(enableable(units));
    });

    test('upgrade: a reload of the changed units, then a restart of the timers that run, and nothing else', () => {
        const calls = phaseCalls('upgrade');
        expect(verbs(calls)).toEqual(['daemon-reload', 'try-restart']);
        expect(unitsAsked(calls, 'try-restart')).toEqual(timersAndServices(units).timers);
        expect(calls.findIndex(c => c.verb === 'daemon-reload')).toBeLessThan(calls.findIndex(c => c.verb === 'try-restart'));
    });

    test('removal: every timer and the service it starts disabled and stopped, nothing started', () => {
        const calls = phaseCalls('removal');
        expect(verbs(calls).filter(verb => verb !== 'daemon-reload')).toEqual(['disable']);
        expect(calls.filter(c => c.verb === 'disable').every(c => c.options.includes('--now'))).toBe(true);
        const { timers, services } = timersAndServices(units);
        expect(unitsAsked(calls, 'disable')).toEqual([...timers, ...services].sort());
    });

    test('on a root whose presets disable what they do not name (Fedora\'s, RHEL\'s), the real systemctl: install links nothing, removal unlinks what the page enabled', () => {
        const systemctl = realSystemctl();
        if (!systemctl) {
            console.warn('SKIPPED: no systemctl here, the unit files the scriptlets leave are not checked');
            return;
        }
        const scratch = mkdtempSync(join(tmpdir(), 'raidtune-rpm-units-'));
        try {
            rpmOnRoot(scratch, '-i', RPM);
            mkdirSync(join(scratch, 'usr/lib/systemd/system-preset'), { recursive: true });
            writeFileSync(join(scratch, 'usr/lib/systemd/system-preset/99-default-disable.preset'), 'disable *\n');
            runPhase(scriptlets, 'install', scratch);
            expect(enablementLinks(scratch)).toEqual([]);
            // What "Record sync history", the check window and the metrics' instructions turn on.
            execFileSync(systemctl, [`--root=${scratch}`, 'enable', ...enableable(units)], { stdio: 'pipe' });
            expect(enablementLinks(scratch)).toHaveLength(enableable(units).length);
            runPhase(scriptlets, 'removal', scratch);
            expect(enablementLinks(scratch)).toEqual([]);
        } finally {
            rmSync(scratch, { recursive: true, force: true });
        }
    });
});

describe('removing the package', () => {
    test('takes all its files and leaves the admin\'s: kept settings, drop-ins, state, an edited metrics.env', () => {
        const scratch = mkdtempSync(join(tmpdir(), 'raidtune-rpm-erase-'));
        try {
            rpmOnRoot(scratch, '-i', RPM);
            // What the page writes for the admin (README, "What stays after removal").
            const adminFiles = ['/etc/sysctl.d/90-raidtune.conf', '/etc/udev/rules.d/64-raidtune.rules',
                '/etc/modules-load.d/raidtune.conf', '/etc/systemd/system/raidtune-check-window-start.timer.d/raidtune.conf',
                '/etc/raidtune/check-window-limits', '/var/lib/raidtune/history/md0.jsonl'];
            for (const file of adminFiles) {
                mkdirSync(dirname(join(scratch, file)), { recursive: true });
                writeFileSync(join(scratch, file), '# the admin\'s\n');
            }
            writeFileSync(join(scratch, 'etc/raidtune/metrics.env'), 'RAIDTUNE_METRICS_DIR=/srv/textfiles\n');
            rpmOnRoot(scratch, '-e', 'cockpit-raidtune');
            expect(files(scratch, scratch).sort()).toEqual([...adminFiles, '/etc/raidtune/metrics.env.rpmsave'].sort());
        } finally {
            rmSync(scratch, { recursive: true, force: true });
        }
    });
});

installedPageTests(env, pluginDir);
