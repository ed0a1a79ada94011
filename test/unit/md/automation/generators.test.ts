// SPDX-License-Identifier: LGPL-2.1-or-later
// The generators on plans the simulated-host test does not cover: mdadm commands run only where
// their end state is missing (checked with the real sh on a small tree and an mdadm that records
// its argv), member disks found by their slot in the array, a failed member removed only where it
// has failed, removed files, and what cannot be said for another host.

import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { automationTexts, stepsForOtherHosts } from '../../../../src/md/automation';
import { playbook } from '../../../../src/md/automation/playbook';
import { shellScript } from '../../../../src/md/automation/shellScript';
import { AutomationError, type ArrayRef } from '../../../../src/md/automation/targets';
import { msg } from '../../../../src/md/message';
import { attributeStep, type Plan, type Step } from '../../../../src/md/plan';

const UUID = '3b1c5e2a-7d4f-4a9e-9c1b-5f6e7d8c9a0b';
/** md0 where the plans are made: sdb1 in slot 0, sdc1 in slot 1, sde a spare (a whole disk). */
const REFS: ArrayRef[] = [{ name: 'md0', uuid: UUID, level: 'raid1', members: [
    { name: 'sdb1', disk: 'sdb', slot: 0 }, { name: 'sdc1', disk: 'sdc', slot: 1 }, { name: 'sde', disk: 'sde', slot: null }] }];
const S = msg('setting');

const plan = (...steps: Step[]): Plan => ({ title: S, steps });
const grow = (bitmap: string): Step => ({ kind: 'run', setting: S, argv: ['mdadm', '--grow', '/dev/md0', `--bitmap=${bitmap}`], undoArgv: null });
const remove: Step = { kind: 'run', setting: S, argv: ['mdadm', '/dev/md0', '--fail', '/dev/sdb1', '--remove', '/dev/sdb1'], undoArgv: null };

let root: string;
beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'raidtune-automation-'));
    mkdirSync(join(root, 'sys/block/md9/md/bitmap'), { recursive: true });
    mkdirSync(join(root, 'sys/block/md9/md/dev-sdb1'));
    writeFileSync(join(root, 'sys/block/md9/md/dev-sdb1/state'), 'faulty\n');
    writeFileSync(join(root, 'sys/block/md9/md/uuid'), `${UUID}\n`);
    writeFileSync(join(root, 'sys/block/md9/md/bitmap/location'), 'none\n');
    mkdirSync(join(root, 'bin'));
    // Records its argv, one run a line, and leaves what mdadm would: a bitmap's location, a member gone.
    writeFileSync(join(root, 'bin/mdadm'), [
        '#!/bin/sh', `printf '%s ' "$@" >> "${root}/mdadm.log"`, `echo >> "${root}/mdadm.log"`,
        `md=${root}/sys/block/md9/md`,
        'case "$*" in',
        '*--bitmap=internal*) echo +8 > "$md/bitmap/location" ;;',
        '*--bitmap=none*) echo none > "$md/bitmap/location" ;;',
        '*--remove*) rm -r "$md/dev-sdb1" ;;',
        'esac', '',
    ].join('\n'));
    chmodSync(join(root, 'bin/mdadm'), 0o755);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function run(script: string) {
    return spawnSync('sh', ['-c', script], { encoding: 'utf8', env: { PATH: `${join(root, 'bin')}:${process.env.PATH}`, RAIDTUNE_ROOT: root } });
}
const ran = () => existsSync(join(root, 'mdadm.log')) ? readFileSync(join(root, 'mdadm.log'), 'utf8') : '';

test('mdadm --grow runs with the array found by UUID, only while the bitmap is not there yet', () => {
    const script = shellScript(plan(grow('internal')), 'Bitmap', REFS);
    expect(run(script).status).toBe(0);
    expect(ran()).toBe('--grow /dev/md9 --bitmap=internal \n');
    expect(run(script).stdout).toContain('unchanged: bitmap internal');
    expect(ran().split('\n').length).toBe(2);
    const none = shellScript(plan(grow('none')), 'Bitmap', REFS);
    expect(run(none).status).toBe(0);
    expect(ran()).toContain('--grow /dev/md9 --bitmap=none');
});

test('a member is failed and removed only while the array still has it', () => {
    const script = shellScript(plan(remove), 'Remove', REFS);
    expect(run(script).status).toBe(0);
    expect(ran()).toBe('/dev/md9 --fail /dev/sdb1 --remove /dev/sdb1 \n');
    expect(run(script).stdout).toContain('unchanged: sdb1 removed');
    expect(ran().split('\n').length).toBe(2);
});

