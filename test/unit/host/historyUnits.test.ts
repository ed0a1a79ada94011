// SPDX-License-Identifier: LGPL-2.1-or-later
// `make install-history`: the sync history recorder and the check window's tool with their units,
// none enabled by the install; the window's service runs the installed tool with the edge as its
// command and the installed limits file; systemd-analyze verify finds nothing wrong with them.

import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, tempDir } from '../metrics/metricsHelpers';
import { verifyUnits } from '../helpers/systemdVerify';

afterEach(removeTempDirs);

const REPO = join(__dirname, '../../..');
const UNITS = ['raidtune-history.service', 'raidtune-history.timer', 'raidtune-check-window@.service',
    'raidtune-check-window-start.timer', 'raidtune-check-window-end.timer'];

function install(): string {
    const prefix = tempDir('raidtune-history-');
    execFileSync('make', ['-s', '-C', REPO, 'install-history', `PREFIX=${prefix}`], { stdio: 'pipe' });
    return prefix;
}

test('installs both tools and their units, none of them enabled; the window\'s edges run the installed tool', () => {
    const prefix = install();
    const mode = (path: string) => statSync(join(prefix, path)).mode & 0o777;
    expect([mode('libexec/raidtune/raidtune-history'), mode('libexec/raidtune/raidtune-check-window')]).toEqual([0o755, 0o755]);
    for (const unit of UNITS) expect(mode(`lib/systemd/system/${unit}`)).toBe(0o644);
    const unit = (name: string) => readFileSync(join(prefix, 'lib/systemd/system', name), 'utf8');
    expect(unit('raidtune-check-window@.service')).toContain(
        `ExecStart=/bin/sh ${prefix}/libexec/raidtune/raidtune-check-window %i /sys /var/lib/raidtune /proc ${prefix}/etc/raidtune/check-window-limits`);
    for (const edge of ['start', 'end']) {
        expect(unit(`raidtune-check-window-${edge}.timer`)).toMatch(new RegExp(`^Unit=raidtune-check-window@${edge}\\.service$`, 'm'));
    }
    expect(spawnSync('find', [prefix, '-name', '*.wants']).stdout.toString()).toBe('');
});

test('systemd-analyze verify accepts the installed units', () => {
    const dir = join(install(), 'lib/systemd/system');
    // The template's instances are what systemd runs; the timers name them.
    const verdict = verifyUnits([...UNITS.filter(u => !u.includes('@')).map(u => join(dir, u)),
        join(dir, 'raidtune-check-window@start.service')]);
    if (!verdict) return;
    expect(verdict.said).toBe('');
    expect(verdict.status).toBe(0);
});
