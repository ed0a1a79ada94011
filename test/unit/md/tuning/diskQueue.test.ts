// SPDX-License-Identifier: LGPL-2.1-or-later
// Queue settings of an array's member disks, on models read from the simulated host by the real
// gather script; the planned writes are then made to the simulated kernel and read back.

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { GATHER_SCRIPT } from '../../../../src/host/gatherScript';
import { buildModel } from '../../../../src/md/model';
import type { HostModel } from '../../../../src/md/modelTypes';
import { describePlan, invertSteps, type Plan, type WriteAttributeStep } from '../../../../src/md/plan';
import { readBackMatches } from '../../../../src/md/readBack';
import { parseGatherOutput } from '../../../../src/md/snapshot';
import {
    diskQueueInitial, diskQueuePlan, diskQueueUnavailable, memberDisks, nrRequestsAfterSwitch, schedulerChoices,
    type DiskQueueSetting,
} from '../../../../src/md/tuning/diskQueue';
import type { SimulatedHost } from '../../../../sim';
import type { ScenarioSpec } from '../../../../sim/scenario/types';
import { BAD_TEXT_VALUES } from '../../../shared/badValues';
import { loadCaptureFiles } from '../../helpers/realKernelCapture';
import { attr, removeTempRoots, startHost, tee } from '../../sim/simHelpers';

const GiB = 2 ** 30;

/**
 * md0: RAID5 on two partitions of SATA disks that md1 shares, a SATA SSD, an NVMe disk (no
 * queue_depth, no scheduler in use) and a faulty SATA disk. sda offers more schedulers than the
 * others; sdb's queue depth stops at 32 like libata's.
 */
const SCENARIO: ScenarioSpec = {
    name: 'disk-queues',
    disks: [
        { name: 'sda', kind: 'sata', sizeBytes: 64 * GiB, schedulers: ['mq-deadline', 'bfq', 'kyber'],
            partitions: [{ number: 1, sizeBytes: 32 * GiB }, { number: 2 }] },
        { name: 'sdb', kind: 'sata', sizeBytes: 64 * GiB, queueDepthMax: 32,
            partitions: [{ number: 1, sizeBytes: 32 * GiB }, { number: 2 }] },
        { name: 'sdc', kind: 'sata', sizeBytes: 32 * GiB, rotational: false },
        { name: 'nvme0n1', kind: 'nvme', sizeBytes: 32 * GiB },
        { name: 'sdd', kind: 'sata', sizeBytes: 32 * GiB },
    ],
    arrays: [
        { name: 'md0', level: 'raid5', members: [
            { device: 'sda1' }, { device: 'sdb1' }, { device: 'sdc' }, { device: 'nvme0n1' }, { device: 'sdd', role: 'faulty' },
        ] },
        { name: 'md1', level: 'raid1', members: [{ device: 'sda2' }, { device: 'sdb2' }] },
    ],
};

/** What raidtune would see on the simulated host: the gather script's output, built into a model. */
function modelOf(sim: SimulatedHost): HostModel {
    const output = execFileSync('sh', ['-c', GATHER_SCRIPT, 'raidtune-gather', join(sim.root, 'proc'), join(sim.root, 'sys'), 'pagesize'],
        { encoding: 'utf8', env: { LC_ALL: 'C', PATH: process.env.PATH } });
    return buildModel(parseGatherOutput(output), 0);
}

/** Writes the steps as the executor does (tee, then read back), one simulated tick each. */
function applyToSim(sim: SimulatedHost, plan: Plan): { path: string; readBack: string; matches: boolean }[] {
    return plan.steps.map(s => {
        const step = s as WriteAttributeStep;
        const file = step.path.slice(1);
        tee(sim, file, step.to);
        sim.tick(0);
        const readBack = attr(sim, file);
        return { path: step.path, readBack, matches: readBackMatches(step.path, step.to, readBack) };
    });
}

const started: SimulatedHost[] = [];

