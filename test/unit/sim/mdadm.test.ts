// SPDX-License-Identifier: LGPL-2.1-or-later
// The simulated mdadm: its command line parsed like mdadm 4.2's, its requests applied by the
// running simulator at the next tick with mdadm's and the kernel's refusals (messages and exit
// codes as checked on Linux 6.1 + mdadm 4.2), the tree showing the bitmap afterwards, and the
// wrapper that lets raidtune's `mdadm` config name it.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildModel } from '../../../src/md/model';
import { smallestBitmapChunkKiB } from '../../../src/md/tuning/bitmap';
import { createSimulatedHost, type SimulatedHost } from '../../../sim';
import { parseMdadmArgs, parseSizeSectors, type MdadmOutcome } from '../../../sim/mdadm/args';
import { runSimulatedMdadm } from '../../../sim/mdadm/client';
import { smallestChunkBytes } from '../../../sim/mdadm/grow';
import type { MdadmEvent } from '../../../sim/mdadm/inbox';
import { inboxDir } from '../../../sim/mdadm/protocol';
import { writeMdadmWrapper } from '../../../sim/mdadm/wrapper';
import type { ScenarioSpec } from '../../../sim/scenario/types';
import { attr, gather, md, oneArray, read, removeTempRoots, startHost, tee, tempRoot } from './simHelpers';

afterEach(removeTempRoots);

const MiB = 2 ** 20;
const TB4 = 4000787030016;

/** Runs the simulated mdadm against a host that is not ticking by itself: tick once while it waits. */
async function mdadm(host: SimulatedHost, ...argv: string[]): Promise<MdadmOutcome> {
    const answer = runSimulatedMdadm(argv, host.root, { pollMs: 1, timeoutMs: 2000 });
    host.tick(1); // the request was written before runSimulatedMdadm's first wait
    return answer;
}

const failed = (...lines: string[]) => ({ exitCode: 1, stdout: '', stderr: lines.map(l => `mdadm: ${l}\n`).join('') });
const OK = { exitCode: 0, stdout: '', stderr: '' };

/** One array on two 4 TB disks (like raid1-healthy, without the bitmap unless given). */
function mirror(array: Parameters<typeof oneArray>[0] = { level: 'raid1' }): ScenarioSpec {
    return oneArray(array, { diskSpec: { sizeBytes: TB4 } });
}

function bitmapFiles(host: SimulatedHost, name = 'md0') {
    const stanza = read(host, 'proc/mdstat').split('\n\n').find(s => s.includes(`${name} :`)) ?? '';
    return {
        location: attr(host, md(name, 'bitmap/location')),
        chunksize: attr(host, md(name, 'bitmap/chunksize')),
        policy: attr(host, md(name, 'consistency_policy')),
        mdstat: /bitmap: .*/.exec(stanza)?.[0] ?? null,
    };
}

