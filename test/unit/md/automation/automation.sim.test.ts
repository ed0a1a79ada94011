// SPDX-License-Identifier: LGPL-2.1-or-later
// The automation script and playbook, run for real: made on a simulated host where the RAID6 is
// md0, run with the real sh (and ansible-playbook -c local) on another where the same array (same
// UUID) is md127; the end state must be what the page's writes leave, and a second run changes
// nothing. Member disks are found by their slot: on the other host the disks have other names, and
// the one named like the first member is not in the array. sh -n and shellcheck read every script.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { GATHER_SCRIPT } from '../../../../src/host/gatherScript';
import { playbook } from '../../../../src/md/automation/playbook';
import { shLiteral } from '../../../../src/md/automation/quote';
import { shellScript } from '../../../../src/md/automation/shellScript';
import { arrayRefs, type ArrayRef } from '../../../../src/md/automation/targets';
import { buildModel } from '../../../../src/md/model';
import type { HostModel } from '../../../../src/md/modelTypes';
import { readBackMatches } from '../../../../src/md/readBack';
import { parseGatherOutput } from '../../../../src/md/snapshot';
import { presetPlan } from '../../../../src/md/tuning/presets';
import { diskQueuePlan } from '../../../../src/md/tuning/diskQueue';
import { msg } from '../../../../src/md/message';
import { describeArgv, type Plan, type Step } from '../../../../src/md/plan';
import type { SimulatedHost } from '../../../../sim';
import type { ScenarioSpec } from '../../../../sim/scenario/types';
import { attr, removeTempRoots, startHost, tee, tempRoot } from '../../sim/simHelpers';

const UUID = '3b1c5e2a-7d4f-4a9e-9c1b-5f6e7d8c9a0b';
const BASE = JSON.parse(readFileSync(join(__dirname, '../../../../sim/scenarios/raid6-recovery.json'), 'utf8')) as ScenarioSpec;

/** raid6-recovery with its array named `name` and given a fixed UUID (`uuid`). */
function scenario(name: string, uuid = UUID, level?: string): ScenarioSpec {
    const arrays = (BASE.arrays ?? []).map(a => ({ ...a, name, uuid, ...(level ? { level } : {}) }));
    return { ...BASE, arrays } as ScenarioSpec;
}

/**
 * The same host with its disks named one letter on (sda -> sdb ... sdf -> sda): the array's members
 * keep their slots on other names, and sda is now the SSD outside the array.
 */
const RENAMED: Record<string, string> = { sda: 'sdb', sdb: 'sdc', sdc: 'sdd', sdd: 'sde', sde: 'sdf', sdf: 'sda' };
function renamed(spec: ScenarioSpec): ScenarioSpec {
    const disks = (spec.disks ?? []).map(d => ({ ...d, name: RENAMED[d.name] }));
    const arrays = (spec.arrays ?? []).map(a => ({
        ...a, members: a.members.map(m => ({ ...m, device: m.device.replace(/^sd[a-f]/, d => RENAMED[d]) })),
    }));
    return { ...spec, disks, arrays } as ScenarioSpec;
}

/** Words a shell must neither split nor expand, in a file the plan keeps. */
const TRICKY = 'ACTION=="add", KERNEL=="md*", ENV{MD_UUID}=="x" $HOME `id` $(id) \'q\' "d" \\n * ?\n\n';

const started: SimulatedHost[] = [];

function start(spec: ScenarioSpec): SimulatedHost {
    const sim = startHost(spec);
    started.push(sim);
    return sim;
}

function modelOf(sim: SimulatedHost): HostModel {
    const output = execFileSync('sh', ['-c', GATHER_SCRIPT, 'raidtune-gather', join(sim.root, 'proc'), join(sim.root, 'sys'), 'pagesize'],
        { encoding: 'utf8', env: { LC_ALL: 'C', PATH: process.env.PATH } });
    return buildModel(parseGatherOutput(output), 0);
}

/** Fast rebuild (system and array limits, stripe cache) and a kept file with shell metacharacters. */
function planOf(host: HostModel): Plan {
    const preset = presetPlan(host, 'fast-rebuild');
    if (!preset.plan) throw new Error('no preset plan');
    const file: Step = {
        kind: 'write-file', setting: msg('kept file'), path: '/etc/udev/rules.d/64-raidtune.rules', content: TRICKY, previous: null,
    };
    return { ...preset.plan, steps: [...preset.plan.steps, file] };
}

/** What the page's executor does with each step: tee for attributes, the file written. */
function applyAsPage(sim: SimulatedHost, plan: Plan): void {
    for (const step of plan.steps) {
        if (step.kind === 'write-attribute') tee(sim, step.path.slice(1), step.to);
        else if (step.kind === 'write-file') {
            mkdirSync(join(sim.root, step.path, '..'), { recursive: true });
            writeFileSync(join(sim.root, step.path), step.content ?? '');
        }
    }
    sim.tick(0);
}

