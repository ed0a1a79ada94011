// SPDX-License-Identifier: LGPL-2.1-or-later
// raidtune-metrics' options: bad ones give a clear message and exit 2; --output replaces the file
// whole, leaving no temp file behind for node_exporter to read.

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulatedHost } from '../../../sim';
import { metricsOf, removeTempDirs, runScript, tempDir } from './metricsHelpers';

afterEach(removeTempDirs);

test.each([
    [['--bogus'], /unrecognized arguments: --bogus/],
    [['--proc-root', '/nonexistent-raidtune'], /--proc-root \/nonexistent-raidtune: not a directory/],
    [['--output', '/nonexistent-raidtune/md.prom'], /--output .*: its directory does not exist/],
    [['--state', '/tmp'], /--state \/tmp: is a directory/],
    [['--clock', '-5'], /--clock: a number of seconds >= 0/],
])('%j: exit 2 with a clear message', (args, message) => {
    const run = runScript(args);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
});

test('--output writes the metrics atomically, leaving only the .prom file', () => {
    const host = createSimulatedHost('raid6-recovery', tempDir(), { seed: 1 });
    try {
        const out = tempDir();
        const target = join(out, 'raidtune.prom');
        writeFileSync(target, 'old\n');
        const run = runScript(['--proc-root', join(host.root, 'proc'), '--sys-root', join(host.root, 'sys'), '--output', target]);
        expect(run.status).toBe(0);
        expect(run.stdout).toBe('');
        expect(readFileSync(target, 'utf8')).toBe(metricsOf(host.root));
        expect(readdirSync(out)).toEqual(['raidtune.prom']);
    } finally {
        host.close();
    }
});

test('a tree without md arrays gives no series rather than zeros', () => {
    const root = tempDir();
    mkdirSync(join(root, 'proc'));
    mkdirSync(join(root, 'sys'));
    expect(metricsOf(root)).toBe('');
});
