// SPDX-License-Identifier: LGPL-2.1-or-later
// Runs the auto-restore waiter (src/md/waiterScript.ts) with the real sh against a temporary
// sysfs/procfs-like tree: it restores only once idle persists, ignores a brief idle (a restart),
// keeps a bounded history, and exits without restoring when cancelled.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { armedFileContent, armedFollowSteps } from '../../../src/md/autoRestore';
import { recordOriginals, serializeJournal, type Journal } from '../../../src/md/journal';
import { parseTrendLine } from '../../../src/md/trend';
import { WAITER_SCRIPT } from '../../../src/md/waiterScript';

const POLL_S = 0.2;
const IDLE_POLLS = 6;

// md0 first and a separator of blanks (as the kernel prints it): md1's numbers must not leak in.
const MDSTAT = `Personalities : [raid6] [raid5] [raid4]
md0 : active raid6 sde1[5] sdd1[3] sdc1[2] sdb1[1] sda1[0]
      5860147200 blocks super 1.2 level 6, 64k chunk, algorithm 2 [5/4] [UUUU_]
      [================>....]  recovery = 83.8% (1637513216/1953382400) finish=1318.0min speed=3994K/sec
      bitmap: 0/15 pages [0KB], 65536KB chunk
      
md1 : active raid1 sdg1[1] sdh1[0]
      1000 blocks super 1.2 [2/2] [UU]
      [=>...................]  resync = 9.9% (99/1000) finish=1.0min speed=1K/sec
      
unused devices: <none>
`;

const journal: Journal = {
    version: 1, createdAt: '2026-11-23T18:00:00.000Z', entries: [
        { path: '/proc/sys/dev/raid/speed_limit_min', original: '4000', setting: { message: 'minimum', args: [] } },
        { path: '/sys/block/md0/md/sync_speed_max', original: 'system', setting: { message: 'maximum of md0', args: [] } },
    ],
};

let root: string;
let waiter: ChildProcess | null;
let exited: Promise<number | null>;

const at = (path: string) => join(root, path);
const write = (path: string, text: string) => {
    mkdirSync(dirname(at(path)), { recursive: true });
    writeFileSync(at(path), text);
};
const read = (path: string) => readFileSync(at(path), 'utf8');
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));
const historyLines = () => (existsSync(at('state/auto-restore/md0.history')) ? read('state/auto-restore/md0.history').split('\n').filter(Boolean) : []);

async function until(what: string, condition: () => boolean, timeoutMs = 15000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await sleep(50);
    }
}

function startWaiter(keepLines = 100) {
    // As the arm plan does: the journal copy and the armed file first, then the waiter.
    write('state/auto-restore/md0.journal', serializeJournal(journal));
    write('state/auto-restore/md0.armed', armedFileContent(journal)!);
    waiter = spawn('sh', ['-c', WAITER_SCRIPT, 'raidtune-restore', 'md0', at('sys'), at('proc'), at('state'),
        String(POLL_S), String(IDLE_POLLS), String(keepLines)], { stdio: 'ignore' });
    const child = waiter;
    exited = new Promise(resolve => child.on('exit', code => resolve(code)));
}

beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'raidtune-waiter-'));
    write('proc/mdstat', MDSTAT);
    write('proc/uptime', '1234.56 99.00\n');
    write('proc/sys/dev/raid/speed_limit_min', '50000\n');
    write('sys/block/md0/md/sync_action', 'recover\n');
    write('sys/block/md0/md/sync_speed', '3994\n');
    write('sys/block/md0/md/sync_speed_min', '50000 (system)\n');
    write('sys/block/md0/md/sync_speed_max', '300000 (local)\n');
    write('state/restore.json', serializeJournal(journal));
    waiter = null;
});

afterEach(async () => {
    if (waiter && waiter.exitCode === null) {
        waiter.kill();
        await exited;
    }
    rmSync(root, { recursive: true, force: true });
});

test('the armed file lists the journal\'s originals in restore order, newest first', () => {
    expect(armedFileContent(journal)).toBe('/sys/block/md0/md/sync_speed_max\tsystem\n/proc/sys/dev/raid/speed_limit_min\t4000\n');
});

