// SPDX-License-Identifier: LGPL-2.1-or-later
// The release tarball and the RPM as the package tests build them, and the installed page's tests.
// A run of make check builds and checks the package once (package.test.ts, on the default Cockpit);
// the tiers of the other Cockpits only install that RPM and open the page it installs
// (installed-page.test.ts), building it themselves only when it is missing or not of this build.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '../../../tools/cockpit';
import { chooseLanguage } from './cockpitSettings';
import type { RaidtuneEnv } from './env';

export const REPO = repoRoot();
export const VERSION = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version as string;
export const TARBALL = join(REPO, `raidtune-${VERSION}.tar.xz`);
export const RPM = join(REPO, `rpmbuild/RPMS/noarch/cockpit-raidtune-${VERSION}-1.noarch.rpm`);
export const BUILD_TIMEOUT_MS = 180000;
/** The scratch roots' RPM database, below the root, left out of what the package installs. */
export const DBPATH = '/var/lib/rpm';
/** Where the package puts the page, below a root. */
export const PLUGIN_PATH = 'usr/share/cockpit/raidtune';

/** Held while a test file builds or installs the package (see withPackageLock). */
const PACKAGE_LOCK = join(REPO, 'test-results', 'package-build.lock');

/**
 * Runs `work` while no other test process builds the package. The tiers of two Cockpits run at once
 * in make check's lanes: installed-page.test.ts may build the RPM while package.test.ts removes the
 * tarball and rpmbuild/ (CI saw one's `make dist` lose its temporary file to the other's). The lock
 * is flock(1)'s, held by a child that ends with this process, so a crashed worker cannot keep it.
 */
export async function withPackageLock<T>(work: () => T): Promise<T> {
    mkdirSync(dirname(PACKAGE_LOCK), { recursive: true });
    const holder = spawn('flock', ['--exclusive', PACKAGE_LOCK, 'sh', '-c', `echo held; exec tail --pid=${process.pid} -f /dev/null`],
                         { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
        holder.stdout.once('data', () => resolve());
        holder.once('exit', code => reject(new Error(`flock ${PACKAGE_LOCK} ended with ${code} before holding the lock`)));
    });
    try {
        return work();
    } finally {
        // The whole group: flock and the tail that holds its descriptor.
        process.kill(-holder.pid!, 'SIGTERM');
    }
}

/** Runs make in the repository, without the calling make's jobserver (make check runs jest). */
export function make(...targets: string[]): string {
    const env = { ...process.env };
    for (const name of ['MAKEFLAGS', 'MAKELEVEL', 'MFLAGS', 'MAKEOVERRIDES']) delete env[name];
    const result = spawnSync('make', ['-s', ...targets], { cwd: REPO, env, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`make ${targets.join(' ')} failed:\n${result.stdout}${result.stderr}`);
    return result.stdout;
}

/** A fresh RPM from scratch (rpmbuild/ removed first). */
export function buildRpm(): void {
    rmSync(join(REPO, 'rpmbuild'), { recursive: true, force: true });
    make('rpm');
}

/** rpm on a scratch root, with its own database there; scriptlets are run by the tests themselves. */
export function rpmOnRoot(dir: string, ...args: string[]): void {
    execFileSync('rpm', ['--root', dir, '--dbpath', DBPATH, '--nodeps', '--noscripts', ...args], { stdio: 'pipe' });
}

/**
 * Installs the RPM into the scratch `root`. The RPM of this run is used when it holds this build's
 * page (its index.js is dist/index.js byte for byte); otherwise it is built first.
 */
export function installBuiltRpm(root: string): void {
    if (existsSync(RPM)) {
        rpmOnRoot(root, '-i', RPM);
        if (readFileSync(join(root, PLUGIN_PATH, 'index.js')).equals(readFileSync(join(REPO, 'dist', 'index.js'))))
            return;
        rmSync(root, { recursive: true, force: true });
        mkdirSync(root);
    }
    buildRpm();
    rpmOnRoot(root, '-i', RPM);
}

/** The installed page: bare and in the shell without a console error, and in German from its po.de.js. */
export function installedPageTests(env: RaidtuneEnv, pluginDir: string): void {
    describe('the installed page in Cockpit', () => {
        test('loads from the installed RPM with zero console errors, bare and in the shell', async () => {
            expect(existsSync(join(pluginDir, 'manifest.json'))).toBe(true);
            // The overview bare, and md0's own page in the shell: the first view's files and the
            // array page's chunk, each from the installed files.
            const bare = await env.openPage();
            await bare.page.waitForSelector('table.raidtune-overview tr[data-array="md0"] .pf-v6-c-progress');
            await expect(bare.page.locator('h1').innerText()).resolves.toBe('RAID tuning');
            const shell = await env.shellPage('md0');
            await shell.frame.waitForSelector('#array-md0 .pf-v6-c-progress');
            await bare.expectNoProblems();
            await shell.expectNoProblems();
        });

        test('speaks German from the package\'s po.de.js', async () => {
            const page = (await env.openPage()).page;
            await chooseLanguage(page, 'de-de');
            await page.reload();
            await page.waitForSelector('h1:has-text("RAID-Optimierung")');
        });
    });
}
