// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #15 on the simulated host: a check held at md/sync_max, read through raidtune's gather
// script every 2 simulated seconds as the page does, is stalled with the reason; the plan that
// writes "max" lets it go on. The simulator's sync_max follows md's max_sync_store.

import { buildModel } from '../../../src/md/model';
import { syncMaxReleasePlan } from '../../../src/md/tuning/syncMax';
import { attr, gather, md, oneArray, progress, removeTempRoots, startHost, tee, watchHost } from '../sim/simHelpers';

afterAll(removeTempRoots);

const GiB = 2 ** 30;
/** A RAID1 check that starts at 0 with sync_max at 1 GiB per disk (as mdcheck writes it). */
const held = oneArray({ level: 'raid1', sync: { action: 'check', donePercent: 0, syncMaxKiB: 1024 * 1024 } },
    { diskSpec: { sizeBytes: 64 * GiB, bandwidthKiBs: 100_000 }, kernel: { speedLimitMax: 50_000 } });

test('held at sync_max: stalled two minutes after it got there, with the reason and the fix', () => {
    const host = startHost(held);
    // 1 GiB at 50 MB/s: there in ~21 s; two minutes later it is stalled.
    let model = watchHost(host, 60);
    expect(progress(host, 'md0')!.done).toBe(1024 * 1024);
    expect(model.arrays[0].sync!.stall).toBeNull();
    model = watchHost(host, 100, model);
    const array = model.arrays[0];
    expect(array.sync!.stall).toMatchObject({ reason: { kind: 'sync-max', sectors: 2 * 1024 * 1024 } });
    expect(array.sync!.stall!.forMs).toBeGreaterThanOrEqual(120000);

    const plan = syncMaxReleasePlan(array).plan!;
    expect(plan.steps).toEqual([expect.objectContaining({ path: '/sys/block/md0/md/sync_max', to: 'max', from: null })]);
    tee(host, md('md0', 'sync_max'), 'max');
    model = watchHost(host, 10, model);
    expect(attr(host, md('md0', 'sync_max'))).toBe('max');
    expect(progress(host, 'md0')!.done).toBeGreaterThan(1024 * 1024);
    expect(model.arrays[0].sync!.stall).toBeNull();
    expect(syncMaxReleasePlan(model.arrays[0]).errors?.syncMax).toBeDefined();
});

test('sync_max may be raised while the sync runs, never lowered (EBUSY); the value comes back', () => {
    const host = startHost(held);
    host.tick(4);
    tee(host, md('md0', 'sync_max'), '1048576');
    host.tick(1);
    expect(attr(host, md('md0', 'sync_max'))).toBe('2097152');
    tee(host, md('md0', 'sync_max'), '4194304');
    host.tick(1);
    expect(attr(host, md('md0', 'sync_max'))).toBe('4194304');
});

test('a reshape standing still with less stripe cache than it needs: that is the reason, with the size it needs', () => {
    // The simulated reshape runs whatever the cache; the same read twice, 130 s apart, stands still.
    const host = startHost('raid5-reshape');
    host.tick(2);
    const files = new Map(gather(host).files);
    files.set('/sys/block/md0/md/stripe_cache_size', '17\n');
    // The page's clock is the host's uptime: without it, the times given here stand.
    files.delete('/proc/uptime');
    const read = { ...gather(host), files };
    const first = buildModel(read, 0);
    const stalled = buildModel(read, 130000, first).arrays[0];
    // 512 KiB chunks of 4 KiB stripe units, four chunks' worth: 512 entries.
    expect(stalled.sync!.stall).toEqual({ since: 0, forMs: 130000, reason: { kind: 'stripe-cache', size: 17, needed: 512 } });
});
