// SPDX-License-Identifier: LGPL-2.1-or-later
// The model built from captures of Debian's 7.3 kernel (test/fixtures/real-kernel-7, made with
// tools/vm/capture-states.sh): where 7.x words md's state differently from 6.1 (sync_action and
// last_sync_action "recover" for 6.1's "recovery", "idle" for "none", the scheduler in use listed
// last, no bitmap/chunksize once a bitmap is removed), raidtune shows what it shows on 6.1.

import { buildModel } from '../../../src/md/model';
import type { HostModel } from '../../../src/md/modelTypes';
import { CAPTURES_7, loadCaptureFiles } from '../helpers/realKernelCapture';

function hostFrom(capture: string): HostModel {
    const snapshot = { files: loadCaptureFiles(capture, CAPTURES_7), pageSize: 4096, missingRoots: [], complete: true };
    return buildModel(snapshot, 0);
}

function arrayOf(host: HostModel, name: string) {
    const array = host.arrays.find(a => a.name === name);
    if (!array) throw new Error(`no ${name} in the capture`);
    return array;
}

test('a running recovery (sync_action and last_sync_action "recover") is a recovery onto the new member', () => {
    const md0 = arrayOf(hostFrom('raid1-recovery'), 'md0');
    expect(md0.lastSyncAction).toBe('recover');
    expect(md0.sync).toMatchObject({ action: 'recover', runState: 'running', percent: 0.5, doneKiB: 1792, totalKiB: 261120 });
    expect(md0.members.map(m => [m.disk, m.role])).toEqual([['vda', 'active'], ['vdb', 'rebuilding']]);
    expect(md0.health).toBe('degraded');
});

test('a paused recovery is a paused recovery, at the member\'s recovery_start; an idle array frozen has no sync', () => {
    const host = hostFrom('raid1-recovery-frozen');
    const md0 = arrayOf(host, 'md0');
    // mdstat prints no progress line for a frozen recovery: the position is vdb's recovery_start (7680 sectors).
    expect(md0.sync).toMatchObject({ action: 'recover', runState: 'frozen', percent: Math.floor((7680 / (261120 * 2)) * 1000) / 10 });
    expect(md0.syncFrozen).toBe(true);
    const md1 = arrayOf(host, 'md1');
    expect(md1.lastSyncAction).toBe('idle'); // 6.1: "none"
    expect(md1.syncFrozen).toBe(true);
    expect(md1.sync).toBeNull();
    expect(md1.mismatchMeaning).toBe('unknown');
    expect(md1.health).toBe('clean');
});

test('the scheduler in use from "none [mq-deadline]"; a removed bitmap (bitmap/chunksize gone) is no bitmap', () => {
    const host = hostFrom('raid1-bitmap-removed-mq-deadline');
    for (const disk of ['vda', 'vdb'])
        expect(host.disks.get(disk)!.scheduler).toEqual({ current: 'mq-deadline', available: ['none', 'mq-deadline'] });
    expect(host.disks.get('vdc')!.scheduler).toEqual({ current: 'none', available: ['none', 'mq-deadline'] });
    const md0 = arrayOf(host, 'md0');
    expect(md0.bitmap).toBeNull();
    expect(md0.consistencyPolicy).toBe('resync');
    expect(md0.sync).toBeNull();
});
