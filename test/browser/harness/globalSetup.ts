// SPDX-License-Identifier: LGPL-2.1-or-later
// Runs once before the browser tests. Cheap: checks what the machine and the build must provide and
// tags this run so globalTeardown can find processes a crashed test left behind.
import { existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { CHROMIUM, cockpitUnderTest, repoRoot } from '../../../tools/cockpit';
import { newestMtime, startHarnessRun } from '../../../tools/cockpit/proc';

function inPath(program: string): boolean {
    return (process.env.PATH ?? '').split(delimiter).some(dir => dir && existsSync(join(dir, program)));
}

export default async function globalSetup(): Promise<void> {
    startHarnessRun();

    const cockpit = cockpitUnderTest(); // throws with the install command for a missing newer one
    const missing: string[] = [];
    const packages = ['base1', 'shell'].map(name => cockpit.dataDirs.map(dir => join(dir, 'cockpit', name, 'manifest.json')));
    const found = packages.map(candidates => candidates.find(existsSync) ?? candidates[0]);
    const required = [cockpit.ws, CHROMIUM, ...found];
    for (const file of required) {
        if (!existsSync(file))
            missing.push(file);
    }
    for (const program of [cockpit.bridge, 'dbus-daemon']) {
        if (program.includes('/') ? !existsSync(program) : !inPath(program))
            missing.push(program);
    }
    if (missing.length)
        throw new Error(`browser tests need ${missing.join(', ')}: run tools/install-deps.sh (as root)`);
    console.log(`raidtune browser tests: Cockpit ${cockpit.key} (${cockpit.version || 'version unknown'}), ` +
        `${cockpit.pythonBridge ? 'Python' : 'C'} bridge`);

    // The build is checked again, with a hard "run make first", by each test file that needs it
    // (setupRaidtune); self-contained tests such as smoke.test.ts run without it.
    const root = repoRoot();
    const dist = join(root, 'dist', 'index.html');
    const sim = join(root, 'build', 'mdsim.mjs');
    const notBuilt = [dist, sim].filter(f => !existsSync(f));
    if (notBuilt.length) {
        console.warn(`raidtune browser tests: ${notBuilt.join(' and ')} missing: run make first ` +
            '(only self-contained tests can pass)');
    } else if (existsSync(join(root, 'dist', 'index.js')) &&
        newestMtime(join(root, 'src')) > statSync(join(root, 'dist', 'index.js')).mtimeMs) {
        console.warn('raidtune browser tests: src/ is newer than dist/: the tests run the OLD build; run make first');
    }
}