/** A simulated host of its own and raidtune's model of it, for a test that writes. */
function start(): { sim: SimulatedHost; host: HostModel } {
    const sim = startHost(SCENARIO);
    started.push(sim);
    return { sim, host: modelOf(sim) };
}

afterAll(() => {
    for (const sim of started) sim.close();
    removeTempRoots();
});

// Tests that only plan share one host.
let host: HostModel;
beforeAll(() => { host = start().host; });
const md0 = (model = host) => model.arrays.find(a => a.name === 'md0')!;
const plan = (setting: DiskQueueSetting, input: string, model = host) =>
    diskQueuePlan(model, md0(model), setting, input);
const texts = (result: ReturnType<typeof plan>) => (result.warnings ?? []).map(w => w.message);

describe('the disks under an array', () => {
    test('whole disks once each, from the model, without the faulty member', () => {
        expect(memberDisks(host, md0()).map(d => d.name)).toEqual(['nvme0n1', 'sda', 'sdb', 'sdc']);
    });

    test('a member whose disk the model does not know is left out, whatever its name', () => {
        const array = { ...md0(), members: [...md0().members, { ...md0().members[0], name: 'x', disk: '../../../etc' }] };
        expect(memberDisks(host, array).map(d => d.name)).toEqual(['nvme0n1', 'sda', 'sdb', 'sdc']);
    });

    test('the form starts from the disks\' shared value, and empty where they differ', () => {
        expect(diskQueueInitial(host, md0(), 'queueDepth')).toBe('32');
        expect(diskQueueInitial(host, md0(), 'scheduler')).toBe(''); // nvme0n1 has none, the SATA disks another
    });

    test('a value left as the form started (null) writes nothing, not even to disks that have another', () => {
        // Typed over disks that differ, "none" is a change; left as the form started, nothing is.
        expect(describePlan(plan('scheduler', 'none').plan!)).not.toBe('');
        expect(diskQueuePlan(host, md0(), 'scheduler', null)).toEqual({ plan: expect.objectContaining({ steps: [] }), warnings: [] });
    });
});

describe('queue depth (NCQ)', () => {
    test('1 turns NCQ off on every SATA disk, one step each, with the caveats', () => {
        const result = plan('queueDepth', '1');
        expect(describePlan(result.plan!)).toBe([
            'echo 1 > /sys/block/sda/device/queue_depth',
            'echo 1 > /sys/block/sdb/device/queue_depth',
            'echo 1 > /sys/block/sdc/device/queue_depth',
        ].join('\n'));
        expect(result.plan!.steps.map(s => (s as WriteAttributeStep).from)).toEqual(['32', '32', '32']);
        expect(result.warnings).toEqual(expect.arrayContaining([
            expect.objectContaining({ message: expect.stringMatching(/^Queue depth 1 turns NCQ off/) }),
            expect.objectContaining({ message: expect.stringMatching(/SSDs: \$0/), args: ['sdc'] }),
            expect.objectContaining({ message: expect.stringMatching(/^Left alone/), args: ['nvme0n1'] }),
            expect.objectContaining({ message: expect.stringMatching(/also hold/), args: ['md1'] }),
        ]));
    });

    test('the simulated kernel takes the writes, and undo puts the old depth back', () => {
        const { sim, host } = start();
        const result = plan('queueDepth', '1', host);
        expect(applyToSim(sim, result.plan!).every(o => o.matches && o.readBack === '1')).toBe(true);
        applyToSim(sim, invertSteps(result.plan!.title, result.plan!.steps));
        expect(['sda', 'sdb', 'sdc'].map(d => attr(sim, `sys/block/${d}/device/queue_depth`))).toEqual(['32', '32', '32']);
    });

    test('a disk that queues less keeps its own maximum: the read-back says so', () => {
        const { sim, host } = start();
        const outcomes = applyToSim(sim, plan('queueDepth', '64', host).plan!);
        expect(outcomes.map(o => [o.path, o.readBack, o.matches])).toEqual([
            ['/sys/block/sda/device/queue_depth', '64', true],
            ['/sys/block/sdb/device/queue_depth', '32', false],
            ['/sys/block/sdc/device/queue_depth', '64', true],
        ]);
    });

    test('without NCQ off there is no NCQ warning; disks already there get no step', () => {
        const result = plan('queueDepth', '32');
        expect(result.plan!.steps).toEqual([]);
        expect(texts(result).some(t => /NCQ/.test(t))).toBe(false);
    });

    test.each([...BAD_TEXT_VALUES, '129', '1024', '255', '0x20', '32 32'])('refuses %j and plans nothing', bad => {
        const result = plan('queueDepth', bad);
        expect(result.plan).toBeUndefined();
        expect(result.errors?.value).toBeDefined();
    });
});

