// SPDX-License-Identifier: LGPL-2.1-or-later
// Read-ahead of the md device, on a model built from a real kernel's capture (md0 at 2048 KiB).

import { buildModel } from '../../../../src/md/model';
import type { HostModel } from '../../../../src/md/modelTypes';
import { describePlan, type WriteAttributeStep } from '../../../../src/md/plan';
import { readAheadPlan, readAheadUnavailable, setraSectors } from '../../../../src/md/tuning/readAhead';
import { BAD_TEXT_VALUES } from '../../../shared/badValues';
import { loadCaptureFiles } from '../../helpers/realKernelCapture';
import { READ_AHEAD_MAX_KIB } from '../../../../src/md/settings/registry';

function hostFrom(capture: string, pageSize: number | null = 4096): HostModel {
    return buildModel({ files: loadCaptureFiles(capture), pageSize, missingRoots: [], complete: true }, 0);
}

const host = hostFrom('raid5-recovery');
const md0 = host.arrays[0];

test('blockdev --setra counts 512-byte sectors: setra 65536 is 32 MiB', () => {
    expect(setraSectors(32768)).toBe(65536);
    expect(setraSectors(READ_AHEAD_MAX_KIB)).toBe(131072);
});

test('a change writes read_ahead_kb in KiB and remembers the old value', () => {
    const result = readAheadPlan(host, md0, '32768');
    expect(describePlan(result.plan!)).toBe('echo 32768 > /sys/block/md0/queue/read_ahead_kb');
    expect((result.plan!.steps[0] as WriteAttributeStep).from).toBe('2048');
    expect(result.warnings).toEqual([]);
});

test('0 turns read-ahead off: allowed, with a warning', () => {
    const result = readAheadPlan(host, md0, '0');
    expect(describePlan(result.plan!)).toBe('echo 0 > /sys/block/md0/queue/read_ahead_kb');
    expect(result.warnings?.[0].message).toMatch(/^0 turns read-ahead off/);
});

test('only whole pages, which the kernel would round down to', () => {
    expect(readAheadPlan(host, md0, '10').errors?.kib?.args).toEqual([4]);
    expect(readAheadPlan(host, md0, '12').plan).toBeDefined();
    const arm64 = hostFrom('raid5-recovery', 65536);
    expect(readAheadPlan(arm64, arm64.arrays[0], '32').errors?.kib?.message).toMatch(/whole pages/);
    expect(readAheadPlan(arm64, arm64.arrays[0], '128').plan).toBeDefined();
    // Page size unknown: the read-back reports any rounding.
    const unknown = hostFrom('raid5-recovery', null);
    expect(readAheadPlan(unknown, unknown.arrays[0], '10').plan).toBeDefined();
});

test('an array without read_ahead_kb is not offered', () => {
    const array = { ...md0, readAheadKiB: null };
    expect(readAheadUnavailable(array)?.message).toMatch(/read_ahead_kb/);
    expect(readAheadPlan(host, array, '4096').plan).toBeUndefined();
});

// '0' is a valid read-ahead (off); every other common bad value, and values past the range.
test.each([...BAD_TEXT_VALUES.filter(v => v !== '0'), '65537', '131072', '4294967296', '-4'])('refuses %j and plans nothing', bad => {
    const result = readAheadPlan(host, md0, bad);
    expect(result.plan).toBeUndefined();
    expect(result.errors?.kib).toBeDefined();
});
