// SPDX-License-Identifier: LGPL-2.1-or-later
// Runs the real gather script with the real sh and grep over real-kernel captures laid out as
// directory trees, and checks that what comes back is exactly what the kernel showed.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARRAY_ATTRIBUTES, GATHER_SCRIPT, MEMBER_ATTRIBUTES } from '../../../src/host/gatherScript';
import { filesUnder, GatherParser, parseGatherOutput } from '../../../src/md/snapshot';
import { HISTORY_ROOT, parseSyncHistory } from '../../../src/md/history';
import { CAPTURES, loadCaptureFiles, writeTree } from '../helpers/realKernelCapture';
import { MODULES_LOAD_SNAPSHOT_PATH, SYSCTL_SNAPSHOT_PATH, UDEV_SNAPSHOT_PATH } from '../../../src/md/tuning/keptFiles';

function gather(procRoot: string, sysRoot: string, ...extra: string[]): string {
    return execFileSync('sh', ['-c', GATHER_SCRIPT, 'raidtune-gather', procRoot, sysRoot, ...extra],
        { encoding: 'utf8', env: { LC_ALL: 'C', PATH: process.env.PATH } });
}

describe('gather script', () => {
    let root: string;
    beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'raidtune-gather-')); });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    const captures = readdirSync(CAPTURES).filter(name => existsSync(join(CAPTURES, name, 'sysfs.txt')));

    test.each(captures)('reads every wanted file of capture %s exactly', name => {
        const files = loadCaptureFiles(name);
        writeTree(root, files);
        const snapshot = parseGatherOutput(gather(join(root, 'proc'), join(root, 'sys')));

        expect(snapshot.complete).toBe(true);
        expect(snapshot.missingRoots).toEqual([]);
        const wanted = (path: string) =>
            path === '/proc/mdstat' || path.startsWith('/proc/sys/dev/raid/') ||
            ARRAY_ATTRIBUTES.some(a => new RegExp(`^/sys/block/md[^/]+/md/${a}$`).test(path)) ||
            MEMBER_ATTRIBUTES.some(a => new RegExp(`^/sys/block/md[^/]+/md/dev-[^/]+/${a}$`).test(path));
        for (const [path, content] of files) {
            if (!wanted(path) || content.trim() === '') continue;
            expect([path, snapshot.files.get(path)]).toEqual([path, content]);
        }
        expect(snapshot.files.get('/proc/mdstat')).toBe(files.get('/proc/mdstat'));
    });

    test('keeps multi-line files and blank lines intact', () => {
        writeTree(root, new Map([['/proc/mdstat', 'Personalities : [raid1]\n\nunused devices: <none>\n']]));
        mkdirSync(join(root, 'sys'));
        const snapshot = parseGatherOutput(gather(join(root, 'proc'), join(root, 'sys')));
        expect(snapshot.files.get('/proc/mdstat')).toBe('Personalities : [raid1]\n\nunused devices: <none>\n');
    });

    test('reports the page size only when asked', () => {
        mkdirSync(join(root, 'proc'));
        mkdirSync(join(root, 'sys'));
        expect(parseGatherOutput(gather(join(root, 'proc'), join(root, 'sys'))).pageSize).toBeNull();
        const pageSize = Number(execFileSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }));
        expect(parseGatherOutput(gather(join(root, 'proc'), join(root, 'sys'), 'pagesize')).pageSize).toBe(pageSize);
    });

    test('a fast read takes the uptime and the named disks\' diskstats lines, a full read every line', () => {
        const diskstats = ['   8       0 sda 10 0 80 5 20 0 160 9 0 12 14 0 0 0 0 0 0',
            '   8      16 sdb 11 0 88 6 21 0 168 9 0 13 15 0 0 0 0 0 0',
            '   9       0 md0 30 0 240 0 40 0 320 0 0 0 0 0 0 0 0 0 0', ''].join('\n');
        writeTree(root, new Map([['/proc/uptime', '259200.51 414720.82\n'], ['/proc/diskstats', diskstats]]));
        mkdirSync(join(root, 'sys'));
        const read = (...extra: string[]) => parseGatherOutput(gather(join(root, 'proc'), join(root, 'sys'), ...extra)).files;
        const fast = read('', '', '', '', '', 'fast', 'sdb|md0');
        expect(fast.get('/proc/uptime')).toBe('259200.51 414720.82\n');
        expect(fast.get('/proc/diskstats')).toBe(diskstats.split('\n').slice(1).join('\n'));
        const full = read();
        expect([full.get('/proc/uptime'), full.get('/proc/diskstats')]).toEqual(['259200.51 414720.82\n', diskstats]);
    });

    test('the uptime that dates the disks\' counters is read by the same grep as they are, at fast and full reads', () => {
        // A grep that notes its arguments, then is the real one.
        const bin = join(root, 'bin');
        mkdirSync(bin);
        const log = join(root, 'grep.log');
        const realGrep = execFileSync('sh', ['-c', 'command -v grep'], { encoding: 'utf8' }).trim();
        writeFileSync(join(bin, 'grep'), `#!/bin/sh\necho "$*" >> ${log}\nexec ${realGrep} "$@"\n`, { mode: 0o755 });
        writeTree(root, new Map([['/proc/uptime', '1.00 2.00\n'], ['/proc/diskstats', '   8       0 sda 1 0 8 1 0 0 0 0 0 1 1\n']]));
        mkdirSync(join(root, 'sys'));
        for (const extra of [['', '', '', '', '', 'fast', 'sda'], []]) {
            rmSync(log, { force: true });
            execFileSync('sh', ['-c', GATHER_SCRIPT, 'raidtune-gather', join(root, 'proc'), join(root, 'sys'), ...extra],
                { encoding: 'utf8', env: { LC_ALL: 'C', PATH: `${bin}:${process.env.PATH}` } });
            const greps = readFileSync(log, 'utf8').trim().split('\n');
            expect(greps.filter(args => /(^| )uptime( |$)/.test(args))).toEqual(greps.filter(args => / diskstats$/.test(args)));
            expect(greps.filter(args => / diskstats$/.test(args))).toHaveLength(1);
        }
    });


    test('reads the restore journal from the state folder', () => {
        mkdirSync(join(root, 'proc'));
        mkdirSync(join(root, 'sys'));
        writeTree(root, new Map([['/state/restore.json', '{"version":1}\n']]));
        const snapshot = parseGatherOutput(gather(join(root, 'proc'), join(root, 'sys'), '', join(root, 'state')));
        expect(snapshot.files.get('/raidtune-state/restore.json')).toBe('{"version":1}\n');
    });

    test('reads the sync history at full reads; a fast read reuses the last one', () => {
        mkdirSync(join(root, 'proc'));
        mkdirSync(join(root, 'sys'));
        const line = '{"v":1,"array":"md0"}\n';
        writeTree(root, new Map([['/state/history/abc.jsonl', line], ['/state/history/last-run', '1180\n'],
            ['/state/history/abc.running', 'check md0\n']]));
        const parser = new GatherParser();
        const full = parser.parse(gather(join(root, 'proc'), join(root, 'sys'), '', join(root, 'state')));
        expect(parseSyncHistory(filesUnder(full, HISTORY_ROOT)).lastRun).toBe(1180);
        expect([...filesUnder(full, HISTORY_ROOT)]).toEqual([
            ['/raidtune-history/abc.jsonl', line], ['/raidtune-history/last-run', '1180\n'],
        ]);
        rmSync(join(root, 'state/history'), { recursive: true });
        const fast = parser.parse(gather(join(root, 'proc'), join(root, 'sys'), '', join(root, 'state'), '', '', '', 'fast'));
        expect(fast.reusedSections).toContain(HISTORY_ROOT);
        expect(fast.files.get('/raidtune-history/abc.jsonl')).toBe(line);
    });

    test('reads the settings kept for reboot from the sysctl.d and udev rules folders, in the same spawn', () => {
        mkdirSync(join(root, 'proc'));
        mkdirSync(join(root, 'sys'));
        writeTree(root, new Map([
            ['/sysctl.d/90-raidtune.conf', '# raidtune\ndev.raid.speed_limit_min = 50000\n'],
            ['/sysctl.d/99-other.conf', 'vm.swappiness = 1\n'],
            ['/rules.d/64-raidtune.rules', 'ATTR{md/stripe_cache_size}="8192"\n'],
        ]));
        const snapshot = parseGatherOutput(gather(join(root, 'proc'), join(root, 'sys'), '', join(root, 'state'),
            join(root, 'sysctl.d'), join(root, 'rules.d')));
        expect(snapshot.complete).toBe(true);
        expect(snapshot.files.get(SYSCTL_SNAPSHOT_PATH)).toBe('# raidtune\ndev.raid.speed_limit_min = 50000\n');
        expect(snapshot.files.get(UDEV_SNAPSHOT_PATH)).toBe('ATTR{md/stripe_cache_size}="8192"\n');
        expect([...snapshot.files.keys()].filter(k => k.includes('other'))).toEqual([]);
        // Folders that do not exist (no udev on the host) are no error.
        const none = parseGatherOutput(gather(join(root, 'proc'), join(root, 'sys'), '', '', join(root, 'nope'), join(root, 'nope2')));
        expect(none.complete).toBe(true);
        expect(none.missingRoots).toEqual([]);
    });

    test('reads the md driver\'s modules-load entry and every process name, in the same spawn', () => {
        mkdirSync(join(root, 'sys'));
        writeTree(root, new Map([
            ['/proc/mdstat', 'Personalities : \n'],
            ['/proc/812/comm', 'ext4lazyinit\n'],
            ['/proc/1/comm', 'systemd\n'],
            ['/proc/self-not-a-pid/comm', 'nope\n'],
            ['/modules-load.d/raidtune.conf', '# raidtune\nmd_mod\n'],
            ['/modules-load.d/other.conf', 'loop\n'],
        ]));
        const snapshot = parseGatherOutput(gather(join(root, 'proc'), join(root, 'sys'), '', join(root, 'state'),
            join(root, 'sysctl.d'), join(root, 'rules.d'), join(root, 'modules-load.d')));
        expect(snapshot.complete).toBe(true);
        expect(snapshot.files.get(MODULES_LOAD_SNAPSHOT_PATH)).toBe('# raidtune\nmd_mod\n');
        expect([...snapshot.files.keys()].filter(k => k.startsWith('/raidtune-modules/'))).toEqual([MODULES_LOAD_SNAPSHOT_PATH]);
        expect([...snapshot.files.keys()].filter(k => k.endsWith('/comm')).sort()).toEqual(['/proc/1/comm', '/proc/812/comm']);
        expect(snapshot.files.get('/proc/812/comm')).toBe('ext4lazyinit\n');
    });

    test('reads the armed automatic restores and their waiters\' history, in the same spawn', () => {
        mkdirSync(join(root, 'proc'));
        mkdirSync(join(root, 'sys'));
        writeTree(root, new Map([
            ['/state/auto-restore/md0.armed', '/proc/sys/dev/raid/speed_limit_min\t1000\n'],
            ['/state/auto-restore/md0.history', '10.00 1 2 3 4 5\n11.00 2 2 3 4 5\n'],
            ['/state/auto-restore/md0.journal', '{"version":1}\n'],
        ]));
        const snapshot = parseGatherOutput(gather(join(root, 'proc'), join(root, 'sys'), '', join(root, 'state')));
        expect([...snapshot.files.keys()].filter(k => k.startsWith('/raidtune-state/')).sort()).toEqual([
            '/raidtune-state/auto-restore/md0.armed', '/raidtune-state/auto-restore/md0.history',
        ]);
        expect(snapshot.files.get('/raidtune-state/auto-restore/md0.history')).toBe('10.00 1 2 3 4 5\n11.00 2 2 3 4 5\n');
    });

    test('says whether systemd runs this host (the auto-restore waiter then becomes a transient unit)', () => {
        mkdirSync(join(root, 'proc'));
        mkdirSync(join(root, 'sys'));
        const hasRun = (() => {
            try {
                execFileSync('sh', ['-c', 'command -v systemd-run'], { stdio: 'ignore' });
                return true;
            } catch {
                return false;
            }
        })();
        const snapshot = parseGatherOutput(gather(join(root, 'proc'), join(root, 'sys')));
        expect(snapshot.systemd === true).toBe(existsSync('/run/systemd/system') && hasRun);
    });

    test('reads the ID_PATH line of each block device in udev\'s database at full reads; a fast read reuses it', () => {
        mkdirSync(join(root, 'proc'));
        mkdirSync(join(root, 'sys'));
        const device = (...properties: string[]) => ['S:disk/by-path/x', 'I:4211042', ...properties.map(p => `E:${p}`),
            'G:systemd', ''].join('\n');
        writeTree(root, new Map([
            ['/udev/b8:0', device('ID_PATH_ATA_COMPAT=pci-0000:00:17.0-ata-1', 'ID_PATH=pci-0000:00:17.0-ata-1.0',
                'ID_PATH_TAG=pci-0000_00_17_0-ata-1_0')],
            ['/udev/b8:16', device('ID_TYPE=disk')],
            ['/udev/b259:0', device('ID_PATH=pci-0000:01:00.0-nvme-1')],
            ['/udev/c189:1', device('ID_PATH=pci-0000:00:14.0-usb-0:1')],
            ['/udev/n3', device('ID_PATH=pci-0000:00:1f.6')],
            // Where the script was before: dash's `cd ""` would stay there.
            ['/sys/b8:0', device('ID_PATH=not-udev')],
        ]));
        const udev = (fast: boolean, folder = join(root, 'udev')) =>
            [join(root, 'proc'), join(root, 'sys'), '', '', '', '', '', fast ? 'fast' : '', '', folder] as const;
        const parser = new GatherParser();
        const full = parser.parse(gather(...udev(false)));
        expect([...filesUnder(full, 'udev')]).toEqual([
            ['/udev/b259', '0:E:ID_PATH=pci-0000:01:00.0-nvme-1\n'], ['/udev/b8', '0:E:ID_PATH=pci-0000:00:17.0-ata-1.0\n'],
        ]);
        rmSync(join(root, 'udev'), { recursive: true });
        const fast = parser.parse(gather(...udev(true)));
        expect(fast.reusedSections).toContain('udev');
        expect(fast.files.get('/udev/b8')).toBe('0:E:ID_PATH=pci-0000:00:17.0-ata-1.0\n');
        // No folder there (no udev: a container), or none given: no section, and no problem.
        for (const folder of [join(root, 'udev'), '']) {
            const none = parseGatherOutput(gather(...udev(false, folder)));
            expect([none.complete, none.missingRoots, [...filesUnder(none, 'udev')]]).toEqual([true, [], []]);
        }
    });

    test('names a root it cannot enter instead of failing', () => {
        const snapshot = parseGatherOutput(gather(join(root, 'nope-proc'), join(root, 'nope-sys')));
        expect(snapshot.missingRoots).toEqual(['proc', 'sys']);
        expect(snapshot.complete).toBe(true);
        expect(snapshot.files.size).toBe(0);
    });

    test('treats roots as data: shell syntax in a path is never executed', () => {
        const evil = join(root, '$(touch pwned); `touch pwned2` \'"');
        writeTree(evil, new Map([['/proc/mdstat', 'Personalities : \nunused devices: <none>\n']]));
        mkdirSync(join(evil, 'sys'));
        const snapshot = parseGatherOutput(gather(join(evil, 'proc'), join(evil, 'sys')));
        expect(snapshot.files.get('/proc/mdstat')).toBe('Personalities : \nunused devices: <none>\n');
        expect(existsSync('pwned') || existsSync(join(root, 'pwned')) || existsSync('pwned2')).toBe(false);
    });
});
