// SPDX-License-Identifier: LGPL-2.1-or-later
// What an admin reading the tree by hand (cat degraded, sync_completed, sync_speed_min, the
// sysctls) would expect raidtune-metrics to report for each array, and the check of one output.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMetrics, promtoolCheckMetrics, value } from './metricsHelpers';

function attribute(root: string, path: string): string | undefined {
    const file = join(root, path);
    return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

export function arraysIn(root: string): string[] {
    const block = join(root, 'sys/block');
    if (!existsSync(block)) return [];
    return readdirSync(block).filter(name => /^md/.test(name) && existsSync(join(block, name, 'md')));
}

function limitKiB(root: string, array: string, bound: 'min' | 'max'): number | undefined {
    const own = attribute(root, `sys/block/${array}/md/sync_speed_${bound}`)?.match(/^(\d+) \(local\)$/);
    if (own) return Number(own[1]);
    const sysctl = attribute(root, `proc/sys/dev/raid/speed_limit_${bound}`);
    return sysctl === undefined ? undefined : Number(sysctl);
}

/**
 * Asserts promtool finds nothing wrong and each array's degraded count, mismatches, limits and,
 * while a sync runs, its progress against sync_completed (coarse on a real kernel: `progressSlack`).
 */
export function expectMatchesTree(root: string, text: string, progressSlack: number): void {
    expect(promtoolCheckMetrics(text)).toBe('');
    const samples = parseMetrics(text);
    for (const array of arraysIn(root)) {
        const device = { device: array };
        const md = (name: string) => attribute(root, `sys/block/${array}/md/${name}`);
        const degraded = md('degraded');
        expect(value(samples, 'raidtune_md_degraded_disks', device)).toBe(degraded === undefined ? undefined : Number(degraded));
        const mismatches = md('mismatch_cnt');
        expect(value(samples, 'raidtune_md_mismatch_bytes', device)).toBe(mismatches === undefined ? undefined : Number(mismatches) * 512);
        for (const bound of ['min', 'max'] as const) {
            const kib = limitKiB(root, array, bound);
            expect(value(samples, `raidtune_md_sync_speed_limit_${bound}_bytes_per_second`, device))
                .toBe(kib === undefined ? undefined : kib * 1024);
        }
        const action = md('sync_action');
        if (action !== undefined) expect(value(samples, 'raidtune_md_sync_action', { device: array, action })).toBe(1);
        const completed = md('sync_completed')?.match(/^(\d+) \/ (\d+)$/);
        const ratio = value(samples, 'raidtune_md_sync_progress_ratio', device);
        if (action && action !== 'idle' && completed) {
            expect(ratio).toBeDefined();
            const fromSysfs = Number(completed[1]) / Number(completed[2]);
            expect(Math.abs((ratio ?? NaN) - fromSysfs)).toBeLessThanOrEqual(progressSlack);
        } else if (action === 'idle' || action === undefined) {
            expect(ratio).toBeUndefined();
        }
    }
}
