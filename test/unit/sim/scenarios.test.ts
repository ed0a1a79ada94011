// SPDX-License-Identifier: LGPL-2.1-or-later
// The built-in scenarios, read through raidtune's own gather script, and scenario validation.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinScenarioNames, loadScenario, parseScenario, ScenarioError } from '../../../sim';
import { attr, FIXTURES, gather, md, progress, read, removeTempRoots, startHost, tee, tempRoot } from './simHelpers';

afterEach(removeTempRoots);

describe('built-in scenarios', () => {
    const small = builtinScenarioNames().filter(name => name !== 'many-arrays');

    test.each(small)('%s: raidtune reads it through its gather script', name => {
        const host = startHost(name);
        host.tick(5);
        const snapshot = gather(host);
        expect(snapshot.complete).toBe(true);
        expect(snapshot.missingRoots).toEqual([]);
        expect(snapshot.files.get('/proc/mdstat')).toBe(read(host, 'proc/mdstat'));
        expect(snapshot.files.get('/proc/sys/dev/raid/speed_limit_max')).toBe(read(host, 'proc/sys/dev/raid/speed_limit_max'));
        for (const array of host.state.arrays) {
            expect(snapshot.files.get(`/sys/block/${array.name}/md/array_state`)).toBe(read(host, md(array.name, 'array_state')));
            for (const member of array.members)
                expect(snapshot.files.has(`/sys/block/${array.name}/md/dev-${member.name}/state`)).toBe(true);
        }
        for (const disk of host.state.disks) expect(snapshot.files.has(`/sys/block/${disk.name}/queue/scheduler`)).toBe(true);
    });

    test('raid6-recovery: ~4000K/sec held at speed_limit_min, finish= about 22 hours; raising the minimum speeds it up', () => {
        const host = startHost('raid6-recovery');
        const start = progress(host, 'md0')!;
        expect(start.label).toBe('recovery');
        expect(start.speed).toBe(4000);
        expect(start.finishMin / 60).toBeCloseTo(22, 0);
        expect(read(host, 'proc/mdstat')).toContain('[5/4] [UUUU_]');
        host.tick(60);
        expect(Math.abs(progress(host, 'md0')!.speed - 4000)).toBeLessThanOrEqual(4000 * 0.03);

        tee(host, 'proc/sys/dev/raid/speed_limit_min', '50000');
        host.tick(60);
        const boosted = progress(host, 'md0')!;
        expect(Math.abs(boosted.speed - 50_000)).toBeLessThanOrEqual(50_000 * 0.03);
        expect(boosted.finishMin).toBeLessThan(120);
    });

    test('shared-disks: md1 waits with resync=DELAYED', () => {
        const host = startHost('shared-disks');
        expect(read(host, 'proc/mdstat')).toMatch(/^md1 : active raid1 sdb2\[1\] sda2\[0\]\n.*\n {6}\tresync=DELAYED\n {6}bitmap: /m);
        expect(progress(host, 'md0')!.label).toBe('resync');
    });

    test('raid5-reshape: a grow from 3 to 4 disks under way', () => {
        const host = startHost('raid5-reshape');
        expect(progress(host, 'md0')).toMatchObject({ label: 'reshape' });
        expect(read(host, 'proc/mdstat')).toContain('reshape = 23.');
        expect(attr(host, md('md0', 'raid_disks'))).toBe('4 (3)');
        expect(Number(attr(host, md('md0', 'reshape_position')))).toBeGreaterThan(0);
    });

    test('check-mismatches: a check that has found mismatches', () => {
        const host = startHost('check-mismatches');
        expect(attr(host, md('md0', 'sync_action'))).toBe('check');
        expect(Number(attr(host, md('md0', 'mismatch_cnt')))).toBeGreaterThan(0);
        expect(attr(host, md('md0', 'level'))).toBe('raid6');
    });

    test('degraded-failed: a faulty member without spare, and an inactive array', () => {
        const host = startHost('degraded-failed');
        const mdstat = read(host, 'proc/mdstat');
        expect(mdstat).toContain('md0 : active raid5 sdd1[3] sdc1[2](F) sdb1[1] sda1[0]\n');
        expect(mdstat).toContain('algorithm 2 [4/3] [UU_U]\n      \n');
        expect(mdstat).toMatch(/^md1 : inactive sdf1\[1\]\(S\)\n {6}\d+ blocks super 1\.2\n {7}\n/m);
        expect(attr(host, md('md0', 'dev-sdc1/state'))).toBe('faulty');
        expect(attr(host, md('md0', 'degraded'))).toBe('1');
        expect(attr(host, md('md1', 'array_state'))).toBe('inactive');
        expect(() => read(host, md('md1', 'sync_action'))).toThrow(/ENOENT/);
    });

    test('frozen: sync_action frozen and the tab-indented resync=PENDING', () => {
        const host = startHost('frozen');
        expect(attr(host, md('md0', 'sync_action'))).toBe('frozen');
        expect(read(host, 'proc/mdstat')).toContain('[2/2] [UU]\n      \tresync=PENDING\n');
    });

    test('empty: md loaded, no arrays, like the real kernel', () => {
        const host = startHost('empty');
        expect(read(host, 'proc/mdstat')).toBe(readFileSync(join(FIXTURES, '00-empty', 'mdstat'), 'utf8'));
    });

    test('many-arrays: 128 arrays of 16 members generate and tick', () => {
        const started = performance.now();
        const host = startHost('many-arrays');
        const created = performance.now();
        host.tick(1);
        const ticked = performance.now();
        host.tick(1);
        const second = performance.now();
        console.log(`many-arrays: created in ${(created - started).toFixed(0)} ms, ` +
            `first tick ${(ticked - created).toFixed(0)} ms, next tick ${(second - ticked).toFixed(0)} ms`);
        expect(host.state.arrays).toHaveLength(128);
        expect(host.state.arrays.every(a => a.members.length === 16)).toBe(true);
        const mdstat = read(host, 'proc/mdstat');
        expect(mdstat.match(/^md\d+ : active raid6/gm)).toHaveLength(128);
        for (const kind of ['recovery =', 'resync =', 'check =', 'resync=PENDING', '[16/15]']) expect(mdstat).toContain(kind);
        expect(read(host, 'proc/diskstats').trim().split('\n')).toHaveLength(2048 + 128);
    }, 120_000); // creating ~26000 files is file-system bound
});

