// Runs once before the browser tests. Cheap: checks what the machine and the build must provide and
// tags this run so globalTeardown can find processes a crashed test left behind.
import { existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { COCKPIT_WS, CHROMIUM, repoRoot } from '../../../tools/cockpit';
import { newestMtime, startHarnessRun } from '../../../tools/cockpit/proc';

function inPath(program: string): boolean {
    return (process.env.PATH ?? '').split(delimiter).some(dir => dir && existsSync(join(dir, program)));
}

export default async function globalSetup(): Promise<void> {
    startHarnessRun();

    const missing: string[] = [];
    for (const file of [COCKPIT_WS, '/usr/share/cockpit/base1/manifest.json', '/usr/share/cockpit/shell/manifest.json',
        CHROMIUM]) {
        if (!existsSync(file))
            missing.push(file);
    }
    for (const program of ['cockpit-bridge', 'dbus-daemon']) {
        if (!inPath(program))
            missing.push(program);
    }
    if (missing.length)
        throw new Error(`browser tests need ${missing.join(', ')}: run tools/install-deps.sh (as root)`);

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
