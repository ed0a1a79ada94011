// SPDX-License-Identifier: LGPL-2.1-or-later
// The mdsim program: options, --once, the ready signal, live ticking with tee writes, and a
// clean exit on SIGTERM. It is bundled the way build.mjs bundles it, into a temp directory.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { parseCli, UsageError } from '../../../sim/cli';
import { removeTempRoots, tempRoot } from './simHelpers';

let mdsim: string;

beforeAll(() => {
    mdsim = join(tempRoot(), 'mdsim.mjs');
    buildSync({
        entryPoints: [join(__dirname, '../../../sim/main.ts')], outfile: mdsim, bundle: true,
        platform: 'node', format: 'esm', target: ['node20'], logLevel: 'warning',
    });
});
afterAll(removeTempRoots);

describe('options', () => {
    test('defaults', () => {
        expect(parseCli(['--scenario', 'empty', '--root', '/tmp/x'])).toEqual({
            kind: 'run',
            options: { scenario: 'empty', root: '/tmp/x', tickMs: 1000, timeScale: 1, seed: 1, once: false, quiet: false },
        });
    });

    test('all options', () => {
        const command = parseCli(['--scenario', 'a.json', '--root', 'r', '--tick-ms', '250', '--time-scale', '60', '--seed', '42', '--once', '--quiet']);
        expect(command).toEqual({ kind: 'run', options: { scenario: 'a.json', root: 'r', tickMs: 250, timeScale: 60, seed: 42, once: true, quiet: true } });
    });

    test('mistakes are usage errors', () => {
        expect(() => parseCli(['--root', 'r'])).toThrow(new UsageError('--scenario is required'));
        expect(() => parseCli(['--scenario', 's'])).toThrow('--root is required');
        expect(() => parseCli(['--scenario', 's', '--root', 'r', '--tick-ms', '0'])).toThrow('--tick-ms wants a positive number');
        expect(() => parseCli(['--scenario', 's', '--root', 'r', '--bogus'])).toThrow(UsageError);
        expect(parseCli(['--list'])).toEqual({ kind: 'list' });
    });
});

describe('the program', () => {
    test('--once writes the tree, signals ready and exits', () => {
        const root = join(tempRoot(), 'tree');
        const run = spawnSync(process.execPath, [mdsim, '--scenario', 'raid1-healthy', '--root', root, '--once'], { encoding: 'utf8' });
        expect(run.status).toBe(0);
        expect(run.stdout).toBe(`mdsim: ready ${root}\n`);
        expect(existsSync(join(root, '.ready'))).toBe(true);
        expect(readFileSync(join(root, 'proc/mdstat'), 'utf8')).toContain('md0 : active raid1 sdb1[1] sda1[0]');
    });

    test('bad input exits non-zero with a clear message', () => {
        const usage = spawnSync(process.execPath, [mdsim, '--root', tempRoot()], { encoding: 'utf8' });
        expect(usage.status).toBe(2);
        expect(usage.stderr).toContain('mdsim: --scenario is required');
        const bad = spawnSync(process.execPath, [mdsim, '--scenario', 'nope', '--root', tempRoot()], { encoding: 'utf8' });
        expect(bad.status).toBe(1);
        expect(bad.stderr).toContain('scenario nope is invalid');
    });

    test('refuses to take over a directory that has a real-looking proc/', () => {
        const root = tempRoot();
        spawnSync('mkdir', ['-p', join(root, 'proc')]);
        const run = spawnSync(process.execPath, [mdsim, '--scenario', 'empty', '--root', root, '--once'], { encoding: 'utf8' });
        expect(run.status).toBe(1);
        expect(run.stderr).toContain('already has a proc/ that mdsim did not create');
    });

    test('runs live: applies a tee write on a tick and exits cleanly on SIGTERM', async () => {
        const root = join(tempRoot(), 'live');
        const child = spawn(process.execPath, [mdsim, '--scenario', 'raid6-recovery', '--root', root, '--tick-ms', '50'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', chunk => { stdout += chunk; });
        child.stderr.on('data', chunk => { stderr += chunk; });
        const until = async (done: () => boolean) => {
            for (let i = 0; i < 200 && !done(); i++) await new Promise(resolve => setTimeout(resolve, 25));
            expect(done()).toBe(true);
        };
        await until(() => stdout.includes('mdsim: ready'));
        const limit = join(root, 'proc/sys/dev/raid/speed_limit_min');
        writeFileSync(limit, '50000\n');
        await until(() => stderr.includes('proc/sys/dev/raid/speed_limit_min <- "50000\\n": applied'));
        await until(() => readFileSync(join(root, 'sys/block/md0/md/sync_speed_min'), 'utf8') === '50000 (system)\n');
        const exit = new Promise<number | null>(resolve => child.on('exit', code => resolve(code)));
        child.kill('SIGTERM');
        expect(await exit).toBe(0);
    }, 15_000);
});
