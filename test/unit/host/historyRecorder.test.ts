// SPDX-License-Identifier: LGPL-2.1-or-later
// Runs the sync history recorder (recorder/raidtune-history) with the real sh against a temporary
// sysfs/procfs-like tree, one run per "minute" as its timer would, with the clock passed in: what
// it writes must be what the core's parser reads (src/md/history.ts), bounded and root-readable.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fakeTree } from './fakeSysfs';
import { parseHistoryFile, parseSyncHistory, type SyncOperation } from '../../../src/md/history';

const RECORDER = join(__dirname, '../../../recorder/raidtune-history');
const UUID = '0a1b2c3d:11112222:33334444:55556666';

const { at, write, md } = fakeTree('raidtune-history-');
const run = (now: number, keep = 50) => execFileSync('sh', [RECORDER, at('sys'), at('proc'), at('state'), String(keep), String(now)]);
const historyFile = (key = UUID) => at(`state/history/${key}.jsonl`);
const operations = (key = UUID): SyncOperation[] =>
    (existsSync(historyFile(key)) ? parseHistoryFile(readFileSync(historyFile(key), 'utf8')).operations : []);

// An idle RAID5 with its limits from the system, as the kernel shows it.
function idleArray(name = 'md0', uuid = UUID) {
    md(name, {
        uuid, sync_action: 'idle', sync_completed: 'none', sync_speed: 'none', mismatch_cnt: '0', degraded: '0',
        resync_start: 'none', sync_min: '0', sync_speed_min: '1000 (system)', sync_speed_max: '200000 (system)',
    });
}

beforeEach(() => {
    idleArray();
});

test('a check seen running, then idle: one finished operation with the kernel\'s figures', () => {
    run(1000);
    md('md0', { sync_action: 'check', sync_completed: '0 / 2000000', sync_speed: '5000' });
    run(1060);
    md('md0', { sync_completed: '1200000 / 2000000', sync_speed: '10000' });
    run(1120);
    expect(operations()).toEqual([]);
    md('md0', { sync_action: 'idle', sync_completed: 'none', mismatch_cnt: '128' });
    run(1180);
    expect(operations()).toEqual([{
        array: 'md0', uuid: UUID, type: 'check', start: 1060, end: 1180, seconds: 120, startKiB: 0, doneKiB: 1000000,
        sizeKiB: 1000000, avgKiBs: 8333, speedMinKiBs: 1000, speedMaxKiBs: 200000, limitsChanged: false,
        mismatches: 128, finished: true, intervalSeconds: 60,
    }]);
    // Nothing more is written while it stays idle; the last run is kept for the page.
    run(1240);
    expect(operations()).toHaveLength(1);
    expect(parseSyncHistory(new Map([['/raidtune-history/last-run', readFileSync(at('state/history/last-run'), 'utf8')]])).lastRun)
        .toBe(1240);
});

test('a check stopped half-way (idle written) is interrupted, with the figures of its last sample', () => {
    md('md0', { sync_action: 'check', sync_completed: '200000 / 2000000', sync_speed: '1000' });
    run(1000);
    md('md0', { sync_completed: '320000 / 2000000', sync_speed_max: '50000 (local)' });
    run(1060);
    // md keeps the checkpoint in sync_min, where the next check resumes.
    md('md0', { sync_action: 'idle', sync_completed: 'none', mismatch_cnt: '0', sync_min: '320000' });
    run(1120);
    expect(operations()).toEqual([expect.objectContaining({
        type: 'check', start: 1000, end: 1060, startKiB: 100000, doneKiB: 160000, sizeKiB: 1000000, avgKiBs: 1000,
        speedMaxKiBs: 50000, limitsChanged: true, mismatches: 0, finished: false,
    })]);
});

test('a check whose last sample was far from its end finished when md says so (sync_min back to 0)', () => {
    md('md0', { sync_action: 'check', sync_completed: '0 / 2000000', sync_speed: '1' });
    run(1000);
    md('md0', { sync_completed: '125000 / 2000000' });
    run(1060);
    md('md0', { sync_action: 'idle', sync_completed: 'none' });
    run(1120);
    expect(operations()).toEqual([expect.objectContaining({ type: 'check', finished: true, doneKiB: 1000000 })]);
});