describe('nr_requests', () => {
    test('the same number on every disk that has a request queue', () => {
        const { sim, host } = start();
        const result = plan('nrRequests', '128', host);
        expect(describePlan(result.plan!)).toBe([
            'echo 128 > /sys/block/nvme0n1/queue/nr_requests',
            'echo 128 > /sys/block/sda/queue/nr_requests',
            'echo 128 > /sys/block/sdb/queue/nr_requests',
            'echo 128 > /sys/block/sdc/queue/nr_requests',
        ].join('\n'));
        // SATA with mq-deadline: twice the 32 tags; NVMe without a scheduler: its 1023 tags.
        expect(result.plan!.steps.map(s => (s as WriteAttributeStep).from)).toEqual(['1023', '64', '64', '64']);
        expect(applyToSim(sim, result.plan!).every(o => o.matches)).toBe(true);
    });

    test('refuses more than the hardware queue\'s tags where no scheduler is in use, with the reason', () => {
        const { sim, host } = start();
        expect(host.disks.get('nvme0n1')).toMatchObject({ hwTags: 1023, scheduler: { current: 'none' } });
        const result = plan('nrRequests', '1024', host);
        expect(result.plan).toBeUndefined();
        expect(result.errors?.value).toEqual({
            message: '$0 use no I/O scheduler: there the kernel takes at most $1 requests, the tags of the hardware queue.',
            args: ['nvme0n1', 1023],
        });
        expect(plan('nrRequests', '1023', host).errors).toBeUndefined(); // nvme0n1 has it already
        // The simulated kernel indeed refuses one more there, and takes the most a scheduler allows elsewhere.
        tee(sim, 'sys/block/nvme0n1/queue/nr_requests', '1024');
        tee(sim, 'sys/block/sda/queue/nr_requests', '2048');
        sim.tick(0);
        expect(attr(sim, 'sys/block/nvme0n1/queue/nr_requests')).toBe('1023');
        expect(attr(sim, 'sys/block/sda/queue/nr_requests')).toBe('2048');
    });

    test.each([...BAD_TEXT_VALUES, '1', '3', '2049', '4096'])('refuses %j and plans nothing', bad => {
        // 1..3 would be turned into 4 by the kernel: refused rather than silently changed.
        const result = plan('nrRequests', bad);
        expect(result.plan).toBeUndefined();
        expect(result.errors?.value).toBeDefined();
    });
});

