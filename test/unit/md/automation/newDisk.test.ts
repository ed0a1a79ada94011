// SPDX-License-Identifier: LGPL-2.1-or-later
// The exports of a replacement (issue #34), run with the real sh and ansible-playbook on a small
// tree that stands for another host: the arrays under other names, the new disk under another name
// found by its WWID, mdadm, sfdisk and wipefs stand-ins that record what they were given and leave
// what the real ones would (a member in md's list, partitions). Nothing is written where the disk
// is missing or in use, and a second run changes nothing.

import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { automationTexts } from '../../../../src/md/automation';
import type { DiskRef } from '../../../../src/md/automation/newDisk';
import { playbook } from '../../../../src/md/automation/playbook';
import { shellScript } from '../../../../src/md/automation/shellScript';
import type { ArrayRef } from '../../../../src/md/automation/targets';
import { replacementPlan } from '../../../../src/md/replace/replacePlan';
import { changedCount, runPlaybook } from '../../../shared/runAutomation';

const U1 = '9e4b2f70-31c8-4d5a-b6e2-7a0c58d4e1f3';
const U2 = 'c27f8e15-6a4d-4b09-8e3f-d15b2a7c6094';
/** The padded form SATA disks report; the script compares it without the padding's ends. */
const WWID = 't10.ATA     SIMDISK ST2000DM008-2FR102              ZFL00060';
const TABLE = 'label: gpt\nunit: sectors\n\n1 : start=2048, size=2097152, type=A19D880F-05FC-4D3B-A006-743F0F84911E\n' +
    '2 : start=2099200, size=8388608, type=A19D880F-05FC-4D3B-A006-743F0F84911E\n';

/** md1 and md2 where the plan is made: RAID 1 on sde1 and sde2, each missing its other half. */
const ARRAYS: ArrayRef[] = [
    { name: 'md1', uuid: U1, level: 'raid1', members: [{ name: 'sde1', disk: 'sde', slot: 0 }] },
    { name: 'md2', uuid: U2, level: 'raid1', members: [{ name: 'sde2', disk: 'sde', slot: 0 }] },
];
const DISKS: DiskRef[] = [{ name: 'sde', wwid: 't10.ATA other', serial: null }, { name: 'sdg', wwid: WWID.trim(), serial: null }];

const partitionsPlan = (wipe: string[] = []) => replacementPlan({
    disk: 'sdg', wipe, partitionScript: TABLE,
    targets: [{ device: '/dev/md1', newMember: 'sdg1', replaces: null }, { device: '/dev/md2', newMember: 'sdg2', replaces: null }],
});

let root: string;
const at = (...parts: string[]) => join(root, ...parts);
const log = () => (existsSync(at('calls.log')) ? readFileSync(at('calls.log'), 'utf8') : '');

function program(name: string, body: string[]): void {
    writeFileSync(at('bin', name), ['#!/bin/sh', `ROOT='${root}'`, `printf '%s ' ${name} "$@" >> "$ROOT/calls.log"; echo >> "$ROOT/calls.log"`,
        ...body, ''].join('\n'));
    chmodSync(at('bin', name), 0o755);
}

/**
 * The other host: md126 and md127 hold the arrays; the new disk is sdx (WWID padded as the kernel
 * shows it), sdy another disk. mdadm adds a member to md's list, --replace marks the two states;
 * sfdisk makes the partitions its input lists; wipefs lists the signatures in `signatures.DEV`.
 */