describe('command line (mdadm 4.2 parsing)', () => {
    test.each([
        [['--grow', '/dev/md0', '--bitmap=internal', '--bitmap-chunk=64M'], 'internal', 64 * MiB],
        [['--grow', '/dev/md0', '--bitmap=none'], 'none', null],
        [['-G', '--bitmap', 'internal', '/dev/md12', '--bitmap-chunk', '128M'], 'internal', 128 * MiB],
        [['--grow', '/dev/md0', '-b', 'internal', '--bitmap-chunk=auto'], 'internal', null],
        [['--grow', '/dev/md0', '--bitmap=internal', '--bitmap-chunk=65536'], 'internal', 64 * MiB], // K when no suffix
        [['--grow', '/dev/md0', '--bitmap=internal', '--bitmap-chunk=4K'], 'internal', 4096],
        [['--grow', '/dev/md0', '--bitmap=internal', '--bitmap-chunk=1G'], 'internal', 1024 * MiB],
    ])('%j', (argv, bitmap, chunkBytes) => {
        const parsed = parseMdadmArgs(argv);
        expect('request' in parsed && parsed.request).toEqual(expect.objectContaining({ bitmap, chunkBytes }));
    });

    test('the device names the array', () => {
        expect(parseMdadmArgs(['--grow', '/dev/md12', '--bitmap=none'])).toEqual({
            request: { device: '/dev/md12', array: 'md12', bitmap: 'none', chunkBytes: null },
        });
    });

    test('powers of two only: "invalid bitmap chunksize", exit 2 (checked: 3M)', () => {
        for (const bad of ['3M', '0', '-4M', '64MB', '1.5M', 'lots', '']) {
            expect(parseMdadmArgs(['--grow', '/dev/md0', '--bitmap=internal', `--bitmap-chunk=${bad}`])).toEqual({
                refused: { exitCode: 2, stdout: '', stderr: `mdadm: invalid bitmap chunksize: ${bad}\n` },
            });
        }
    });

    test('parse_size: K is the default unit, sizes are counted in sectors', () => {
        expect(parseSizeSectors('1')).toBe(2);
        expect(parseSizeSectors('64M')).toBe(131072);
        expect(parseSizeSectors('2T')).toBe(2 * 2 * 1024 ** 3);
        expect(parseSizeSectors('0')).toBeNull();
    });

    test('getopt\'s words for a missing value, exit 2', () => {
        expect(parseMdadmArgs(['--grow', '/dev/md0', '--bitmap'])).toEqual({
            refused: { exitCode: 2, stdout: '', stderr: 'mdadm: option \'--bitmap\' requires an argument\nUsage: mdadm --help\n  for help\n' },
        });
    });

    test.each([
        [['--detail', '/dev/md0']],
        [['/dev/md0', '--re-add', '/dev/sde1']],
        [['/dev/md0', '--add-journal', '/dev/sde1']],
        [['/dev/md0']],
        [['/dev/md0', '--fail', 'sdc1']],
        [['--grow', '/dev/md0']],
        [['--grow', '/dev/md0', '--raid-devices=4']],
        [['--grow', '/dev/md0', '--bitmap=none', '--force']],
        [['--grow', '/dev/md0', '--bitmap=/var/tmp/md0.bitmap']],
        [['--grow', '/dev/md0', '--bitmap=clustered']],
        [['--grow', '--bitmap=none']],
        [['--grow', '/dev/md0', '/dev/md1', '--bitmap=none']],
        [['--grow', '/dev/sda', '--bitmap=none']],
        [[]],
    ])('what the simulation does not do is said so, exit 2: %j', argv => {
        const parsed = parseMdadmArgs(argv);
        expect('refused' in parsed && parsed.refused).toEqual(expect.objectContaining({ exitCode: 2, stderr: expect.stringMatching(/^mdadm \(simulated\): .* are simulated\n$/) }));
    });
});

