// SPDX-License-Identifier: LGPL-2.1-or-later
// The built plugin copied into a clone-like folder inside a mode-700 one, as a clone under /root
// is: a session run as `nobody` cannot enter it, so the harness hands the session a copy it can
// read (setupRaidtune's pluginDir). Removed after the file's tests.

import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../../tools/cockpit';

export function privateDistCopy(): { folder: string; dist: string } {
    const folder = mkdtempSync(join(tmpdir(), 'raidtune-private-'));
    const dist = join(folder, 'clone', 'dist');
    cpSync(join(repoRoot(), 'dist'), dist, { recursive: true });
    afterAll(() => rmSync(folder, { recursive: true, force: true }));
    return { folder, dist };
}

export const ADMIN_REASON = 'Requires administrative access. Turn it on in Cockpit\'s top bar.';
