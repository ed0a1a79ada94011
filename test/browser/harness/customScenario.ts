// SPDX-License-Identifier: LGPL-2.1-or-later
// A scenario of a test file's own for the simulated host, written to a temp folder that is removed
// after the file's tests, with a folder beside it for raidtune's state (restore.json, applying.json)
// that the test can read by path.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function customScenario(name: string, scenario: object): { file: string; stateDir: string } {
    const work = mkdtempSync(join(tmpdir(), `raidtune-${name}-`));
    const file = join(work, `${name}.json`);
    writeFileSync(file, JSON.stringify(scenario));
    afterAll(() => rmSync(work, { recursive: true, force: true }));
    return { file, stateDir: join(work, 'state') };
}
