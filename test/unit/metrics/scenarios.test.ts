// SPDX-License-Identifier: LGPL-2.1-or-later
// raidtune-metrics on every simulated scenario's tree: promtool accepts the output and the values
// are the ones the tree holds; a few scenarios' facts checked by name.

import { join } from 'node:path';
import { builtinScenarioNames, createSimulatedHost, type SimulatedHost } from '../../../sim';
import { arraysIn, expectMatchesTree } from './expected';
import { ETA_WINDOW_MS } from '../../../src/md/eta';
import { metricsOf, parseMetrics, removeTempDirs, tempDir, value } from './metricsHelpers';

afterEach(removeTempDirs);

const hosts: SimulatedHost[] = [];
afterEach(() => { for (const host of hosts.splice(0)) host.close(); });

function scenario(name: string): SimulatedHost {
    const host = createSimulatedHost(name, tempDir('raidtune-metrics-sim-'), { seed: 1 });
    hosts.push(host);
    host.tick(5);
    return host;
}

// Like the kernel, the simulator moves sync_completed in steps of 1/16 of the device; the ratio
// comes from mdstat's finer blocks.
const STEP = 1 / 16;
const small = builtinScenarioNames().filter(name => name !== 'many-arrays');

test.each(small)('%s: promtool accepts it and it reports what the tree holds', name => {
    const host = scenario(name);
    expectMatchesTree(host.root, metricsOf(host.root), STEP);
});

test('many-arrays: promtool accepts it and every array is reported', () => {
    const host = createSimulatedHost('many-arrays', tempDir('raidtune-metrics-sim-'), { seed: 1 });
    hosts.push(host);
    const text = metricsOf(host.root);
    expectMatchesTree(host.root, text, STEP);
    const reported = parseMetrics(text).filter(s => s.name === 'raidtune_md_info').map(s => s.labels.device);
    expect(reported.sort()).toEqual(arraysIn(host.root).sort());
}, 180_000);

test('raid6-recovery: one disk missing, 84% recovered, held at speed_limit_min 4000 KiB/s', () => {
    const samples = parseMetrics(metricsOf(scenario('raid6-recovery').root));
    const md0 = { device: 'md0' };
    expect(value(samples, 'raidtune_md_degraded_disks', md0)).toBe(1);
    expect(value(samples, 'raidtune_md_sync_action', { device: 'md0', action: 'recover' })).toBe(1);
    expect(value(samples, 'raidtune_md_sync_progress_ratio', md0)).toBeCloseTo(0.838, 2);
    expect((value(samples, 'raidtune_md_sync_speed_bytes_per_second', md0) ?? NaN) / 1024).toBeCloseTo(4000, -1);
    expect(value(samples, 'raidtune_md_sync_speed_limit_min_bytes_per_second', md0)).toBe(4000 * 1024);
    expect(value(samples, 'raidtune_md_member_state', { device: 'md0', member: 'sde1', state: 'spare' })).toBe(1);
    // No earlier runs (no --state): no smoothed estimate rather than a guess.
    expect(value(samples, 'raidtune_md_sync_remaining_seconds', md0)).toBeUndefined();
});

test('degraded-failed: the faulty member is flagged, the array counts one missing disk', () => {
    const samples = parseMetrics(metricsOf(scenario('degraded-failed').root));
    expect(value(samples, 'raidtune_md_degraded_disks', { device: 'md0' })).toBe(1);
    const faulty = samples.filter(s => s.name === 'raidtune_md_member_state' && s.labels.state === 'faulty' && s.value === 1);
    expect(faulty.map(s => s.labels.device)).toContain('md0');
});

test('check-mismatches: a check 40% through that has found inconsistent stripes', () => {
    const samples = parseMetrics(metricsOf(scenario('check-mismatches').root));
    expect(value(samples, 'raidtune_md_sync_action', { device: 'md0', action: 'check' })).toBe(1);
    expect(value(samples, 'raidtune_md_mismatch_bytes', { device: 'md0' })).toBeGreaterThan(0);
    expect(value(samples, 'raidtune_md_sync_progress_ratio', { device: 'md0' })).toBeCloseTo(0.4, 2);
});

test('frozen: the paused resync reports no speed and no remaining time', () => {
    const host = scenario('frozen');
    const samples = parseMetrics(metricsOf(host.root, ['--state', join(tempDir(), 'state.json')]));
    expect(value(samples, 'raidtune_md_sync_action', { device: 'md0', action: 'frozen' })).toBe(1);
    expect(value(samples, 'raidtune_md_sync_speed_bytes_per_second', { device: 'md0' })).toBeUndefined();
    expect(value(samples, 'raidtune_md_sync_remaining_seconds', { device: 'md0' })).toBeUndefined();
});

test('raid5-reshape: growing to 4 members, its own stripe cache of 4096', () => {
    const samples = parseMetrics(metricsOf(scenario('raid5-reshape').root));
    expect(value(samples, 'raidtune_md_raid_disks', { device: 'md0' })).toBe(4);
    expect(value(samples, 'raidtune_md_stripe_cache_size', { device: 'md0' })).toBe(4096);
    expect(value(samples, 'raidtune_md_sync_action', { device: 'md0', action: 'reshape' })).toBe(1);
});

describe('the smoothed remaining time (--state)', () => {
    function run(host: SimulatedHost, state: string, clock: number) {
        return parseMetrics(metricsOf(host.root, ['--state', state, '--clock', String(clock)]));
    }

    test('its HELP names the window the estimate averages, the page\'s own (src/md/eta.ts) (#31)', () => {
        const host = scenario('raid6-recovery');
        const state = join(tempDir(), 'state.json');
        run(host, state, 1000);
        host.tick(30);
        const text = metricsOf(host.root, ['--state', state, '--clock', '1030']);
        const help = text.split('\n').find(line => line.startsWith('# HELP raidtune_md_sync_remaining_seconds '));
        expect(help).toContain(`averaged over the last ${ETA_WINDOW_MS / 60000} minutes of samples`);
    });

    test('appears once runs span 10 s, from the progress averaged over them', () => {
        const host = scenario('raid6-recovery');
        const state = join(tempDir(), 'state.json');
        expect(value(run(host, state, 1000), 'raidtune_md_sync_remaining_seconds', { device: 'md0' })).toBeUndefined();
        host.tick(30);
        const later = run(host, state, 1030);
        const ratio = value(later, 'raidtune_md_sync_progress_ratio', { device: 'md0' }) ?? NaN;
        const remaining = value(later, 'raidtune_md_sync_remaining_seconds', { device: 'md0' });
        // 4000 KiB/s per device over the rest of a 2 TB member: about 22 hours in all, 16% left.
        const memberKiB = 1953381440;
        expect(remaining).toBeDefined();
        expect(Math.abs((remaining ?? NaN) - (1 - ratio) * memberKiB / 4000) / (remaining ?? NaN)).toBeLessThan(0.05);
    });

    test('starts afresh when the sync restarts (progress goes backwards)', () => {
        const host = scenario('raid6-recovery');
        const state = join(tempDir(), 'state.json');
        run(host, state, 1000);
        host.tick(30);
        expect(value(run(host, state, 1030), 'raidtune_md_sync_remaining_seconds', { device: 'md0' })).toBeDefined();
        const fresh = scenario('raid6-recovery');
        host.tick(1); // the old host stays open; only its samples matter
        expect(value(run(fresh, state, 1031), 'raidtune_md_sync_remaining_seconds', { device: 'md0' })).toBeUndefined();
    });
});
