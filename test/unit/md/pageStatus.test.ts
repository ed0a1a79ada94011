// SPDX-License-Identifier: LGPL-2.1-or-later
import { buildModel } from '../../../src/md/model';
import { pageStatus, type PageStatus } from '../../../src/md/pageStatus';
import { loadCaptureFiles } from '../helpers/realKernelCapture';
import { gather, removeTempRoots, startHost } from '../sim/simHelpers';

afterAll(removeTempRoots);

const NO_REDUNDANCY = '$0 has no redundancy left: one more failed disk loses its data';

function statusOf(capture: string, files: Record<string, string> = {}) {
    const all = loadCaptureFiles(capture);
    for (const [path, content] of Object.entries(files)) all.set(path, `${content}\n`);
    return pageStatus(buildModel({ files: all, pageSize: 4096, missingRoots: [], complete: true }, 0));
}

// Real kernel captures (6.1): what Cockpit's menu entry would carry.
test.each<[string, PageStatus | null]>([
    ['raid1-with-spare', null],
    // A RAID 5 with a slot empty, rebuilding or not: one more failed disk loses its data.
    ...['raid5-recovery', 'raid5-degraded', 'raid5-member-failed'].map((capture): [string, PageStatus] => [capture,
        { type: 'error', title: { message: NO_REDUNDANCY, args: ['md0'] } }]),
    // A RAID 1 of two with one missing: the same.
    ['raid1-degraded-missing', { type: 'error', title: { message: NO_REDUNDANCY, args: ['md0'] } }],
])('%s', (capture, expected) => {
    expect(statusOf(capture)).toEqual(expected);
});

test('a finished check that found mismatches is a warning; a clean one, or a count from a resync, is none', () => {
    const after = (action: string, count: string) => statusOf('raid5-after-check-idle', {
        '/sys/block/md0/md/last_sync_action': action, '/sys/block/md0/md/mismatch_cnt': count,
    });
    expect(after('check', '8')).toEqual({ type: 'warning', title: { message: 'The last check of $0 found mismatches', args: ['md0'] } });
    expect(after('check', '0')).toBeNull();
    expect(after('resync', '8')).toBeNull();
});

test('a RAID 6 rebuilding one slot still survives one more failure: a warning, not an error', () => {
    const host = startHost('raid6-recovery');
    host.tick(2);
    expect(pageStatus(buildModel(gather(host), 0))).toEqual(
        { type: 'warning', title: { message: '$0 is degraded and rebuilding', args: ['md0'] } });
});