describe('scenario validation', () => {
    const base = {
        name: 'bad',
        disks: [{ name: 'sda', sizeBytes: 2 ** 33 }, { name: 'sdb', sizeBytes: 2 ** 33, partitions: [{ number: 1 }] }],
    };
    const invalid = (extra: object) => () => parseScenario({ ...base, ...extra }, 'bad.json');

    test('names every problem with its place', () => {
        const twoProblems = invalid({ arrays: [{ name: 'md0', level: 'raid7', members: [], colour: 'red' }] });
        expect(twoProblems).toThrow(/\n {2}- arrays\[0\]\.level: expected one of linear, .*raid10, got "raid7"/);
        expect(twoProblems).toThrow(/\n {2}- arrays\[0\]\.colour: unknown field \(expected one of: name, level, /);
        expect(invalid({ jitter: 2 })).toThrow('jitter: expected a number >= 0 <= 0.5, got 2');
        expect(invalid({ arrays: [{ name: 'md0', level: 'raid1' }] })).toThrow('arrays[0].members: missing');
    });

    test('checks that members exist, are used once and fit their slots', () => {
        expect(invalid({ arrays: [{ name: 'md0', level: 'raid1', members: [{ device: 'sda' }, { device: 'sdz' }] }] }))
            .toThrow('arrays[0] (md0).members[1].device: no disk or partition named sdz');
        expect(invalid({ arrays: [{ name: 'md0', level: 'raid1', members: [{ device: 'sda' }, { device: 'sdb' }] }] }))
            .toThrow('sdb has partitions; use one of them');
        expect(invalid({
            arrays: [
                { name: 'md0', level: 'raid1', members: [{ device: 'sda' }] },
                { name: 'md1', level: 'raid1', members: [{ device: 'sda' }] },
            ],
        })).toThrow('sda is already a member of md0');
        expect(invalid({ arrays: [{ name: 'md0', level: 'raid1', raidDisks: 1, members: [{ device: 'sda' }, { device: 'sdb1' }] }] }))
            .toThrow('slot 1 is beyond raidDisks (1)');
    });

    test('checks that the sync described can happen', () => {
        expect(invalid({ arrays: [{ name: 'md0', level: 'raid0', members: [{ device: 'sda' }, { device: 'sdb1' }], sync: { action: 'resync', donePercent: 5 } }] }))
            .toThrow('raid0 never syncs');
        expect(invalid({ arrays: [{ name: 'md0', level: 'raid5', members: [{ device: 'sda' }, { device: 'sdb1' }], sync: { action: 'reshape', donePercent: 5 } }] }))
            .toThrow('reshape.fromRaidDisks: missing');
        expect(invalid({ arrays: [{ name: 'md0', level: 'raid1', members: [{ device: 'sda' }, { device: 'sdb1' }], sync: { action: 'recover', donePercent: 5 } }] }))
            .toThrow('a recovery needs a recovering or spare member');
        expect(invalid({ arrays: [{ name: 'md0', level: 'raid1', members: [{ device: 'sda' }], sync: { action: 'resync', donePercent: 5, doneKiB: 9 } }] }))
            .toThrow('give donePercent or doneKiB (one of them)');
    });

    test('files: bad JSON and unknown names are reported clearly', () => {
        const path = join(tempRoot(), 'broken.json');
        writeFileSync(path, '{ "name": ');
        expect(() => loadScenario(path)).toThrow(/broken\.json is invalid:\n {2}- not valid JSON/);
        expect(() => loadScenario('no-such-scenario')).toThrow(/not a built-in scenario \(built-in: raid1-healthy, /);
        expect(() => loadScenario(path)).toThrow(ScenarioError);
    });

    test('generated families continue the disk and md names', () => {
        const spec = parseScenario({
            name: 'gen',
            disks: [{ name: 'sdy', sizeBytes: 2 ** 33 }],
            arrays: [{ name: 'md3', level: 'raid1', members: [{ device: 'sdy' }] }],
            generate: [{ count: 2, members: 2, spares: 1, disk: { sizeBytes: 2 ** 33 }, array: { level: 'raid1' } }],
        }, 'gen');
        expect(spec.arrays!.map(a => [a.name, a.members.map(m => `${m.device}:${m.role}`).join(' ')])).toEqual([
            ['md3', 'sdy:undefined'],
            ['md4', 'sdz:in_sync sdaa:spare'],
            ['md5', 'sdab:in_sync sdac:spare'],
        ]);
    });
});