/** The values of every path the plan writes, with the array's name on that host. */
function endState(sim: SimulatedHost, plan: Plan, name: string): string[] {
    return plan.steps.map(s => {
        if (s.kind === 'run') return describeArgv(s.argv);
        const path = s.path.replace('/md0/', `/${name}/`).slice(1);
        return s.kind === 'write-attribute' ? `${s.path}=${attr(sim, path)}` : `${s.path}=${readFileSync(join(sim.root, path), 'utf8')}`;
    });
}

function runScript(sim: SimulatedHost, script: string) {
    return spawnSync('sh', ['-c', script, 'raidtune'], { encoding: 'utf8', env: { PATH: process.env.PATH, RAIDTUNE_ROOT: sim.root, LC_ALL: 'C' } });
}

function made(): { plan: Plan; refs: ArrayRef[]; expected: string[] } {
    const page = start(scenario('md0'));
    const host = modelOf(page);
    const plan = planOf(host);
    applyAsPage(page, plan);
    return { plan, refs: arrayRefs(host.arrays), expected: endState(page, plan, 'md0') };
}

afterAll(() => {
    for (const sim of started) sim.close();
    removeTempRoots();
});

describe('shLiteral', () => {
    test.each(['plain', 'it\'s', '$HOME `id` $(id) "x" \\ * ? [a]', 'a\nb\n', '', ' - -n'])('%j reaches a program as one unchanged word', word => {
        expect(execFileSync('sh', ['-c', `printf '%s|' ${shLiteral(word)}`], { encoding: 'utf8' })).toBe(`${word}|`);
    });
});

describe('the shell script', () => {
    test('reaches the end state of the page on a host where the array has another name; the second run changes nothing', () => {
        const { plan, refs, expected } = made();
        expect(plan.steps.filter(s => s.kind === 'write-attribute').map(s => s.path)).toEqual(expect.arrayContaining([
            '/proc/sys/dev/raid/speed_limit_min', '/sys/block/md0/md/stripe_cache_size']));
        const script = shellScript(plan, 'Fast rebuild', refs);
        const other = start(scenario('md127'));
        const first = runScript(other, script);
        expect(first.stderr).toBe('');
        expect(first.status).toBe(0);
        expect(first.stdout).toContain('changed: md127/md/stripe_cache_size');
        other.tick(0);
        expect(endState(other, plan, 'md127')).toEqual(expected);
        for (const s of plan.steps) {
            if (s.kind === 'write-attribute') expect(readBackMatches(s.path, s.to, attr(other, s.path.replace('/md0/', '/md127/').slice(1)))).toBe(true);
        }
        const second = runScript(other, script);
        expect(second.status).toBe(0);
        expect(second.stdout).not.toMatch(/^changed:/m);
        expect(second.stdout).toContain(`finished: 0 changed`);
    });

    test('fails before any write where the array is missing or has no stripe cache', () => {
        const { plan, refs } = made();
        const script = shellScript(plan, 'Fast rebuild', refs);
        const missing = start(scenario('md0', '00000000-1111-2222-3333-444444444444'));
        const before = attr(missing, 'proc/sys/dev/raid/speed_limit_min');
        const r = runScript(missing, script);
        expect(r.status).toBe(1);
        expect(r.stderr).toBe(`raidtune: no md array with UUID ${UUID} on this host\n`);
        expect(attr(missing, 'proc/sys/dev/raid/speed_limit_min')).toBe(before);
        expect(existsSync(join(missing.root, 'etc'))).toBe(false);

        const mirror = start(scenario('md5', UUID, 'raid1'));
        const m = runScript(mirror, script);
        expect(m.status).toBe(1);
        expect(m.stderr).toBe(`raidtune: md array ${UUID} (md5) is raid1 on this host: it has no stripe cache\n`);
        expect(attr(mirror, 'proc/sys/dev/raid/speed_limit_min')).toBe(before);
    });

    test('passes sh -n and shellcheck', () => {
        const { plan, refs } = made();
        const file = join(tempRoot(), 'script.sh');
        writeFileSync(file, shellScript(plan, 'Fast rebuild', refs));
        execFileSync('sh', ['-n', file]);
        const lint = spawnSync('shellcheck', ['-s', 'sh', file], { encoding: 'utf8' });
        expect(lint.stdout).toBe('');
        expect(lint.status).toBe(0);
    });
});