describe('adding and removing on the running simulator', () => {
    test('raid1-healthy: remove, then add back with 128 MiB chunks; the tree shows both', async () => {
        const host = startHost('raid1-healthy');
        expect(bitmapFiles(host)).toEqual({ location: '+8', chunksize: String(64 * MiB), policy: 'bitmap', mdstat: expect.stringMatching(/65536KB chunk$/) });

        await expect(mdadm(host, '--grow', '/dev/md0', '--bitmap=none')).resolves.toEqual(OK);
        // md keeps reading the removed bitmap's chunk size (Linux 6.1, test/vm/arrayTuning.test.ts).
        expect(bitmapFiles(host)).toEqual({ location: 'none', chunksize: String(64 * MiB), policy: 'resync', mdstat: null });

        await expect(mdadm(host, '--grow', '/dev/md0', '--bitmap=internal', '--bitmap-chunk=128M')).resolves.toEqual(OK);
        // 3.64 TiB per member in 128 MiB chunks: 29808 chunks, 2048 counters per 4 KiB page.
        expect(bitmapFiles(host)).toEqual({ location: '+8', chunksize: String(128 * MiB), policy: 'bitmap', mdstat: 'bitmap: 0/15 pages [0KB], 131072KB chunk' });
    });

    test('without --bitmap-chunk mdadm chooses 64 MiB', async () => {
        const host = startHost(mirror());
        await expect(mdadm(host, '--grow', '/dev/md0', '--bitmap=internal')).resolves.toEqual(OK);
        expect(bitmapFiles(host).chunksize).toBe(String(64 * MiB));
    });

    test('twice: "bitmap already present" and "no bitmap found", exit 1 (checked)', async () => {
        const host = startHost('raid1-healthy');
        await expect(mdadm(host, '--grow', '/dev/md0', '--bitmap=internal')).resolves.toEqual(failed('bitmap already present on /dev/md0'));
        await mdadm(host, '--grow', '/dev/md0', '--bitmap=none');
        await expect(mdadm(host, '--grow', '/dev/md0', '--bitmap=none')).resolves.toEqual(failed('no bitmap found on /dev/md0'));
    });

    test('chunks too small for the bitmap space: "chunksize problem", exit 1 (checked: 4K)', async () => {
        const host = startHost(mirror());
        await expect(mdadm(host, '--grow', '/dev/md0', '--bitmap=internal', '--bitmap-chunk=4K')).resolves
            .toEqual(failed('failed to create internal bitmap - chunksize problem.'));
        // 4 TB members need 4 MiB chunks to fit 128 KiB of bitmap.
        await expect(mdadm(host, '--grow', '/dev/md0', '--bitmap=internal', '--bitmap-chunk=2M')).resolves
            .toEqual(failed('failed to create internal bitmap - chunksize problem.'));
        expect(bitmapFiles(host).location).toBe('none');
        await expect(mdadm(host, '--grow', '/dev/md0', '--bitmap=internal', '--bitmap-chunk=4M')).resolves.toEqual(OK);
    });

    test.each(['raid0', 'linear'] as const)('%s: "Bitmaps not meaningful with level", exit 1 (checked)', async level => {
        const host = startHost(oneArray({ level }));
        await expect(mdadm(host, '--grow', '/dev/md0', '--bitmap=internal')).resolves.toEqual(failed(`Bitmaps not meaningful with level ${level}`));
    });

    test('unknown and inactive arrays', async () => {
        const host = startHost('degraded-failed');
        await expect(mdadm(host, '--grow', '/dev/md9', '--bitmap=internal')).resolves.toEqual(failed('error opening /dev/md9: No such file or directory'));
        const inactive = host.state.arrays.find(a => a.baseState === 'inactive')!;
        await expect(mdadm(host, '--grow', `/dev/${inactive.name}`, '--bitmap=internal')).resolves
            .toEqual(failed(`cannot get array status for /dev/${inactive.name}`));
    });

    test('read-only arrays are refused', async () => {
        const host = startHost(mirror({ level: 'raid1', state: 'readonly', bitmap: { chunkKiB: 65536 } }));
        await expect(mdadm(host, '--grow', '/dev/md0', '--bitmap=none')).resolves.toEqual(failed('failed to remove internal bitmap.'));
    });
});

