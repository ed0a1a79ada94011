// SPDX-License-Identifier: LGPL-2.1-or-later
// The example alert rules (metrics/raidtune-alerts.yml): promtool accepts them, its rule unit
// tests (raidtune-alerts.test.yml) pass with a firing case for every rule, and every series the
// rules use is one raidtune-metrics writes.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulatedHost } from '../../../sim';
import { METRICS_DIR, metricsOf, parseMetrics, promtool, removeTempDirs, tempDir } from './metricsHelpers';

afterEach(removeTempDirs);

const RULES = join(METRICS_DIR, 'raidtune-alerts.yml');
const TESTS = join(__dirname, 'raidtune-alerts.test.yml');
const rules = readFileSync(RULES, 'utf8');
const alertNames = [...rules.matchAll(/^\s+- alert: (\w+)$/gm)].map(m => m[1]);

test('promtool check rules accepts the four rules', () => {
    expect(alertNames).toEqual(['RaidArrayDegraded', 'RaidSyncStalled', 'RaidSyncSlowerThanLimits', 'RaidMismatchesAfterCheck']);
    expect(promtool(['check', 'rules', RULES])).toMatch(/SUCCESS: 4 rules found/);
});

test('promtool test rules passes, with a case where each rule fires', () => {
    expect(promtool(['test', 'rules', TESTS])).toMatch(/SUCCESS/);
    const cases = readFileSync(TESTS, 'utf8');
    for (const name of alertNames)
        expect(cases).toMatch(new RegExp(`alertname: ${name}\\n\\s+exp_alerts:\\n\\s+- exp_labels`));
});

test('every series the rules use is one raidtune-metrics writes', () => {
    const written = new Set<string>();
    for (const scenario of ['raid6-recovery', 'check-mismatches', 'degraded-failed']) {
        const host = createSimulatedHost(scenario, tempDir(), { seed: 1 });
        try {
            for (const sample of parseMetrics(metricsOf(host.root))) written.add(sample.name);
        } finally {
            host.close();
        }
    }
    const used = new Set([...rules.matchAll(/raidtune_md_\w+/g)].map(m => m[0]));
    expect(used.size).toBeGreaterThan(0);
    expect([...used].filter(name => !written.has(name))).toEqual([]);
});