function otherHost(newDiskWwid = `${WWID}  `): void {
    for (const [md, uuid, member] of [['md126', U1, 'sdc1'], ['md127', U2, 'sdc2']]) {
        mkdirSync(at('sys/block', md, 'md', `dev-${member}`), { recursive: true });
        writeFileSync(at('sys/block', md, 'md/uuid'), `${uuid}\n`);
        writeFileSync(at('sys/block', md, 'md', `dev-${member}`, 'slot'), '0\n');
        writeFileSync(at('sys/block', md, 'md', `dev-${member}`, 'state'), 'in_sync\n');
    }
    for (const [disk, wwid] of [['sdx', newDiskWwid], ['sdy', 't10.ATA another']]) {
        mkdirSync(at('sys/block', disk, 'device'), { recursive: true });
        writeFileSync(at('sys/block', disk, 'device/wwid'), `${wwid}\n`);
    }
    mkdirSync(at('proc'));
    writeFileSync(at('proc/mounts'), '/dev/sdy1 / ext4 rw 0 0\n');
    mkdirSync(at('bin'));
    program('mdadm', [
        'md=$ROOT/sys/block/${1#/dev/}/md',
        'case $2 in',
        '--add|--add-spare) mkdir "$md/dev-${3#/dev/}"; echo spare > "$md/dev-${3#/dev/}/state" ;;',
        // md shows the replacement in the slot of the member it replaces.
        '--replace) echo in_sync,want_replacement > "$md/dev-${3#/dev/}/state"; echo replacement > "$md/dev-${5#/dev/}/state"',
        '  cp "$md/dev-${3#/dev/}/slot" "$md/dev-${5#/dev/}/slot" ;;',
        'esac',
    ]);
    program('sfdisk', [
        'd=${1#/dev/}',
        'cat > "$ROOT/sfdisk.input"',
        'for n in $(sed -n "s/^\\([0-9]*\\) : start=.*/\\1/p" "$ROOT/sfdisk.input"); do',
        '  mkdir -p "$ROOT/sys/block/$d/$d$n"; echo "$n" > "$ROOT/sys/block/$d/$d$n/partition"',
        'done',
    ]);
    program('wipefs', [
        'case $1 in',
        '--no-act) cat "$ROOT/signatures.${2#/dev/}" 2>/dev/null || true ;;',
        '--all) rm -f "$ROOT"/signatures.* ;;',
        'esac',
    ]);
}

function runScript(script: string) {
    return spawnSync('sh', ['-c', script], { encoding: 'utf8', env: { PATH: `${at('bin')}:${process.env.PATH}`, RAIDTUNE_ROOT: root, LC_ALL: 'C' } });
}

beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'raidtune-newdisk-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the shell script', () => {
    test('finds the new disk by its WWID under another name, gives it the table and each array its partition; a second run changes nothing', () => {
        otherHost();
        const script = shellScript(partitionsPlan(), 'Put sdg in md1, md2', ARRAYS, DISKS);
        const first = runScript(script);
        expect(first.stderr).toBe('');
        expect(first.status).toBe(0);
        expect(log()).toBe('wipefs --no-act /dev/sdx \nsfdisk /dev/sdx \nmdadm /dev/md126 --add /dev/sdx1 \nmdadm /dev/md127 --add /dev/sdx2 \n');
        expect(readFileSync(at('sfdisk.input'), 'utf8')).toBe(TABLE);
        expect(first.stdout).toContain('finished: 3 changed');

        const second = runScript(script);
        expect(second.status).toBe(0);
        expect(second.stdout).toContain('unchanged: partition table of sdg (it is in place)');
        expect(second.stdout).toContain('unchanged: sdx1 is a member of md126');
        expect(second.stdout).toContain('finished: 0 changed');
        expect(log().split('\n').filter(Boolean)).toHaveLength(4);
    });

    test('a run cut short goes on where it stopped: md126 has its partition, md127 gets its own, the table is left alone', () => {
        otherHost();
        const script = shellScript(partitionsPlan(), 'Put sdg in md1, md2', ARRAYS, DISKS);
        mkdirSync(at('sys/block/sdx/sdx1'), { recursive: true });
        writeFileSync(at('sys/block/sdx/sdx1/partition'), '1\n');
        mkdirSync(at('sys/block/sdx/sdx2'));
        writeFileSync(at('sys/block/sdx/sdx2/partition'), '2\n');
        mkdirSync(at('sys/block/md126/md/dev-sdx1'));
        const run = runScript(script);
        expect(run.status).toBe(0);
        expect(log()).toBe('mdadm /dev/md127 --add /dev/sdx2 \n');
    });

    test.each([
        ['no disk reports the WWID', () => otherHost('t10.ATA     SIMDISK ST2000DM008-2FR102              ZFL99999'),
            `no single disk with WWID ${WWID} on this host (sdg where this was made)`],
        ['md holds the disk', () => { otherHost(); mkdirSync(at('sys/block/sdx/holders/md5'), { recursive: true }); },
            'sdx is in use on this host: md5 holds it'],
        ['a partition of it is mounted', () => { otherHost(); writeFileSync(at('proc/mounts'), '/dev/sdx2 /srv xfs rw 0 0\n'); },
            'sdx is mounted or used as swap on this host'],
        ['it has a filesystem and the plan wipes nothing', () => { otherHost(); writeFileSync(at('signatures.sdx'), 'sdx 0x438 ext4\n'); },
            '/dev/sdx has signatures on this host (wipefs): it is not used'],
    ])('refuses before any write where %s', (_what, arrange, message) => {
        arrange();
        const run = runScript(shellScript(partitionsPlan(), 'Put sdg in md1, md2', ARRAYS, DISKS));
        expect(run.status).toBe(1);
        expect(run.stderr).toBe(`raidtune: ${message}\n`);
        expect(log()).not.toMatch(/--all|sfdisk|mdadm/);
    });

    test('wipes the disk and its partitions where the plan wipes it', () => {
        otherHost();
        writeFileSync(at('signatures.sdx'), 'sdx 0x438 ext4\n');
        mkdirSync(at('sys/block/sdx/sdx1'), { recursive: true });
        writeFileSync(at('sys/block/sdx/sdx1/partition'), '1\n');
        const run = runScript(shellScript(partitionsPlan(['sdg']), 'Put sdg in md1, md2', ARRAYS, DISKS));
        expect(run.status).toBe(0);
        expect(log().split('\n')[0]).toBe('wipefs --all /dev/sdx1 /dev/sdx ');
    });

    test('--replace: the member in the old one\'s slot is copied onto the new disk; once it is under way, nothing runs again', () => {
        otherHost();
        const arrays: ArrayRef[] = [{ name: 'md1', uuid: U1, level: 'raid1', members: [
            { name: 'sde1', disk: 'sde', slot: 0 }, { name: 'sdf1', disk: 'sdf', slot: 1 }] }];
        writeFileSync(at('sys/block/md126/md/dev-sdc1/slot'), '1\n');
        const plan = replacementPlan({ disk: 'sdg', wipe: [], partitionScript: null, targets: [{ device: '/dev/md1', newMember: 'sdg', replaces: 'sdf1' }] });
        const script = shellScript(plan, 'Replace sdf1', arrays, DISKS);
        expect(runScript(script).status).toBe(0);
        expect(log()).toBe('wipefs --no-act /dev/sdx \nmdadm /dev/md126 --add-spare /dev/sdx \nmdadm /dev/md126 --replace /dev/sdc1 --with /dev/sdx \n');
        const again = runScript(script);
        expect(again.stdout).toContain('unchanged: sdc1 of md126 is being replaced');
        expect(again.stdout).toContain('finished: 0 changed');
    });

    test('passes sh -n and shellcheck', () => {
        const file = join(root, 'script.sh');
        writeFileSync(file, shellScript(partitionsPlan(['sdg']), 'Put sdg in md1, md2', ARRAYS, DISKS));
        execFileSync('sh', ['-n', file]);
        const lint = spawnSync('shellcheck', ['-s', 'sh', file], { encoding: 'utf8' });
        expect(lint.stdout).toBe('');
        expect(lint.status).toBe(0);
    });
});

