// SPDX-License-Identifier: LGPL-2.1-or-later
// tools/channel-guard.mjs on records like the browser tiers write: a kind used on 287 and never on
// 372 fails the guard and is named with the tests that used it; the verdict is a jest result file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GUARD = join(__dirname, '../../../tools/channel-guard.mjs');
let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'raidtune-guard-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const line = (file: string, test: string, kind: string) => JSON.stringify({ file, test, kind });

function guard(full: string[], subset: string[]) {
    writeFileSync(join(dir, '287.jsonl'), full.join('\n') + '\n');
    writeFileSync(join(dir, '372.jsonl'), subset.join('\n') + '\n');
    const run = spawnSync('node', [GUARD, join(dir, '287.jsonl'), join(dir, '372.jsonl'), join(dir, 'out.json')], { encoding: 'utf8' });
    return { code: run.status, stdout: run.stdout, result: JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) };
}

test('every kind of 287 also on 372: passed', () => {
    const { code, result } = guard(
        [line('test/browser/a.test.ts', 'writes', 'stream spawn superuser=require'), line('test/browser/b.test.ts', 'reads', 'stream spawn')],
        [line('test/browser/a.test.ts', 'writes', 'stream spawn superuser=require'), line('test/browser/a.test.ts', 'reads', 'stream spawn')]);
    expect(code).toBe(0);
    expect([result.numPassedTests, result.numFailedTests]).toEqual([1, 0]);
});

test('a kind only on 287: failed, named with the test that used it', () => {
    const { code, stdout, result } = guard(
        [line('test/browser/a.test.ts', 'writes', 'stream spawn superuser=require -> problem=access-denied'),
            line('test/browser/a.test.ts', 'reads', 'stream spawn')],
        [line('test/browser/c.test.ts', 'reads', 'stream spawn')]);
    expect(code).toBe(1);
    expect(result.numFailedTests).toBe(1);
    expect(stdout).toContain('on 287 only: stream spawn superuser=require -> problem=access-denied (test/browser/a.test.ts › writes)');
    expect(result.testResults[0].assertionResults[0].failureMessages[0]).toContain('problem=access-denied');
});

test('nothing recorded on 287 fails rather than passes', () => {
    const { code } = guard([], []);
    expect(code).toBe(1);
});