function ansible(file: string) {
    return spawnSync('ansible-playbook', ['-i', 'localhost,', '-c', 'local', '-e', `raidtune_root=${root}`, '-e', 'ansible_become=false', file],
        { encoding: 'utf8', env: { ...process.env, PATH: `${join(root, 'bin')}:${process.env.PATH}`, ANSIBLE_NOCOLOR: '1',
            ANSIBLE_LOCAL_TEMP: join(root, '.ansible-tmp'), ANSIBLE_HOME: join(root, '.ansible') } });
}

test('a member that has not failed there is not removed, and nothing else is written', () => {
    writeFileSync(join(root, 'sys/block/md9/md/dev-sdb1/state'), 'in_sync\n');
    const script = shellScript(plan(grow('internal'), remove), 'Remove', REFS);
    const r = run(script);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`raidtune: sdb1 of md array ${UUID} has not failed on this host (in_sync): it is not removed\n`);
    expect(ran()).toBe('');
    const file = join(root, 'playbook.yml');
    writeFileSync(file, playbook(plan(grow('internal'), remove), 'Remove', REFS));
    const p = ansible(file);
    expect(p.status).not.toBe(0);
    expect(p.stdout).toContain(`sdb1 of md array ${UUID} has not failed on this host (in_sync): it is not removed`);
    expect(ran()).toBe('');
}, 60_000);

test('the playbook runs the same mdadm commands with the array found by UUID, once', () => {
    const file = join(root, 'playbook.yml');
    writeFileSync(file, playbook(plan(grow('internal'), remove), 'Both', REFS));
    const first = ansible(file);
    expect(first.status).toBe(0);
    expect(ran()).toBe('--grow /dev/md9 --bitmap=internal \n/dev/md9 --fail /dev/sdb1 --remove /dev/sdb1 \n');
    const second = ansible(file);
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/localhost\s*: ok=\d+\s+changed=0 /);
    expect(ran().split('\n').length).toBe(3);
}, 60_000);

test('scripts with every kind of step pass sh -n and shellcheck', () => {
    const steps: Step[] = [grow('internal'), remove, attributeStep(S, '/sys/block/sdb/queue/scheduler', 'none', 'mq-deadline'),
        attributeStep(S, '/sys/block/md0/md/sync_speed_min', 'system', '5000'),
        { kind: 'write-file', setting: S, path: '/etc/kept.conf', content: null, previous: 'x\n' },
        { kind: 'run', setting: S, argv: ['systemctl', 'restart', 'mdmonitor.service'], undoArgv: null }];
    const file = join(root, 'all.sh');
    writeFileSync(file, shellScript(plan(...steps), 'All', REFS));
    expect(spawnSync('sh', ['-n', file]).status).toBe(0);
    const lint = spawnSync('shellcheck', ['-s', 'sh', file], { encoding: 'utf8' });
    expect(lint.stdout).toBe('');
});

/** Where the plans' sdb1 (slot 0) is sdx1 here, and sdb is another host's disk outside the array. */
function otherHostDisks(): void {
    for (const [disk, member] of [['sdx', 'sdx1'], ['sdb', null], ['sde', 'sde']] as const) {
        mkdirSync(join(root, `sys/block/${disk}/queue`), { recursive: true });
        writeFileSync(join(root, `sys/block/${disk}/queue/scheduler`), 'none [mq-deadline]\n');
        if (member === 'sdx1') {
            mkdirSync(join(root, 'sys/block/sdx/sdx1'));
            writeFileSync(join(root, 'sys/block/sdx/sdx1/partition'), '1\n');
        }
        if (member) {
            mkdirSync(join(root, `sys/block/md9/md/dev-${member}`));
            writeFileSync(join(root, `sys/block/md9/md/dev-${member}/slot`), member === 'sde' ? 'none\n' : '0\n');
        }
    }
}
const scheduler = (disk: string) => readFileSync(join(root, `sys/block/${disk}/queue/scheduler`), 'utf8');