describe('a 7.x-like kernel (kernel.bitmapTypes): md/bitmap_type, bitmap/ only with a classic bitmap', () => {
    const NEWER = { bitmapTypes: ['bitmap', 'llbitmap'] as ('bitmap' | 'llbitmap')[] };
    const exists = (host: SimulatedHost, path: string) => existsSync(join(host.root, path));

    test('no bitmap: "[none] ..." and no bitmap/ folder; an added one brings it, a removal takes it away', async () => {
        const host = startHost(oneArray({ level: 'raid1' }, { diskSpec: { sizeBytes: TB4 }, kernel: NEWER }));
        expect(attr(host, md('md0', 'bitmap_type'))).toBe('[none] bitmap llbitmap ');
        expect(exists(host, md('md0', 'bitmap'))).toBe(false);

        await expect(mdadm(host, '--grow', '/dev/md0', '--bitmap=internal', '--bitmap-chunk=64M')).resolves.toEqual(OK);
        expect(attr(host, md('md0', 'bitmap_type'))).toBe('none [bitmap] llbitmap ');
        expect(bitmapFiles(host)).toEqual({ location: '+8', chunksize: String(64 * MiB), policy: 'bitmap', mdstat: expect.stringMatching(/65536KB chunk$/) });

        await expect(mdadm(host, '--grow', '/dev/md0', '--bitmap=none')).resolves.toEqual(OK);
        expect(attr(host, md('md0', 'bitmap_type'))).toBe('[none] bitmap llbitmap ');
        expect(exists(host, md('md0', 'bitmap'))).toBe(false);
    });

    test('newer-kernel\'s lockless bitmap: "[llbitmap]", no bitmap/ folder, and --grow changes nothing', async () => {
        const host = startHost('newer-kernel');
        expect(attr(host, md('md2', 'bitmap_type'))).toBe('none bitmap [llbitmap] ');
        expect(exists(host, md('md2', 'bitmap'))).toBe(false);
        await expect(mdadm(host, '--grow', '/dev/md2', '--bitmap=none')).resolves.toEqual(failed('failed to remove internal bitmap.'));
        await expect(mdadm(host, '--grow', '/dev/md2', '--bitmap=internal')).resolves.toEqual(failed('bitmap already present on /dev/md2'));
        expect(attr(host, md('md2', 'bitmap_type'))).toBe('none bitmap [llbitmap] ');
    });

    test('raidtune reads newer-kernel through its gather script: none, internal with its chunk, llbitmap', () => {
        const model = buildModel(gather(startHost('newer-kernel')), 0);
        expect(model.problems).toEqual([]);
        const bitmaps = model.arrays.map(a => [a.name, a.bitmap && [a.bitmap.kind, a.bitmap.chunkKiB]]);
        expect(Object.fromEntries(bitmaps)).toEqual({
            md0: null, md1: ['internal', 65536], md2: ['llbitmap', null],
        });
    });

    test('a lockless bitmap needs a kernel that lists it, and 1.2 metadata', () => {
        expect(() => startHost(oneArray({ level: 'raid1', bitmap: { kind: 'llbitmap', chunkKiB: 65536 } })))
            .toThrow(/llbitmap needs "llbitmap" in kernel.bitmapTypes/);
        expect(() => startHost(oneArray({ level: 'raid1', metadata: '1.0', bitmap: { kind: 'llbitmap', chunkKiB: 65536 } }, { kernel: NEWER })))
            .toThrow(/llbitmap needs 1.2 metadata/);
    });

    test('without bitmapTypes the kernel stays 6.1-like: no bitmap_type, bitmap/location "none"', () => {
        const host = startHost(mirror());
        expect(exists(host, md('md0', 'bitmap_type'))).toBe(false);
        expect(attr(host, md('md0', 'bitmap/location'))).toBe('none');
    });
});

describe('manage mode: --fail and --remove (mdadm 4.2 Manage_subdevs)', () => {
    test('parsed in order, each device with the operation before it', () => {
        expect(parseMdadmArgs(['/dev/md0', '--fail', '/dev/sdc1', '--remove', '/dev/sdc1'])).toEqual({
            request: { device: '/dev/md0', array: 'md0', operations: [{ operation: 'fail', member: 'sdc1' }, { operation: 'remove', member: 'sdc1' }] },
        });
        expect(parseMdadmArgs(['--manage', '/dev/md1', '-r', '/dev/sda1', '/dev/sdb1'])).toEqual({
            request: { device: '/dev/md1', array: 'md1', operations: [{ operation: 'remove', member: 'sda1' }, { operation: 'remove', member: 'sdb1' }] },
        });
    });

    const members = (host: SimulatedHost) => /^md0 : .*$/m.exec(read(host, 'proc/mdstat'))?.[0];

    test('degraded-failed: the faulty member is failed again and removed; the tree no longer lists it', async () => {
        const host = startHost('degraded-failed');
        expect(members(host)).toContain('sdc1[2](F)');
        await expect(mdadm(host, '/dev/md0', '--fail', '/dev/sdc1', '--remove', '/dev/sdc1')).resolves.toEqual({
            exitCode: 0, stdout: '', stderr: 'mdadm: set /dev/sdc1 faulty in /dev/md0\nmdadm: hot removed /dev/sdc1 from /dev/md0\n',
        });
        expect(members(host)).not.toContain('sdc1');
        expect(existsSync(join(host.root, md('md0', 'dev-sdc1')))).toBe(false);
        expect(attr(host, md('md0', 'degraded'))).toBe('1');
    });

    test('an active member cannot be removed before it failed; one more failure than the level survives is refused', async () => {
        const host = startHost('degraded-failed');
        await expect(mdadm(host, '/dev/md0', '--remove', '/dev/sda1')).resolves.toEqual(failed('hot remove failed for /dev/sda1: Device or resource busy'));
        await expect(mdadm(host, '/dev/md0', '--fail', '/dev/sda1')).resolves.toEqual(failed('set device faulty failed for /dev/sda1:  Device or resource busy'));
        expect(attr(host, md('md0', 'dev-sda1/state'))).toBe('in_sync');
        await expect(mdadm(host, '/dev/md0', '--remove', '/dev/sde1')).resolves.toEqual(failed('hot remove failed for /dev/sde1: No such device or address'));
        await expect(mdadm(host, '/dev/md1', '--fail', '/dev/sdf1')).resolves.toEqual(failed('Cannot get array info for /dev/md1'));
    });

    test('a member of a healthy mirror fails: it leaves its slot and the array is degraded', async () => {
        const host = startHost(mirror());
        await expect(mdadm(host, '/dev/md0', '--fail', '/dev/sdb')).resolves.toEqual({ exitCode: 0, stdout: '', stderr: 'mdadm: set /dev/sdb faulty in /dev/md0\n' });
        expect(attr(host, md('md0', 'dev-sdb/state'))).toBe('faulty');
        expect(attr(host, md('md0', 'dev-sdb/slot'))).toBe('none');
        expect(attr(host, md('md0', 'degraded'))).toBe('1');
    });
});

