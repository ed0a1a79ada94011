// SPDX-License-Identifier: LGPL-2.1-or-later
// raidtune-metrics on the trees real kernels held (Linux 6.1 and 7.3 captures in test/fixtures).

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CAPTURES, CAPTURES_7, loadCaptureFiles, writeTree } from '../helpers/realKernelCapture';
import { expectMatchesTree } from './expected';
import { metricsOf, parseMetrics, removeTempDirs, tempDir, value } from './metricsHelpers';

afterEach(removeTempDirs);

function captureTree(name: string, captures = CAPTURES): string {
    const root = tempDir('raidtune-metrics-capture-');
    writeTree(root, loadCaptureFiles(name, captures));
    return root;
}

/** The captures that hold the sysfs tree (resync-progress-timeline has mdstat only). */
function treeCaptures(captures: string): string[] {
    return readdirSync(captures).filter(name => existsSync(join(captures, name, 'sysfs.txt')));
}
const captures6 = treeCaptures(CAPTURES);
const captures7 = treeCaptures(CAPTURES_7);

// A real kernel moves sync_completed in steps of 1/16 of the device; the ratio is mdstat's.
const STEP = 1 / 16;

test.each(captures6)('6.1 %s: promtool accepts it and it reports what the kernel held', name => {
    const root = captureTree(name);
    expectMatchesTree(root, metricsOf(root), STEP);
});

test.each(captures7)('7.3 %s: promtool accepts it and it reports what the kernel held', name => {
    const root = captureTree(name, CAPTURES_7);
    expectMatchesTree(root, metricsOf(root), STEP);
});

test('6.1 raid5-recovery: one disk missing, recovering at the 1000 KiB/s the sysctls allow', () => {
    const samples = parseMetrics(metricsOf(captureTree('raid5-recovery')));
    const md0 = { device: 'md0' };
    expect(value(samples, 'raidtune_md_degraded_disks', md0)).toBe(1);
    expect(value(samples, 'raidtune_md_sync_action', { device: 'md0', action: 'recover' })).toBe(1);
    expect(value(samples, 'raidtune_md_sync_speed_limit_min_bytes_per_second', md0)).toBe(1000 * 1024);
    expect(value(samples, 'raidtune_md_sync_speed_limit_max_bytes_per_second', md0)).toBe(1000 * 1024);
    expect(value(samples, 'raidtune_md_stripe_cache_size', md0)).toBe(256);
});

test('7.3 raid1-recovery-frozen: frozen arrays report no progress, speed or remaining time', () => {
    const samples = parseMetrics(metricsOf(captureTree('raid1-recovery-frozen', CAPTURES_7)));
    expect(value(samples, 'raidtune_md_sync_action', { device: 'md0', action: 'frozen' })).toBe(1);
    expect(value(samples, 'raidtune_md_last_sync_action', { device: 'md0', action: 'recover' })).toBe(1);
    expect(value(samples, 'raidtune_md_sync_progress_ratio', { device: 'md0' })).toBeUndefined();
    expect(value(samples, 'raidtune_md_sync_speed_bytes_per_second', { device: 'md0' })).toBeUndefined();
    // raid1 has no stripe cache: left out, not 0.
    expect(value(samples, 'raidtune_md_stripe_cache_size', { device: 'md0' })).toBeUndefined();
});
