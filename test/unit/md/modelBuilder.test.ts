// SPDX-License-Identifier: LGPL-2.1-or-later
// The refresh loop's incremental parse and build (src/md/modelBuilder.ts) against the plain ones:
// refresh after refresh, on the simulated host read by the real gather script, both must give the
// same model, whatever changed in between (progress, a frozen sync, a limit, a disk's scheduler,
// processes coming and going, a whole different host).

import { buildModel } from '../../../src/md/model';
import type { HostModel } from '../../../src/md/modelTypes';
import { FULL_READ_EVERY, ModelBuilder } from '../../../src/md/modelBuilder';
import { siblingArrays } from '../../../src/md/diagnosis/samples';
import { GatherParser, parseGatherOutput } from '../../../src/md/snapshot';
import { builtinScenarioNames } from '../../../sim';
import { gatherOutput, removeTempRoots, startHost, tee } from '../sim/simHelpers';

afterEach(removeTempRoots);

/** Feeds the same outputs to a ModelBuilder and to parseGatherOutput + buildModel; compares each model. */
function compareRefreshes(outputs: Iterable<string>): HostModel[] {
    const builder = new ModelBuilder();
    let plain: HostModel | null = null;
    const kept: HostModel[] = [];
    let at = 0;
    for (const output of outputs) {
        at += 2000;
        plain = buildModel(parseGatherOutput(output), at, plain);
        const incremental = builder.build(builder.parse(output), at);
        expect(incremental).toEqual(plain);
        kept.push(incremental);
    }
    return kept;
}

/** Adds a root's section before the end marker, as the gather script prints the state folders. */
function withSection(output: string, root: string, records: string[]): string {
    return output.replace('@@end\n', [`@@root ${root}`, ...records, '@@end', ''].join('\n'));
}

/** Adds /proc/PID/comm records: programs that come and go between two refreshes. */
function withProcesses(output: string, processes: [pid: number, name: string][]): string {
    return output.replace('@@root sys\n', `${processes.map(([pid, name]) => `${pid}/comm:${name}\n`).join('')}@@root sys\n`);
}

describe('incremental refresh gives the same model as a full one', () => {
    const small = builtinScenarioNames().filter(name => name !== 'many-arrays');

    test.each(small)('%s, while it runs and is changed', name => {
        const host = startHost(name);
        const array = host.state.arrays[0]?.name;
        const disk = host.state.disks[0]?.name;
        function* refreshes(): Generator<string> {
            for (let i = 0; i < 12; i++) {
                if (array && i === 3) tee(host, `sys/block/${array}/md/sync_action`, 'frozen');
                if (array && i === 5) tee(host, `sys/block/${array}/md/sync_action`, 'idle');
                if (array && i === 7) tee(host, `sys/block/${array}/md/sync_speed_max`, '12345');
                if (disk && i === 8) tee(host, `sys/block/${disk}/queue/scheduler`, 'none');
                if (i === 9) tee(host, 'proc/sys/dev/raid/speed_limit_min', '7000');
                host.tick(i % 4 === 0 ? 0 : 30);
                const output = gatherOutput(host);
                yield i % 3 === 0 ? withProcesses(output, [[100 + i, 'ext4lazyinit'], [200, 'updatedb']]) : output;
            }
        }
        const models = compareRefreshes(refreshes());
        expect(models.length).toBe(12);
    });

    test('the host changes under it: other arrays, then none, then back; state folders come and go', () => {
        const a = startHost('shared-disks');
        const b = startHost('slow-rebuilds');
        const empty = startHost('empty');
        const journal = '{"version":1,"entries":[]}';
        compareRefreshes([
            gatherOutput(a),
            withSection(gatherOutput(a), 'raidtune-state', [`restore.json:${journal}`]),
            gatherOutput(b),
            gatherOutput(b),
            gatherOutput(empty),
            gatherOutput(a).replace('@@root sys\n', '@@missing sys\n').replace(/^block\/.*\n/gm, ''),
            gatherOutput(a),
            gatherOutput(a).slice(0, 5000),
            gatherOutput(a),
        ]);
    });

    test('many-arrays: 128 arrays, idle ones reused as the same objects', () => {
        const host = startHost('many-arrays');
        const outputs = [0, 2, 2].map(seconds => {
            host.tick(seconds);
            return gatherOutput(host);
        });
        const [, second, third] = compareRefreshes(outputs);
        // What a fast read leaves out is most of the bytes here: 2048 disks' and members' settings.
        expect(gatherOutput(host, true).length).toBeLessThan(outputs[2].length / 3);
        const idle = third.arrays.filter(array => array.sync === null);
        expect(idle.length).toBeGreaterThan(90);
        for (const array of idle) expect(array).toBe(second.arrays.find(a => a.name === array.name));
        const syncing = third.arrays.filter(array => array.sync?.runState === 'running');
        expect(syncing.length).toBeGreaterThan(10);
        for (const array of syncing) expect(array).not.toBe(second.arrays.find(a => a.name === array.name));
    });
});