describe('any sync makes md refuse (checked: resync, recovery, check, even frozen)', () => {
    const busy = failed('Cannot add bitmap while array is resyncing or reshaping etc.', 'failed to set internal bitmap.');

    test('a running resync: adding and removing fail, nothing changes', async () => {
        const host = startHost(mirror({ level: 'raid1', sync: { action: 'resync', donePercent: 10 } }));
        await expect(mdadm(host, '--grow', '/dev/md0', '--bitmap=internal', '--bitmap-chunk=64M')).resolves.toEqual(busy);
        expect(bitmapFiles(host).location).toBe('none');
        const withBitmap = startHost(mirror({ level: 'raid1', bitmap: { chunkKiB: 65536 }, sync: { action: 'recover', donePercent: 10 }, members: [{ device: 'sda' }, { device: 'sdb', role: 'recovering' }] }));
        await expect(mdadm(withBitmap, '--grow', '/dev/md0', '--bitmap=none')).resolves.toEqual(failed('failed to remove internal bitmap.'));
        expect(bitmapFiles(withBitmap).location).toBe('+8');
    });

    test('a resync waiting for shared disks (DELAYED)', async () => {
        const host = startHost('shared-disks');
        expect(attr(host, md('md1', 'sync_completed'))).toBe('delayed');
        await expect(mdadm(host, '--grow', '/dev/md1', '--bitmap=none')).resolves.toEqual(failed('failed to remove internal bitmap.'));
    });

    test('a check, then frozen, then idle again', async () => {
        const host = startHost(mirror());
        tee(host, md('md0', 'sync_action'), 'check');
        host.tick(1);
        await expect(mdadm(host, '--grow', '/dev/md0', '--bitmap=internal')).resolves.toEqual(busy);
        tee(host, md('md0', 'sync_action'), 'frozen');
        host.tick(1);
        expect(attr(host, md('md0', 'sync_action'))).toBe('frozen');
        await expect(mdadm(host, '--grow', '/dev/md0', '--bitmap=internal')).resolves.toEqual(busy);
        tee(host, md('md0', 'sync_action'), 'idle');
        await expect(mdadm(host, '--grow', '/dev/md0', '--bitmap=internal')).resolves.toEqual(OK); // same tick: the write goes first
    });
});