test('without md\'s word (a reshape), the pace of the samples decides', () => {
    md('md0', { sync_action: 'reshape', sync_completed: '0 / 2000000', sync_speed: '1' });
    run(1000);
    md('md0', { sync_completed: '1000000 / 2000000' });
    run(1060);
    md('md0', { sync_action: 'idle', sync_completed: 'none' });
    run(1180);
    md('md0', { sync_action: 'reshape', sync_completed: '0 / 2000000' });
    run(1240);
    md('md0', { sync_completed: '100000 / 2000000' });
    run(1300);
    md('md0', { sync_action: 'idle', sync_completed: 'none' });
    run(1360);
    expect(operations().map(o => o.finished)).toEqual([false, true]);
});

test('a recovery seen once that left the array whole finished (md/degraded 0), though no pace was measured', () => {
    md('md0', { sync_action: 'recover', sync_completed: '10 / 2000000', sync_speed: '1', degraded: '1' });
    run(1000);
    md('md0', { sync_action: 'idle', sync_completed: 'none', degraded: '0' });
    run(1060);
    expect(operations()).toEqual([expect.objectContaining({ type: 'recover', finished: true, doneKiB: 1000000 })]);
});

test('a paused (frozen) sync is the same operation; an array that vanished interrupted it', () => {
    md('md0', { sync_action: 'resync', sync_completed: '100 / 2000000', sync_speed: '1' });
    run(1000);
    md('md0', { sync_action: 'frozen' });
    run(1060);
    md('md0', { sync_action: 'resync', sync_completed: '200 / 2000000' });
    run(1120);
    expect(operations()).toEqual([]);
    rmSync(at('sys/block/md0'), { recursive: true });
    run(1180);
    expect(operations()).toEqual([expect.objectContaining({
        type: 'resync', start: 1000, end: 1120, mismatches: null, finished: false,
    })]);
});

test('one file per array, named by md\'s uuid (by the array name without one); a bad uuid is not a file name', () => {
    idleArray('md1', '../../etc/x');
    for (const name of ['md0', 'md1']) md(name, { sync_action: 'check', sync_completed: '0 / 100', sync_speed: '1000' });
    run(1000);
    for (const name of ['md0', 'md1']) md(name, { sync_action: 'idle', sync_completed: 'none' });
    run(1060);
    expect(readdirSync(at('state/history')).sort()).toEqual([`${UUID}.jsonl`, 'last-run', 'md1.jsonl']);
    expect(operations('md1')[0]).toMatchObject({ array: 'md1', uuid: 'md1', finished: true });
    expect(statSync(historyFile()).mode & 0o777).toBe(0o644);
});

test('keeps the last N operations, newest last in the file', () => {
    for (let i = 0; i < 5; i++) {
        md('md0', { sync_action: 'check', sync_completed: '0 / 100', sync_speed: '1000' });
        run(1000 + i * 120);
        md('md0', { sync_action: 'idle', sync_completed: 'none', mismatch_cnt: String(i) });
        run(1060 + i * 120, 3);
    }
    expect(operations().map(o => o.mismatches)).toEqual([4, 3, 2]);
    expect(readdirSync(at('state/history')).filter(f => f.endsWith('.new'))).toEqual([]);
});

test('a state line it did not write is dropped, not trusted', () => {
    write(`state/history/${UUID}.running`, 'check md0 $(reboot) x');
    run(1000);
    expect(existsSync(at(`state/history/${UUID}.running`))).toBe(false);
    expect(operations()).toEqual([]);
});

test('samples without figures around a sync\'s start and end (md names it, sync_completed says none) keep the figures', () => {
    // md's sync_action names a sync while its "needed" bit is set, before the sync thread runs and
    // after it was reaped (a recovery), when sync_completed reads "none"; "delayed" while it waits
    // for another array on the same disks. A rebuild recorded on Linux 6.1 had no size that way.
    md('md0', { sync_action: 'resync', sync_completed: 'none', resync_start: '0', sync_speed: 'none' });
    run(1000);
    md('md0', { sync_completed: '400000 / 2000000', sync_speed: '10000' });
    run(1060);
    md('md0', { sync_completed: '1600000 / 2000000' });
    run(1120);
    md('md0', { sync_completed: 'delayed' });
    run(1180);
    md('md0', { sync_action: 'idle', sync_completed: 'none', resync_start: 'none' });
    run(1240);
    expect(operations()).toEqual([expect.objectContaining({
        type: 'resync', start: 1060, end: 1240, startKiB: 200000, doneKiB: 1000000, sizeKiB: 1000000,
        avgKiBs: 4444, finished: true,
    })]);
});