describe('fast reads: only what a sync changes, the rest reused from the last full read', () => {
    test.each(['shared-disks', 'check-mismatches', 'raid5-reshape'])('%s: the same model as from full reads', name => {
        const host = startHost(name);
        host.tick(1);
        const first = gatherOutput(host);
        const builder = new ModelBuilder();
        builder.build(builder.parse(first), 2000);
        const disks = builder.diskstatsFilter();
        host.tick(20);
        const [full, fast] = [gatherOutput(host), gatherOutput(host, true, disks)];
        expect(fast.length).toBeLessThan(full.length);
        expect(fast).toContain('@@reused sys settings\n');
        expect(fast).not.toContain('/queue/scheduler:');
        const plain = buildModel(parseGatherOutput(full), 4000, buildModel(parseGatherOutput(first), 2000));
        const fromFast = builder.build(builder.parse(fast), 4000);
        const running = fromFast.arrays.filter(a => a.sync?.runState === 'running');
        expect(running.length).toBeGreaterThan(0);
        // Only the counters of the running syncs' member disks and of the other arrays on those disks
        // are read (all the diagnosis needs).
        const read = [...new Set(running.flatMap(a => [...a.members.map(m => m.disk),
            ...siblingArrays(a, fromFast.arrays)]))].sort();
        expect(disks.split('|').sort()).toEqual(read);
        expect([...fromFast.diskStats.keys()].sort()).toEqual(read);
        for (const disk of read) expect(fromFast.diskStats.get(disk)).toEqual(plain.diskStats.get(disk));
        expect({ ...fromFast, diskStats: null }).toEqual({ ...plain, diskStats: null });
    });

    test('RHEL\'s layout: the counters of the arrays on other partitions of the rebuilding array\'s disks too', () => {
        const host = startHost('rhel-layout');
        const builder = new ModelBuilder();
        builder.build(builder.parse(gatherOutput(host)), 0);
        expect(builder.diskstatsFilter().split('|').sort()).toEqual(['md0', 'md1', 'sda', 'sdb', 'sdc', 'sdd']);
    });

    test('a disk name that is not a plain kernel name reads every diskstats line rather than go into the pattern', () => {
        const host = startHost('raid6-recovery');
        const builder = new ModelBuilder();
        builder.build(builder.parse(gatherOutput(host)), 0);
        expect(builder.diskstatsFilter()).toMatch(/^sd[a-z](\|sd[a-z])+$/);
        const odd = gatherOutput(host).replace(/\bsdb/g, 'sd.b');
        const other = new ModelBuilder();
        other.build(other.parse(odd), 0);
        expect(other.diskstatsFilter()).toBe('');
    });

    test('a full read first, then fast ones while something syncs, a full one every FULL_READ_EVERY reads and after a change', () => {
        const host = startHost('raid6-recovery');
        const builder = new ModelBuilder();
        const refresh = () => {
            const full = builder.fullReadWanted();
            host.tick(2);
            builder.build(builder.parse(gatherOutput(host, !full)), 0);
            return full ? 'full' : 'fast';
        };
        const kinds = Array.from({ length: 2 * FULL_READ_EVERY }, refresh);
        expect(kinds).toEqual(Array.from({ length: 2 }, () => ['full', ...Array(FULL_READ_EVERY - 1).fill('fast')]).flat());
        builder.requestFullRead();
        expect(builder.fullReadPending()).toBe(true);
        expect(refresh()).toBe('full');
        expect(builder.fullReadPending()).toBe(false);
        expect(refresh()).toBe('fast');
    });

    test('a change made while a full read is under way: that read does not count, the next is full', () => {
        const host = startHost('raid6-recovery');
        const builder = new ModelBuilder();
        const disk = builder.build(builder.parse(gatherOutput(host)), 0).arrays[0].members[0].disk;
        expect(builder.fullReadWanted()).toBe(false);
        builder.requestFullRead();
        expect(builder.fullReadWanted()).toBe(true);
        const before = gatherOutput(host);
        // Written (a new scheduler resets nr_requests) after the host answered that read.
        tee(host, `sys/block/${disk}/queue/nr_requests`, '7');
        builder.requestFullRead();
        expect(builder.build(builder.parse(before), 2000).disks.get(disk)?.nrRequests).not.toBe(7);
        expect(builder.fullReadWanted()).toBe(true);
        expect(builder.build(builder.parse(gatherOutput(host)), 4000).disks.get(disk)?.nrRequests).toBe(7);
        expect(builder.fullReadWanted()).toBe(false);
    });

    test('a fast read that shows a member changed asks for a full read at once', () => {
        const host = startHost('raid6-recovery');
        const builder = new ModelBuilder();
        builder.build(builder.parse(gatherOutput(host)), 0);
        host.tick(2);
        builder.build(builder.parse(gatherOutput(host, true)), 2000);
        expect(builder.fullReadPending()).toBe(false);
        const failed = gatherOutput(host, true).replace(/^(mdstat:md0 : .*?\bsd[a-z]+\d*\[\d+\])/m, '$1(F)');
        expect(failed).toContain('(F)');
        builder.build(builder.parse(failed), 4000);
        expect(builder.fullReadPending()).toBe(true);
        expect(builder.fullReadWanted()).toBe(true);
    });

    // An array stopped between two reads while it synced (errors.test.ts): its level and other
    // settings come from the last full read, so only what every read takes can tell it is gone.
    test('a fast read where an array\'s sysfs entry is gone: the note at once, and a full read next', () => {
        const host = startHost('raid6-recovery');
        const builder = new ModelBuilder();
        builder.build(builder.parse(gatherOutput(host)), 0);
        host.tick(2);
        const gone = gatherOutput(host, true).replace(/^block\/md0\/md\/.*\n/gm, '');
        expect(gone).toContain('@@reused sys settings');
        const model = builder.build(builder.parse(gone), 2000);
        expect(model.problems).toContain('md0: listed in /proc/mdstat but its sysfs entry is gone (stopped meanwhile?).');
        expect(builder.fullReadPending()).toBe(true);
        expect(builder.fullReadWanted()).toBe(true);
    });

    test('nothing syncing: every read is full', () => {
        const host = startHost('raid1-healthy');
        const builder = new ModelBuilder();
        for (let i = 0; i < 3; i++) {
            expect(builder.fullReadWanted()).toBe(true);
            builder.build(builder.parse(gatherOutput(host)), i * 10000);
        }
    });
});

