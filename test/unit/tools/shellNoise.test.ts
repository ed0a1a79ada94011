// SPDX-License-Identifier: LGPL-2.1-or-later
// The harness ignores only each Cockpit version's own shell lines, by exact text, on shell pages:
// anything else (raidtune's own errors first) still fails a browser test on every version.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isKnownShellNoise } from '../../../tools/cockpit/browser';
import { cockpitUnderTest, type CockpitInstall } from '../../../tools/cockpit/versions';

const SHELL = 'http://127.0.0.1:9091/raidtune';
const BARE = 'http://127.0.0.1:9091/cockpit/@localhost/raidtune/index.html';
const FONT_404 = 'Failed to load resource: the server responded with a status of 404 (ERROR)';

/** A Python-bridge install as install-cockpit.sh records it (only its version file is read). */
function pythonCockpit(key: '337' | '372'): CockpitInstall {
    const cache = mkdtempSync(join(tmpdir(), 'raidtune-cockpit-'));
    try {
        mkdirSync(join(cache, key));
        writeFileSync(join(cache, key, 'version'), `${key}-1\n`);
        return cockpitUnderTest(key, cache);
    } finally {
        rmSync(cache, { recursive: true });
    }
}

test('287: its shell lines without a system bus, by exact text, only on the shell page', () => {
    const c287 = cockpitUnderTest('287');
    const line = { kind: 'console-error' as const, text: 'Could not connect: No such file or directory' };
    expect(isKnownShellNoise(line, SHELL, c287)).toBe(true);
    expect(isKnownShellNoise(line, BARE, c287)).toBe(false);
    expect(isKnownShellNoise({ ...line, text: `${line.text}!` }, SHELL, c287)).toBe(false);
    expect(isKnownShellNoise({ kind: 'pageerror', text: 'null: ne' }, SHELL, c287)).toBe(false);
});

test('337: a 404 is ignored only for the fonts its shell lacks; 372 ignores none', () => {
    const font = 'http://x/cockpit/@localhost/shell/assets/fonts/RedHatText/RedHatTextVF.woff2';
    const c337 = pythonCockpit('337');
    expect(isKnownShellNoise({ kind: 'console-error', text: FONT_404, url: font }, SHELL, c337)).toBe(true);
    expect(isKnownShellNoise({ kind: 'console-error', text: FONT_404, url: 'http://x/cockpit/@localhost/raidtune/po.de.js' }, SHELL, c337)).toBe(false);
    expect(isKnownShellNoise({ kind: 'console-error', text: FONT_404 }, SHELL, c337)).toBe(false);
    expect(isKnownShellNoise({ kind: 'console-error', text: FONT_404, url: font }, BARE, c337)).toBe(false);
    expect(isKnownShellNoise({ kind: 'console-error', text: FONT_404, url: font }, SHELL, pythonCockpit('372'))).toBe(false);
    for (const key of ['337', '372'] as const)
        expect(isKnownShellNoise({ kind: 'console-error', text: 'Could not connect: No such file or directory' }, SHELL, pythonCockpit(key))).toBe(false);
});

test('372: the shell\'s own uncaught "ne", and no other uncaught error', () => {
    const c372 = pythonCockpit('372');
    expect(isKnownShellNoise({ kind: 'pageerror', text: 'null: ne' }, SHELL, c372)).toBe(true);
    expect(isKnownShellNoise({ kind: 'pageerror', text: 'null: ne' }, BARE, c372)).toBe(false);
    expect(isKnownShellNoise({ kind: 'pageerror', text: 'TypeError: x is undefined' }, SHELL, c372)).toBe(false);
    expect(isKnownShellNoise({ kind: 'pageerror', text: 'null: ne' }, SHELL, pythonCockpit('337'))).toBe(false);
});
