// SPDX-License-Identifier: LGPL-2.1-or-later
// RAID4/5/6 worker threads (md/group_thread_cnt), on models built from real kernels' captures.

import { buildModel } from '../../../../src/md/model';
import type { HostModel } from '../../../../src/md/modelTypes';
import { describePlan, type WriteAttributeStep } from '../../../../src/md/plan';
import { groupThreadsPlan, groupThreadsUnavailable } from '../../../../src/md/tuning/groupThreads';
import { BAD_TEXT_VALUES } from '../../../shared/badValues';
import { loadCaptureFiles } from '../../helpers/realKernelCapture';
import { GROUP_THREADS_MAX } from '../../../../src/md/settings/registry';

function hostFrom(capture: string): HostModel {
    return buildModel({ files: loadCaptureFiles(capture), pageSize: 4096, missingRoots: [], complete: true }, 0);
}

/** The same host with every disk's queue/rotational set (the capture did not record it). */
function withRotational(host: HostModel, rotational: boolean): HostModel {
    return { ...host, disks: new Map([...host.disks].map(([name, d]) => [name, { ...d, rotational }])) };
}

const host = hostFrom('raid5-recovery'); // group_thread_cnt 0
const md0 = host.arrays[0];

test('a change writes group_thread_cnt and remembers the old count', () => {
    const result = groupThreadsPlan(withRotational(host, false), md0, '4');
    expect(describePlan(result.plan!)).toBe('echo 4 > /sys/block/md0/md/group_thread_cnt');
    expect((result.plan!.steps[0] as WriteAttributeStep).from).toBe('0');
    expect(result.warnings).toEqual([]);
});

test('on rotating disks more threads get a warning; 0 (the default) does not, nor unknown disks', () => {
    const hdds = withRotational(host, true);
    expect(groupThreadsPlan(hdds, md0, '4').warnings).toEqual([expect.objectContaining({ message: expect.stringMatching(/rotating disks/), args: ['md0'] })]);
    expect(groupThreadsPlan(hdds, md0, '0').warnings).toEqual([]);
    expect(groupThreadsPlan(host, md0, '4').warnings).toEqual([]);
});

test('capped far below the kernel\'s 8192', () => {
    expect(groupThreadsPlan(host, md0, String(GROUP_THREADS_MAX)).plan).toBeDefined();
    expect(groupThreadsPlan(host, md0, String(GROUP_THREADS_MAX + 1)).errors?.threads?.args)
        .toEqual([0, GROUP_THREADS_MAX]);
});

test('only RAID 4, 5 and 6, and only where the kernel offers it', () => {
    const raid1 = hostFrom('raid1-with-spare');
    expect(groupThreadsUnavailable(raid1.arrays[0])?.message).toMatch(/RAID 4, 5 and 6/);
    expect(groupThreadsPlan(raid1, raid1.arrays[0], '2').plan).toBeUndefined();
    expect(groupThreadsPlan(host, { ...md0, groupThreadCount: null }, '2').errors?.threads?.message).toMatch(/group_thread_cnt/);
});

// '0' is the kernel's default and valid; every other common bad value, and counts past the cap.
test.each([...BAD_TEXT_VALUES.filter(v => v !== '0'), '33', '64', '8192', '8193'])('refuses %j and plans nothing', bad => {
    const result = groupThreadsPlan(host, md0, bad);
    expect(result.plan).toBeUndefined();
    expect(result.errors?.threads).toBeDefined();
});