describe('GatherParser: what changed since its last parse', () => {
    const first = '@@root proc\nmdstat:a\nmdstat:b\nuptime:1\n@@root sys\nblock/md0/md/level:raid1\nblock/md0/md/degraded:0\n@@end\n';

    test('the first parse changes everything: there is no "since"', () => {
        const parser = new GatherParser();
        const snapshot = parser.parse(first);
        expect(snapshot.changed).toBeUndefined();
        expect(snapshot.sysPaths).toEqual(['/sys/block/md0/md/level', '/sys/block/md0/md/degraded']);
    });

    test('one changed line: that path, and the same path list', () => {
        const parser = new GatherParser();
        const before = parser.parse(first);
        const paths = before.sysPaths;
        const after = parser.parse(first.replace('degraded:0', 'degraded:1'));
        expect(after.changed).toEqual({ since: before.id, paths: new Set(['/sys/block/md0/md/degraded']) });
        expect(after.files.get('/sys/block/md0/md/degraded')).toBe('1\n');
        expect(after.sysPaths).toBe(paths);
    });

    test('a changed line of a file with several lines: its root read again, all its paths listed', () => {
        const parser = new GatherParser();
        parser.parse(first);
        const after = parser.parse(first.replace('mdstat:b', 'mdstat:c'));
        expect(after.changed!.paths).toEqual(new Set(['/proc/mdstat', '/proc/uptime']));
        expect(after.files.get('/proc/mdstat')).toBe('a\nc\n');
    });

    test('a path gone and one added: both listed, the gone one removed', () => {
        const parser = new GatherParser();
        const before = parser.parse(first);
        const after = parser.parse(first.replace('block/md0/md/degraded:0', 'block/md0/md/layout:2'));
        expect(after.changed!.paths).toEqual(new Set(['/sys/block/md0/md/level', '/sys/block/md0/md/degraded', '/sys/block/md0/md/layout']));
        expect(after.files.has('/sys/block/md0/md/degraded')).toBe(false);
        expect(after.files.get('/sys/block/md0/md/layout')).toBe('2\n');
        expect(after.sysPaths).not.toBe(before.sysPaths);
    });

    test('a root missing now: its files are gone', () => {
        const parser = new GatherParser();
        parser.parse(first);
        const after = parser.parse('@@root proc\nmdstat:a\nmdstat:b\nuptime:1\n@@missing sys\n@@end\n');
        expect(after.missingRoots).toEqual(['sys']);
        expect([...after.files.keys()]).toEqual(['/proc/mdstat', '/proc/uptime']);
        expect(after.changed!.paths).toEqual(new Set(['/sys/block/md0/md/level', '/sys/block/md0/md/degraded']));
    });

    test('a reused section keeps its files, paths and path list; the others are updated', () => {
        const parser = new GatherParser();
        const full = `${first.replace('@@end\n', '')}@@root sys settings\nblock/sda/queue/nr_requests:64\n@@end\n`;
        const before = parser.parse(full);
        const fast = `${first.replace('degraded:0', 'degraded:1').replace('@@end\n', '')}@@reused sys settings\n@@end\n`;
        const after = parser.parse(fast);
        expect(after.reusedSections).toEqual(['sys settings']);
        expect(after.files.get('/sys/block/sda/queue/nr_requests')).toBe('64\n');
        expect(after.changed!.paths).toEqual(new Set(['/sys/block/md0/md/degraded']));
        expect(after.sysPaths).toBe(before.sysPaths);
        expect(after.sysPaths).toEqual(['/sys/block/md0/md/level', '/sys/block/md0/md/degraded', '/sys/block/sda/queue/nr_requests']);
    });

    test('nothing changed: nothing listed, and the files are those of a fresh parse', () => {
        const parser = new GatherParser();
        parser.parse(first);
        const after = parser.parse(first);
        expect(after.changed!.paths.size).toBe(0);
        expect(after.files).toEqual(parseGatherOutput(first).files);
    });
});