describe('member disks on a host where they have other names', () => {
    /** Every disk's scheduler, by the slot of the member it holds ("-": no member). */
    function schedulersBySlot(sim: SimulatedHost, name: string): Record<string, string> {
        const host = modelOf(sim);
        const members = host.arrays.find(a => a.name === name)?.members ?? [];
        return Object.fromEntries([...host.disks.values()].map(d => {
            const slot = members.find(m => m.disk === d.name)?.slot;
            return [slot === undefined ? `- ${d.name}` : `slot ${slot ?? 'none'}`, d.scheduler?.current ?? '?'];
        }));
    }

    test('the script and the playbook set the scheduler of the disks in the same slots as the page did', () => {
        const page = start(scenario('md0'));
        const host = modelOf(page);
        const md0 = host.arrays[0];
        const result = diskQueuePlan(host, md0, 'scheduler', 'none');
        if (!result.plan) throw new Error('no plan');
        const plan = result.plan;
        expect(plan.steps.map(s => s.kind === 'write-attribute' && s.path)).toEqual(
            ['sda', 'sdb', 'sdc', 'sdd', 'sde'].map(d => `/sys/block/${d}/queue/scheduler`));
        applyAsPage(page, plan);
        const expected = schedulersBySlot(page, 'md0');
        expect(expected['- sdf']).toBe('mq-deadline');
        const refs = arrayRefs(host.arrays);

        const other = start(renamed(scenario('md127')));
        expect(schedulersBySlot(other, 'md127')).not.toEqual(expected);
        const first = runScript(other, shellScript(plan, 'Disk queues', refs));
        expect(first.stderr).toBe('');
        expect(first.stdout).toContain('changed: sdb/queue/scheduler = none');
        other.tick(0);
        const { '- sdf': ssdHere, ...slotsHere } = expected;
        const { '- sda': ssdThere, ...slotsThere } = schedulersBySlot(other, 'md127');
        expect([slotsThere, ssdThere]).toEqual([slotsHere, ssdHere]);
        expect(runScript(other, shellScript(plan, 'Disk queues', refs)).stdout).toContain('finished: 0 changed');

        const viaAnsible = start(renamed(scenario('md127')));
        const file = join(tempRoot(), 'playbook.yml');
        writeFileSync(file, playbook(plan, 'Disk queues', refs));
        const ran = ansible(viaAnsible, file);
        expect(ran.status).toBe(0);
        viaAnsible.tick(0);
        expect(schedulersBySlot(viaAnsible, 'md127')).toEqual(schedulersBySlot(other, 'md127'));
        expect(ansible(viaAnsible, file).stdout).toMatch(/localhost\s*: ok=\d+\s+changed=0 /);
    }, 120_000);
});

function ansible(sim: SimulatedHost, file: string, ...extra: string[]) {
    return spawnSync('ansible-playbook', ['-i', 'localhost,', '-c', 'local', '-e', `raidtune_root=${sim.root}`, '-e', 'ansible_become=false',
        ...extra, file], { encoding: 'utf8', env: { ...process.env, ANSIBLE_NOCOLOR: '1', ANSIBLE_LOCAL_TEMP: join(sim.root, '.ansible-tmp'),
        ANSIBLE_HOME: join(sim.root, '.ansible') } });
}

describe('the playbook', () => {
    test('passes --syntax-check, reaches the page\'s end state, and changes nothing the second time', () => {
        const { plan, refs, expected } = made();
        const other = start(scenario('md127'));
        const file = join(tempRoot(), 'playbook.yml');
        writeFileSync(file, playbook(plan, 'Fast rebuild', refs));
        const syntax = ansible(other, file, '--syntax-check');
        expect(syntax.stderr).toBe('');
        expect(syntax.status).toBe(0);
        const first = ansible(other, file);
        expect(first.status).toBe(0);
        expect(first.stdout).toMatch(/localhost\s*: ok=\d+\s+changed=[1-9]/);
        other.tick(0);
        expect(endState(other, plan, 'md127')).toEqual(expected);
        const second = ansible(other, file);
        expect(second.status).toBe(0);
        expect(second.stdout).toMatch(/localhost\s*: ok=\d+\s+changed=0 /);
    }, 120_000);

    test('fails with the reason where the array is missing, before any write', () => {
        const { plan, refs } = made();
        const missing = start(scenario('md0', '00000000-1111-2222-3333-444444444444'));
        const before = attr(missing, 'proc/sys/dev/raid/speed_limit_min');
        const file = join(tempRoot(), 'playbook.yml');
        writeFileSync(file, playbook(plan, 'Fast rebuild', refs));
        const r = ansible(missing, file);
        expect(r.status).not.toBe(0);
        expect(r.stdout).toContain(`no md array with UUID ${UUID} on this host`);
        expect(attr(missing, 'proc/sys/dev/raid/speed_limit_min')).toBe(before);
    }, 120_000);
});