test('records history while the sync runs, ignores a brief idle, restores once idle persists', async () => {
    startWaiter();
    await until('two history samples', () => historyLines().length >= 2);
    expect(parseTrendLine(historyLines()[0])).toEqual({
        at: 1234560, doneKiB: 1637513216, totalKiB: 1953382400, speedKiBs: 3994, minKiBs: 50000, maxKiBs: 300000,
    });

    // A restart through `idle`: reads idle for a moment (more than one poll, fewer than IDLE_POLLS).
    write('sys/block/md0/md/sync_action', 'idle\n');
    await sleep(POLL_S * 1000 * 2);
    write('sys/block/md0/md/sync_action', 'recover\n');
    const before = historyLines().length;
    await until('sampling again after the restart', () => historyLines().length > before + 1);
    expect(waiter!.exitCode).toBeNull();
    expect(read('proc/sys/dev/raid/speed_limit_min')).toBe('50000\n');
    expect(existsSync(at('state/restore.json'))).toBe(true);

    write('sys/block/md0/md/sync_action', 'idle\n');
    await expect(exited).resolves.toBe(0);
    expect(read('proc/sys/dev/raid/speed_limit_min')).toBe('4000\n');
    expect(read('sys/block/md0/md/sync_speed_max')).toBe('system\n');
    for (const gone of ['state/restore.json', 'state/auto-restore/md0.armed', 'state/auto-restore/md0.history', 'state/auto-restore/md0.journal']) {
        expect([gone, existsSync(at(gone))]).toEqual([gone, false]);
    }
});

test('a frozen sync is paused, not finished', async () => {
    write('sys/block/md0/md/sync_action', 'frozen\n');
    startWaiter();
    await sleep(POLL_S * 1000 * (IDLE_POLLS + 3));
    expect(waiter!.exitCode).toBeNull();
    expect(read('proc/sys/dev/raid/speed_limit_min')).toBe('50000\n');
    expect(historyLines()).toEqual([]);
});

test('cancel: removing the armed file ends the waiter without restoring anything', async () => {
    startWaiter();
    await until('a history sample', () => historyLines().length >= 1);
    rmSync(at('state/auto-restore/md0.armed'));
    await expect(exited).resolves.toBe(0);
    expect(read('proc/sys/dev/raid/speed_limit_min')).toBe('50000\n');
    expect(read('state/restore.json')).toBe(serializeJournal(journal));
    expect(existsSync(at('state/auto-restore/md0.history'))).toBe(false);
});

test('an array that vanished: what still exists is restored; a journal changed since arming is kept', async () => {
    startWaiter();
    await until('a history sample', () => historyLines().length >= 1);
    const grown = serializeJournal({ ...journal, entries: [...journal.entries, { ...journal.entries[0], path: '/proc/sys/dev/raid/speed_limit_max' }] });
    write('state/restore.json', grown);
    rmSync(at('sys/block/md0'), { recursive: true });
    await expect(exited).resolves.toBe(0);
    expect(read('proc/sys/dev/raid/speed_limit_min')).toBe('4000\n');
    expect(existsSync(at('sys/block/md0/md/sync_speed_max'))).toBe(false);
    expect(read('state/restore.json')).toBe(grown);
});

test('keeps the history bounded to the last lines', async () => {
    startWaiter(3);
    let most = 0;
    let trimmed = false;
    await until('a trim', () => {
        const count = historyLines().length;
        if (count < most) trimmed = true;
        most = Math.max(most, count);
        return trimmed && count > 0;
    });
    expect(most).toBeLessThanOrEqual(6);
    expect(historyLines().length).toBeGreaterThanOrEqual(3);
});

describe('a change made while armed', () => {
    const readAhead = { kind: 'write-attribute' as const, setting: { message: 'read-ahead of md0', args: [] }, path: '/sys/block/md0/queue/read_ahead_kb', to: '4096', from: '128' };
    const grown = recordOriginals(journal, [readAhead], 'T');
    const follow = (armed: string[]) => {
        for (const step of armedFollowSteps(grown, new Map(armed.map(a => [a, { writes: [], history: [] }])), { sysRoot: at('sys'), procRoot: at('proc'), stateDir: at('state') })) {
            if (step.kind !== 'run') throw new Error('a follow step runs a command');
            execFileSync(step.argv[0], step.argv.slice(1));
        }
    };

    test('rewrites the armed waiter\'s files: it restores the new original too, then removes the journal', async () => {
        startWaiter();
        write('sys/block/md0/queue/read_ahead_kb', '4096\n');
        write('state/restore.json', serializeJournal(grown));
        follow(['md0']);
        expect(read('state/auto-restore/md0.armed')).toBe(armedFileContent(grown));
        write('sys/block/md0/md/sync_action', 'idle\n');
        await expect(exited).resolves.toBe(0);
        expect(read('sys/block/md0/queue/read_ahead_kb')).toBe('128\n');
        expect(read('proc/sys/dev/raid/speed_limit_min')).toBe('4000\n');
        expect(existsSync(at('state/restore.json'))).toBe(false);
    });

    test('leaves a waiter that already ended alone: no .armed file comes back', () => {
        follow(['md0']);
        expect(existsSync(at('state/auto-restore/md0.armed'))).toBe(false);
        expect(existsSync(at('state/auto-restore/md0.journal'))).toBe(false);
    });
});