test('a member disk is found by its slot in the array there (a spare by its name); a removed file is removed', () => {
    otherHostDisks();
    mkdirSync(join(root, 'etc'));
    writeFileSync(join(root, 'etc/kept.conf'), 'x\n');
    const steps = [attributeStep(S, '/sys/block/sdb/queue/scheduler', 'none', 'mq-deadline'),
        attributeStep(S, '/sys/block/sde/queue/scheduler', 'none', 'mq-deadline'),
        { kind: 'write-file', setting: S, path: '/etc/kept.conf', content: null, previous: 'x\n' } as Step];
    const script = shellScript(plan(...steps), 'Disk', REFS);
    const first = run(script);
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('changed: sdx/queue/scheduler = none');
    expect(first.stdout).toContain('changed: sde/queue/scheduler = none');
    expect([scheduler('sdx'), scheduler('sde'), scheduler('sdb')]).toEqual(['none\n', 'none\n', 'none [mq-deadline]\n']);
    expect(existsSync(join(root, 'etc/kept.conf'))).toBe(false);
    const bfq = shellScript(plan(attributeStep(S, '/sys/block/sdb/queue/scheduler', 'bfq', 'none')), 'Disk', REFS);
    const refused = run(bfq);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe('raidtune: sdx offers no I/O scheduler bfq\n');
});

test('the playbook finds the member disks the same way', () => {
    otherHostDisks();
    const file = join(root, 'playbook.yml');
    writeFileSync(file, playbook(plan(attributeStep(S, '/sys/block/sdb/queue/scheduler', 'none', 'mq-deadline'),
        attributeStep(S, '/sys/block/sde/queue/scheduler', 'none', 'mq-deadline')), 'Disk', REFS));
    const first = ansible(file);
    expect(first.status).toBe(0);
    expect([scheduler('sdx'), scheduler('sde'), scheduler('sdb')]).toEqual(['none\n', 'none\n', 'none [mq-deadline]\n']);
    const bfq = join(root, 'bfq.yml');
    writeFileSync(bfq, playbook(plan(attributeStep(S, '/sys/block/sdb/queue/scheduler', 'bfq', 'none')), 'Disk', REFS));
    const refused = ansible(bfq);
    expect(refused.status).not.toBe(0);
    expect(refused.stdout).toContain('"msg": "sdx offers no I/O scheduler bfq"');
    writeFileSync(join(root, 'sys/block/md9/md/dev-sdx1/slot'), '1\n');
    const missing = ansible(file);
    expect(missing.status).not.toBe(0);
    expect(missing.stdout).toContain(`md array ${UUID} has no member in slot 0 on this host`);
}, 60_000);

test('where the array has no member in the slot, the script says so and writes nothing', () => {
    otherHostDisks();
    writeFileSync(join(root, 'sys/block/md9/md/dev-sdx1/slot'), '1\n');
    mkdirSync(join(root, 'proc/sys/dev/raid'), { recursive: true });
    writeFileSync(join(root, 'proc/sys/dev/raid/speed_limit_min'), '1000\n');
    const limit = attributeStep(S, '/proc/sys/dev/raid/speed_limit_min', 5000, 1000);
    const r = run(shellScript(plan(limit, attributeStep(S, '/sys/block/sdb/queue/scheduler', 'none', 'mq-deadline')), 'Disk', REFS));
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`raidtune: md array ${UUID} has no member in slot 0 on this host\n`);
    expect([scheduler('sdx'), scheduler('sdb')]).toEqual(['none [mq-deadline]\n', 'none [mq-deadline]\n']);
    expect(readFileSync(join(root, 'proc/sys/dev/raid/speed_limit_min'), 'utf8')).toBe('1000\n');
});

test('what cannot be said for another host gives no script', () => {
    expect(automationTexts(plan(grow('internal')), 'x', [])).toBeNull();
    expect(automationTexts(plan(attributeStep(S, '/sys/block/md0/md/unknown_attr', '1', '0')), 'x', REFS)).toBeNull();
    expect(automationTexts(plan(attributeStep(S, '/sys/block/sdz/queue/scheduler', 'none', 'mq-deadline')), 'x', REFS)).toBeNull();
    expect(() => shellScript(plan(attributeStep(S, '/sys/block/md0/md/stripe_cache_size', 99999, 256)), 'x', REFS))
        .toThrow(AutomationError);
});

test('raidtune\'s own records of this host are left out of what other hosts get', () => {
    const journal: Step = { kind: 'write-file', setting: S, path: '/var/lib/raidtune/restore.json', content: null, previous: '{}' };
    const waiter: Step = { kind: 'run', setting: S, argv: ['sh', '-c', 'x', 'w', '/var/lib/raidtune/auto-restore/md0.armed'], undoArgv: null };
    const limit = attributeStep(S, '/proc/sys/dev/raid/speed_limit_min', 1000, 5000);
    const kept: Step = { kind: 'write-file', setting: S, path: '/etc/sysctl.d/90-raidtune.conf', content: 'x\n', previous: null };
    expect(stepsForOtherHosts([journal, limit, waiter, kept], '/var/lib/raidtune')).toEqual([limit, kept]);
});