describe('I/O scheduler', () => {
    test('only schedulers every disk offers', () => {
        expect(schedulerChoices(memberDisks(host, md0()))).toEqual(['none', 'mq-deadline']);
        expect(plan('scheduler', 'bfq').errors?.value?.args).toEqual(['none, mq-deadline']);
    });

    test('a change writes the disks that differ, says nr_requests resets, and undoes', () => {
        const { sim, host } = start();
        const result = plan('scheduler', 'none', host);
        expect(describePlan(result.plan!)).toBe([
            'echo none > /sys/block/sda/queue/scheduler',
            'echo none > /sys/block/sdb/queue/scheduler',
            'echo none > /sys/block/sdc/queue/scheduler',
        ].join('\n'));
        expect(result.plan!.steps.map(s => (s as WriteAttributeStep).from)).toEqual(['mq-deadline', 'mq-deadline', 'mq-deadline']);
        // The preview says what nr_requests becomes: the tags of the hardware queue without a scheduler.
        expect(result.warnings?.find(w => w.message === 'The new scheduler also changes nr_requests: $0.')?.args)
            .toEqual(['sda 64 → 32, sdb 64 → 32, sdc 64 → 32']);
        expect(applyToSim(sim, result.plan!).every(o => o.matches)).toBe(true);
        expect(attr(sim, 'sys/block/sda/queue/nr_requests')).toBe('32');
        const undo = applyToSim(sim, invertSteps(result.plan!.title, result.plan!.steps));
        // Undo goes backwards: sdc, sdb, sda.
        expect(undo.map(o => o.readBack)).toEqual(['none [mq-deadline] ', 'none [mq-deadline] ', 'none [mq-deadline] bfq kyber ']);
    });

    test('the tags unknown: said in general; nr_requests that stays: not said', () => {
        const { host } = start();
        const disks = memberDisks(host, md0()).filter(d => d.scheduler?.current !== 'none');
        const untagged = { ...host, disks: new Map([...host.disks].map(([n, d]) => [n, { ...d, hwTags: null }])) };
        expect(texts(plan('scheduler', 'none', untagged)))
            .toContain('Changing the scheduler also sets nr_requests back to the kernel\'s default for the new scheduler.');
        expect(disks.map(d => nrRequestsAfterSwitch(d, 'mq-deadline'))).toEqual(disks.map(d => d.nrRequests));
        const atDefault = {
            ...host, disks: new Map([...host.disks].map(([n, d]) => [n, { ...d, nrRequests: d.hwTags }])),
        };
        expect(texts(plan('scheduler', 'none', atDefault)).filter(t => t.includes('nr_requests'))).toEqual([]);
    });

    test.each([...BAD_TEXT_VALUES, 'bfq', 'kyber', 'cfq', '[mq-deadline]', 'MQ-DEADLINE', 'mq-deadline; reboot', 'none\nmq-deadline'])(
        'refuses %j and plans nothing', bad => {
            const result = plan('scheduler', bad);
            expect(result.plan).toBeUndefined();
            expect(result.errors?.value).toBeDefined();
        });
});

describe('on a real kernel\'s virtio disks (no queue_depth, no scheduler in use)', () => {
    const files = loadCaptureFiles('raid5-recovery');
    const real = buildModel({ files, pageSize: 4096, missingRoots: [], complete: true }, 0);
    const array = real.arrays[0];

    test('queue depth is not offered, with the reason', () => {
        expect(diskQueueUnavailable(real, array, 'queueDepth')?.message).toMatch(/only SATA and SCSI disks/);
        expect(diskQueuePlan(real, array, 'queueDepth', '1').plan).toBeUndefined();
    });

    test('nr_requests above the 256 the hardware queue holds gets the warning', () => {
        expect(diskQueueUnavailable(real, array, 'nrRequests')).toBeNull();
        expect(diskQueuePlan(real, array, 'nrRequests', '256').warnings).toEqual([]);
        expect(diskQueuePlan(real, array, 'nrRequests', '512').warnings?.[0].message).toMatch(/no I\/O scheduler/);
    });
});

describe('reading a scheduler back', () => {
    test.each([
        ['mq-deadline', 'none [mq-deadline] bfq ', true],
        ['none', '[none] mq-deadline ', true],
        ['bfq', 'none [mq-deadline] bfq ', false],
        // A device without a choice prints the one word; so does the simulated host right after a write.
        ['none', 'none', true],
        ['none', 'none mq-deadline', false],
    ])('wrote %j, read %j', (written, read, same) => {
        expect(readBackMatches('/sys/block/sda/queue/scheduler', written, read)).toBe(same);
    });
});
