// SPDX-License-Identifier: LGPL-2.1-or-later
// `make install-metrics`: the script, the service and timer (every 30 s, never enabled by the
// install), the settings file (kept when an admin has one) and the alert rules; systemd-analyze
// verify finds nothing wrong with the installed units.

import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempDirs, tempDir } from './metricsHelpers';
import { verifyUnits } from '../helpers/systemdVerify';

afterEach(removeTempDirs);

const REPO = join(__dirname, '../../..');

function install(prefix: string): void {
    execFileSync('make', ['-s', '-C', REPO, 'install-metrics', `PREFIX=${prefix}`], { stdio: 'pipe' });
}

test('installs the script, the units, the settings and the rules, the timer left off', () => {
    const prefix = tempDir();
    install(prefix);
    const unitDir = join(prefix, 'lib/systemd/system');
    const mode = (path: string) => statSync(join(prefix, path)).mode & 0o777;
    expect(mode('libexec/raidtune/raidtune-metrics')).toBe(0o755);
    for (const file of ['lib/systemd/system/raidtune-metrics.service', 'lib/systemd/system/raidtune-metrics.timer',
        'etc/raidtune/metrics.env', 'share/raidtune/prometheus/raidtune-alerts.yml'])
        expect(mode(file)).toBe(0o644);
    const service = readFileSync(join(unitDir, 'raidtune-metrics.service'), 'utf8');
    expect(service).toContain(`ExecStart=${prefix}/libexec/raidtune/raidtune-metrics --output \${RAIDTUNE_METRICS_DIR}/raidtune.prom`);
    expect(service).toContain(`EnvironmentFile=-${prefix}/etc/raidtune/metrics.env`);
    expect(service).toContain('Environment=RAIDTUNE_METRICS_DIR=/var/lib/prometheus/node-exporter');
    expect(readFileSync(join(unitDir, 'raidtune-metrics.timer'), 'utf8')).toMatch(/^OnUnitActiveSec=30s$/m);
    // Nothing enables it: no .wants links.
    expect(spawnSync('find', [prefix, '-name', '*.wants']).stdout.toString()).toBe('');

    const settings = join(prefix, 'etc/raidtune/metrics.env');
    writeFileSync(settings, 'RAIDTUNE_METRICS_DIR=/srv/textfile\n');
    install(prefix);
    expect(readFileSync(settings, 'utf8')).toBe('RAIDTUNE_METRICS_DIR=/srv/textfile\n');
});

test('systemd-analyze verify accepts the installed units', () => {
    const prefix = tempDir();
    install(prefix);
    const unitDir = join(prefix, 'lib/systemd/system');
    const verdict = verifyUnits([join(unitDir, 'raidtune-metrics.service'), join(unitDir, 'raidtune-metrics.timer')]);
    if (!verdict) return;
    expect(verdict.said).toBe('');
    expect(verdict.status).toBe(0);
});