test('the playbook does the same: table and partitions on the disk found by WWID, changed=0 the second time', () => {
    otherHost();
    const file = join(root, 'playbook.yml');
    writeFileSync(file, playbook(partitionsPlan(), 'Put sdg in md1, md2', ARRAYS, DISKS));
    const path = process.env.PATH;
    process.env.PATH = `${at('bin')}:${path}`;
    try {
        const first = runPlaybook(root, file);
        expect(first.status).toBe(0);
        expect(changedCount(first)).toBe(3);
        expect(log()).toBe('wipefs --no-act /dev/sdx \nsfdisk /dev/sdx \nmdadm /dev/md126 --add /dev/sdx1 \nmdadm /dev/md127 --add /dev/sdx2 \n');
        // ansible's command module ends the input with a newline; sfdisk reads it the same.
        expect(readFileSync(at('sfdisk.input'), 'utf8')).toBe(`${TABLE}\n`);
        const second = runPlaybook(root, file);
        expect(second.status).toBe(0);
        expect(changedCount(second)).toBe(0);

        mkdirSync(at('sys/block/sdy/holders/md0'), { recursive: true });
        writeFileSync(file, playbook({ ...partitionsPlan(), steps: partitionsPlan().steps.slice(0, 1) }, 'Table', ARRAYS,
            DISKS.map(d => (d.name === 'sdg' ? { ...d, wwid: 't10.ATA another' } : d))));
        const refused = runPlaybook(root, file);
        expect(refused.status).not.toBe(0);
        expect(refused.stdout).toContain('raidtune: sdy is in use on this host: md0 holds it');
        expect(log().split('\n').filter(Boolean)).toHaveLength(4);
    } finally {
        process.env.PATH = path;
    }
});

test('a disk that reports neither a WWID nor a serial number is not exported', () => {
    const anonymous = DISKS.map(d => (d.name === 'sdg' ? { ...d, wwid: null } : d));
    expect(automationTexts(partitionsPlan(), 'Put sdg in md1, md2', ARRAYS, anonymous)).toBeNull();
    expect(automationTexts(partitionsPlan(), 'Put sdg in md1, md2', ARRAYS, DISKS)).not.toBeNull();
});
