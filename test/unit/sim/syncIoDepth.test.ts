// SPDX-License-Identifier: LGPL-2.1-or-later
// The simulated newer kernel: sync_io_depth files only where the scenario's kernel has them, the
// store functions' rules (md.c sync_io_depth_store, proc_dointvec) and the depth's hold on a busy
// sync's speed.

import { attr, md, oneArray, progress, removeTempRoots, startHost, tee } from './simHelpers';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

afterEach(removeTempRoots);

const GLOBAL = 'proc/sys/dev/raid/sync_io_depth';
const busyRaid1 = oneArray({ level: 'raid1', sync: { action: 'resync', donePercent: 10 }, competingIo: { readKiBs: 8000, writeKiBs: 8000 } },
    { diskSpec: { sizeBytes: 64 * 2 ** 30, bandwidthKiBs: 100_000 }, kernel: { syncIoDepth: 32 } });

test('the 6.1-like scenarios have no sync_io_depth file at all', () => {
    const host = startHost('raid6-recovery');
    expect(existsSync(join(host.root, GLOBAL))).toBe(false);
    expect(existsSync(join(host.root, md('md0', 'sync_io_depth')))).toBe(false);
});

test('the newer kernel: the sysctl and "N (system)" / "N (local)" per array', () => {
    const host = startHost('newer-kernel-rebuild');
    expect(attr(host, GLOBAL)).toBe('32');
    expect(attr(host, md('md0', 'sync_io_depth'))).toBe('32 (system)');
    expect(attr(host, md('md1', 'sync_io_depth'))).toBe('4 (local)');
    tee(host, GLOBAL, '64');
    host.tick(1);
    expect(attr(host, md('md0', 'sync_io_depth'))).toBe('64 (system)');
    expect(attr(host, md('md1', 'sync_io_depth'))).toBe('4 (local)');
});

test('writes as md.c takes them: "system" by prefix, 0 and junk EINVAL, past UINT_MAX ERANGE, past INT_MAX read negative', () => {
    const host = startHost('newer-kernel-rebuild');
    const file = md('md1', 'sync_io_depth');
    for (const bad of ['0', '-1', 'abc', ' 4', '4294967296']) {
        tee(host, file, bad);
        host.tick(1);
        expect([bad, attr(host, file)]).toEqual([bad, '4 (local)']);
    }
    tee(host, file, 'systemwide');
    host.tick(1);
    expect(attr(host, file)).toBe('32 (system)');
    tee(host, file, '3000000000');
    host.tick(1);
    expect(attr(host, file)).toBe('-1294967296 (local)');
    // The sysctl is proc_dointvec: 0 and negative numbers are taken.
    tee(host, GLOBAL, '-5');
    host.tick(1);
    expect(attr(host, GLOBAL)).toBe('-5');
});

test('a busy sync runs above its minimum as far as its depth lets it; a larger depth, faster', () => {
    const host = startHost(busyRaid1);
    host.tick(30);
    const at32 = progress(host, 'md0')!.speed;
    expect(at32).toBeGreaterThan(1000);
    tee(host, md('md0', 'sync_io_depth'), '4');
    host.tick(40);
    const at4 = progress(host, 'md0')!.speed;
    expect(at4).toBeLessThan(at32);
    // Without the kernel feature (6.1): held at the minimum.
    const old = startHost({ ...busyRaid1, kernel: {} });
    old.tick(30);
    expect(progress(old, 'md0')!.speed).toBe(1000);
});
