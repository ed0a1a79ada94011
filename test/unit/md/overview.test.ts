// SPDX-License-Identifier: LGPL-2.1-or-later
// The overview's rows (src/md/overview.ts) on the simulated scenarios, read through the gather
// script as the page reads them, and on real-kernel captures: worst first, with the redundancy
// left, md's state words, the operation and one estimate of its end.

import { buildModel } from '../../../src/md/model';
import type { HostModel } from '../../../src/md/modelTypes';
import { overviewRows, SEVERITIES, type OverviewRow } from '../../../src/md/overview';
import type { SimulatedHost } from '../../../sim';
import { loadCaptureFiles } from '../helpers/realKernelCapture';
import { gather, removeTempRoots, startHost } from '../sim/simHelpers';

afterAll(removeTempRoots);

/** Refresh every 2 s for `seconds`, keeping the history like the page (the estimate needs 10 s). */
function watch(scenario: string, seconds: number): HostModel {
    const host: SimulatedHost = startHost(scenario);
    let model: HostModel | null = null;
    for (let t = 0; t < seconds; t += 2) {
        host.tick(2);
        model = buildModel(gather(host), t * 1000, model);
    }
    return model!;
}

function capture(name: string): HostModel {
    return buildModel({ files: loadCaptureFiles(name), pageSize: 4096, missingRoots: [], complete: true }, 0);
}

const summary = (rows: OverviewRow[]) => rows.map(r => [r.name, r.severity, r.mark]);

test('raid6-recovery: degraded, one more failure survived, the rebuild with the own estimate', () => {
    const [row] = overviewRows(watch('raid6-recovery', 20));
    expect(row).toMatchObject({
        name: 'md0', severity: 'degraded', mark: 'warning', level: 'raid6',
        state: ['active', 'degraded', 'recovering'],
        redundancy: { kind: 'survives', failures: 1 },
        operation: { action: 'recover', runState: 'running', percent: expect.closeTo(83.8, 0) },
    });
    // 20 s of samples: the page's own averaged estimate, the kernel's finish= kept beside it.
    const estimate = row.operation!.estimate!;
    expect(estimate.basis).toBe('measured');
    expect(estimate.seconds).toBeGreaterThan(20 * 3600);
    expect(estimate.kernelSeconds! / estimate.seconds).toBeCloseTo(1, 1);
});

test('before the page has its own estimate the kernel\'s stands in', () => {
    const estimate = overviewRows(watch('raid6-recovery', 2))[0].operation!.estimate!;
    expect(estimate.basis).toBe('kernel');
    expect(estimate.seconds).toBe(estimate.kernelSeconds);
});

test('slow-rebuilds: the RAID 5 rebuilds without redundancy first, then the resyncs by name', () => {
    const rows = overviewRows(watch('slow-rebuilds', 20));
    expect(summary(rows)).toEqual([
        ['md0', 'at-risk', 'danger'], ['md1', 'at-risk', 'danger'], ['md2', 'at-risk', 'danger'],
        ['md3', 'syncing', null], ['md4', 'syncing', null], ['md5', 'syncing', null], ['md6', 'syncing', null],
    ]);
    expect(rows[0].redundancy).toEqual({ kind: 'none-left' });
    expect(rows[3].redundancy).toEqual({ kind: 'survives', failures: 2 });
    // A frozen or delayed sync has no end to tell.
    expect(rows[4]).toMatchObject({ state: ['clean', 'resyncing (FROZEN)'], operation: { runState: 'frozen', estimate: null } });
    expect(rows[6]).toMatchObject({ state: ['clean', 'resyncing (DELAYED)'], operation: { runState: 'delayed', estimate: null } });
});

test('degraded-failed: the RAID 5 without redundancy and the RAID 1 that does not run are both at risk', () => {
    const rows = overviewRows(watch('degraded-failed', 2));
    expect(rows).toEqual([
        expect.objectContaining({ name: 'md0', severity: 'at-risk', mark: 'danger', level: 'raid5', state: ['clean', 'degraded'],
            redundancy: { kind: 'none-left' }, operation: null }),
        expect.objectContaining({ name: 'md1', severity: 'at-risk', mark: 'danger', state: ['inactive'],
            redundancy: { kind: 'not-running' } }),
    ]);
});

test('many-arrays: the arrays in trouble come before the idle ones', () => {
    const model = watch('many-arrays', 2);
    const rows = overviewRows(model);
    const ranks = rows.map(r => SEVERITIES.indexOf(r.severity));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(rows[0].severity).not.toBe('healthy');
    expect(rows.some(r => r.severity === 'checking')).toBe(true);
    expect(rows[rows.length - 1].severity).toBe('healthy');
    // Within a severity by name, in natural order (md9 before md10).
    const healthy = rows.filter(r => r.severity === 'healthy').map(r => Number(r.name.slice(2)));
    expect(healthy).toEqual([...healthy].sort((a, b) => a - b));
});

test('real kernel captures: a rebuilding RAID 5 is at risk, a RAID 1 with a spare is healthy', () => {
    expect(overviewRows(capture('raid5-recovery'))[0]).toMatchObject({
        severity: 'at-risk', mark: 'danger', redundancy: { kind: 'none-left' }, operation: { action: 'recover' },
    });
    expect(overviewRows(capture('raid1-with-spare'))[0]).toMatchObject({
        severity: 'healthy', mark: null, redundancy: { kind: 'survives', failures: 1 }, operation: null,
    });
});

test('a level without redundancy is no incident, and names sort naturally', () => {
    const model = capture('raid1-with-spare');
    const like = (name: string, level: string) => ({ ...model.arrays[0], name, device: `/dev/${name}`, level });
    const rows = overviewRows({ ...model, arrays: [like('md10', 'raid1'), like('md9', 'raid0'), like('md2', 'raid1')] });
    expect(rows.map(r => r.name)).toEqual(['md2', 'md9', 'md10']);
    expect(rows[1]).toMatchObject({ severity: 'healthy', mark: null, redundancy: { kind: 'by-design' } });
});
