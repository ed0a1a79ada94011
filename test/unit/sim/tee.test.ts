// SPDX-License-Identifier: LGPL-2.1-or-later
// The simulated tee: a write into the simulated tree is applied inside the write, as a sysfs store
// function runs inside write(2). So when tee exits the file reads what the kernel would read back,
// and a refused write failed with the kernel's errno (pinned on Linux 6.1 by test/vm/tuning.test.ts).

import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SimulatedHost } from '../../../sim';
import { inboxDir, REQUEST_SUFFIX } from '../../../sim/mdadm/protocol';
import { runSimulatedTee } from '../../../sim/tee/client';
import type { ScenarioSpec } from '../../../sim/scenario/types';
import { attr, removeTempRoots, startHost, tempRoot } from './simHelpers';

const GiB = 2 ** 30;
const SCENARIO: ScenarioSpec = {
    name: 'tee',
    disks: [
        { name: 'nvme0n1', kind: 'nvme', sizeBytes: 32 * GiB },
        { name: 'nvme1n1', kind: 'nvme', sizeBytes: 32 * GiB },
        { name: 'vda', kind: 'virtio', sizeBytes: 32 * GiB, schedulers: ['mq-deadline'], scheduler: 'mq-deadline' },
    ],
    arrays: [{ name: 'md0', level: 'raid1', members: [{ device: 'nvme0n1' }, { device: 'nvme1n1' }] }],
};

afterAll(removeTempRoots);

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/** `echo VALUE | tee FILE` through the simulated tee, the host serving it as mdsim does when told. */
async function teeNow(host: SimulatedHost, path: string, value: string) {
    const pending = runSimulatedTee([join(host.root, path)], `${value}\n`, host.root);
    while (!readdirSync(inboxDir(host.root)).some(name => name.endsWith(REQUEST_SUFFIX))) await sleep(5);
    host.serveRequests();
    return pending;
}

describe('the simulated tee', () => {
    test('nr_requests above the hardware queue\'s tags without a scheduler: EINVAL, the value kept', async () => {
        const host = startHost(SCENARIO);
        const file = 'sys/block/nvme0n1/queue/nr_requests';
        expect(attr(host, 'sys/block/nvme0n1/mq/0/nr_tags')).toBe('1023');
        expect(await teeNow(host, file, '2000')).toEqual({
            exitCode: 1, stdout: '2000\n', stderr: `tee: ${join(host.root, file)}: Invalid argument\n`,
        });
        expect(attr(host, file)).toBe('1023');
        // With a scheduler up to MAX_SCHED_RQ (2048), no more.
        expect((await teeNow(host, 'sys/block/vda/queue/nr_requests', '2049')).exitCode).toBe(1);
        expect((await teeNow(host, 'sys/block/vda/queue/nr_requests', '2048')).exitCode).toBe(0);
        expect(attr(host, 'sys/block/vda/queue/nr_requests')).toBe('2048');
    });

    test('sync_speed_max: taken and read back as "(local)" as soon as tee exits; too big for an unsigned int: ERANGE', async () => {
        const host = startHost(SCENARIO);
        const file = 'sys/block/md0/md/sync_speed_max';
        expect(await teeNow(host, file, '20000000')).toEqual({ exitCode: 0, stdout: '20000000\n', stderr: '' });
        expect(attr(host, file)).toBe('20000000 (local)');
        expect((await teeNow(host, file, '99999999999')).stderr).toBe(`tee: ${join(host.root, file)}: Numerical result out of range\n`);
        expect(attr(host, file)).toBe('20000000 (local)');
    });

    test('a file outside the simulated /proc and /sys is written as tee writes it', async () => {
        const root = tempRoot();
        const file = join(root, 'note');
        writeFileSync(file, 'old\n');
        expect(await runSimulatedTee([file], 'new\n', root)).toEqual({ exitCode: 0, stdout: 'new\n', stderr: '' });
        expect(existsSync(file)).toBe(true);
        expect(attr({ root } as SimulatedHost, 'note')).toBe('new');
    });
});
