// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #15: a running sync whose position has not moved for two minutes is stalled (src/md/stall.ts).
// The real kernel's raid1-resync capture (6.1), its mdstat position and attributes changed per
// refresh as md would show them, refreshed like the page with the previous model kept.

import { buildModel } from '../../../src/md/model';
import type { HostModel } from '../../../src/md/modelTypes';
import { pageStatus } from '../../../src/md/pageStatus';
import { STALL_AFTER_MS } from '../../../src/md/stall';
import { loadCaptureFiles } from '../helpers/realKernelCapture';

const CAPTURE = 'raid1-resync';
const LINE = '[>....................]  resync =  1.5% (4096/261120) finish=4.1min speed=1024K/sec';

interface Read {
    /** mdstat's KiB done (the capture's 4096 unless given). */
    doneKiB?: number;
    /** Replaces the whole progress line (e.g. resync=DELAYED). */
    line?: string;
    attrs?: Record<string, string>;
}

function snapshot(read: Read) {
    const files = loadCaptureFiles(CAPTURE);
    const mdstat = files.get('/proc/mdstat')!;
    const line = read.line ?? LINE.replace('(4096/', `(${read.doneKiB ?? 4096}/`);
    files.set('/proc/mdstat', mdstat.replace(LINE, line));
    for (const [name, value] of Object.entries(read.attrs ?? {})) files.set(`/sys/block/md0/md/${name}`, `${value}\n`);
    return { files, pageSize: 4096, missingRoots: [], complete: true };
}

/** Refresh at each [seconds, read] in turn, as the page does; the last model. */
function refreshes(steps: [number, Read][]): HostModel {
    let model: HostModel | null = null;
    for (const [seconds, read] of steps) model = buildModel(snapshot(read), seconds * 1000, model);
    return model!;
}

const sync = (model: HostModel) => model.arrays[0].sync!;
/** Every 2 s from `from` to `to` seconds with the same read. */
const every2s = (from: number, to: number, read: Read = {}): [number, Read][] =>
    Array.from({ length: Math.floor((to - from) / 2) + 1 }, (_, i) => [from + 2 * i, read]);

test('a position that stands still for two minutes is stalled, since the first refresh that saw it there', () => {
    expect(sync(refreshes(every2s(0, 118))).stall).toBeNull();
    const stalled = sync(refreshes(every2s(0, 120)));
    expect(stalled.stall).toEqual({ since: 0, forMs: STALL_AFTER_MS, reason: null });
});

test('progress in steps: any movement, however small or rare, starts the count again', () => {
    // md moves 1 KiB at 100 s and then nothing: two minutes from 100 s, not from 0.
    const steps = [...every2s(0, 98), ...every2s(100, 218, { doneKiB: 4097 })];
    expect(sync(refreshes(steps))).toMatchObject({ unmovedSince: 100000, stall: null });
    expect(sync(refreshes([...steps, [220, { doneKiB: 4097 }]])).stall).toMatchObject({ since: 100000, forMs: 120000 });
});

test('a sync paused by the admin (frozen) or waiting for another array (DELAYED) is not stalled', () => {
    const frozen = refreshes(every2s(0, 300, { attrs: { sync_action: 'frozen' } }));
    expect(sync(frozen)).toMatchObject({ runState: 'frozen', unmovedSince: null, stall: null });
    const delayed = refreshes(every2s(0, 300, { line: '\tresync=DELAYED', attrs: { sync_completed: 'none', sync_speed: 'none' } }));
    expect(sync(delayed)).toMatchObject({ runState: 'delayed', stall: null });
    // Resumed after a pause: the count starts when it runs again.
    const resumed = refreshes([...every2s(0, 200, { attrs: { sync_action: 'frozen' } }), ...every2s(202, 300)]);
    expect(sync(resumed)).toMatchObject({ unmovedSince: 202000, stall: null });
});

test('a sync that restarted from the beginning starts its count again', () => {
    const restarted = refreshes([...every2s(0, 100), ...every2s(102, 200, { doneKiB: 0 })]);
    expect(sync(restarted)).toMatchObject({ doneKiB: 0, unmovedSince: 102000, stall: null });
});

test('held at sync_max: the reason, and Cockpit\'s menu icon says so below errors', () => {
    // mdstat counts whole KiB: 4096 KiB is sector 8192, where md waits for sync_max = 8192.
    const held = refreshes(every2s(0, 180, { attrs: { sync_max: '8192' } }));
    expect(sync(held).stall).toEqual({ since: 0, forMs: 180000, reason: { kind: 'sync-max', sectors: 8192 } });
    expect(held.arrays[0].syncMaxSectors).toBe(8192);
    expect(pageStatus(held)).toEqual({
        type: 'warning', title: { message: 'The sync of $0 has made no progress for $1 min', args: ['md0', 3] },
    });
    // sync_max further on: md is not waiting for it, so it is no reason.
    const elsewhere = refreshes(every2s(0, 180, { attrs: { sync_max: '100000' } }));
    expect(sync(elsewhere).stall?.reason).toBeNull();
    expect(sync(refreshes(every2s(0, 180))).stall?.reason).toBeNull();
});

test('a position read from sync_completed (md moves it in coarse steps) must stand still longer', () => {
    // No counters in mdstat (an md-cluster resync another node runs): the position comes from
    // sync_completed, which md may leave where it is for 5 minutes while the sync goes on.
    const coarse: Read = { line: '\tresync=REMOTE', attrs: { sync_completed: '8192 / 522240' } };
    expect(sync(refreshes(every2s(0, 300, coarse)))).toMatchObject({ runState: 'running', coarsePosition: true, stall: null });
    expect(sync(refreshes(every2s(0, 360, coarse))).stall).toMatchObject({ since: 0, forMs: 360000 });
});