describe('talking to the simulator', () => {
    test('requests are applied at the next tick, and reported to onMdadm', async () => {
        const events: MdadmEvent[] = [];
        const host = createSimulatedHost('raid1-healthy', tempRoot(), { onMdadm: event => events.push(event) });
        const answer = runSimulatedMdadm(['--grow', '/dev/md0', '--bitmap=none'], host.root, { pollMs: 1 });
        expect(bitmapFiles(host).location).toBe('+8'); // not before the tick
        host.tick(1);
        await expect(answer).resolves.toEqual(OK);
        expect(events).toEqual([{ request: { device: '/dev/md0', array: 'md0', bitmap: 'none', chunkBytes: null }, outcome: OK }]);
        expect(readdirSync(inboxDir(host.root))).toEqual([]); // nothing left behind
    });

    test('no simulator answering: a clear failure, and the request is withdrawn', async () => {
        const host = startHost('raid1-healthy');
        const outcome = await runSimulatedMdadm(['--grow', '/dev/md0', '--bitmap=none'], host.root, { pollMs: 1, timeoutMs: 50 });
        expect(outcome).toEqual({ exitCode: 1, stdout: '', stderr: expect.stringMatching(/did not answer \(is mdsim still running\?\)/) });
        expect(readdirSync(inboxDir(host.root))).toEqual([]);
        host.tick(1);
        expect(bitmapFiles(host).location).toBe('+8');
    });

    test('no simulated host at the root, or no root at all', async () => {
        await expect(runSimulatedMdadm(['--grow', '/dev/md0', '--bitmap=none'], tempRoot())).resolves
            .toEqual(expect.objectContaining({ exitCode: 1, stderr: expect.stringMatching(/^mdadm \(simulated\): no simulated md host at /) }));
        await expect(runSimulatedMdadm(['--grow', '/dev/md0', '--bitmap=none'], undefined)).resolves
            .toEqual(expect.objectContaining({ exitCode: 1, stderr: expect.stringMatching(/MDSIM_ROOT is not set/) }));
        // Parse errors need no simulator, like mdadm's own.
        await expect(runSimulatedMdadm(['--grow', '/dev/md0', '--bitmap=internal', '--bitmap-chunk=3M'], undefined)).resolves
            .toEqual({ exitCode: 2, stdout: '', stderr: 'mdadm: invalid bitmap chunksize: 3M\n' });
    });

    test('an unreadable request is answered, not applied', () => {
        const host = startHost('raid1-healthy');
        writeFileSync(join(inboxDir(host.root), '1-junk.request'), '{"device": 3}');
        host.tick(1);
        expect(JSON.parse(read(host, '.mdadm/1-junk.answer'))).toEqual(expect.objectContaining({ exitCode: 1 }));
        expect(bitmapFiles(host).location).toBe('+8');
    });

    test('a new simulator on the same root drops old requests', () => {
        const root = tempRoot();
        createSimulatedHost('raid1-healthy', root).close();
        writeFileSync(join(inboxDir(root), '1-old.request'), JSON.stringify({ device: '/dev/md0', array: 'md0', bitmap: 'none', chunkBytes: null }));
        const host = createSimulatedHost('raid1-healthy', root);
        host.tick(1);
        expect(bitmapFiles(host).location).toBe('+8');
        expect(existsSync(join(inboxDir(root), '1-old.answer'))).toBe(false);
    });
});

describe('the wrapper raidtune\'s mdadm config points at', () => {
    test('runs the program with MDSIM_ROOT and the arguments untouched, whatever the quoting', () => {
        const dir = tempRoot();
        const program = join(dir, 'echo.mjs');
        writeFileSync(program, 'console.log(JSON.stringify([process.env.MDSIM_ROOT, ...process.argv.slice(2)]));\n');
        const root = join(dir, "it's a root");
        const wrapper = join(dir, 'mdadm');
        writeMdadmWrapper({ path: wrapper, root, program });
        expect(statSync(wrapper).mode & 0o777).toBe(0o755);
        const output = execFileSync(wrapper, ['--grow', '/dev/md0', '--bitmap=none', 'two words', '$HOME'], { env: {} }).toString();
        expect(JSON.parse(output)).toEqual([root, '--grow', '/dev/md0', '--bitmap=none', 'two words', '$HOME']);
    });
});

describe('raidtune and the simulated mdadm agree on the smallest chunk', () => {
    test.each([64 * 2 ** 30, 500 * 2 ** 30, 2e12, TB4, 8e12, 16e12, 20e12])('members of %d bytes', sizeBytes => {
        const host = startHost(oneArray({ level: 'raid1' }, { diskSpec: { sizeBytes } }));
        const array = host.state.arrays[0];
        expect(smallestBitmapChunkKiB(array.componentSectors / 2, '1.2') * 1024).toBe(smallestChunkBytes(array));
    });
});
