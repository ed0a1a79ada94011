// SPDX-License-Identifier: LGPL-2.1-or-later
// The example alert rules (metrics/raidtune-alerts.yml): promtool accepts them, its rule unit
// tests (raidtune-alerts.test.yml) pass with a firing case for every rule, and every series the
// rules use is one raidtune-metrics writes.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulatedHost } from '../../../sim';
import { METRICS_DIR, metricsOf, parseMetrics, promtool, removeTempDirs, tempDir } from './metricsHelpers';

afterEach(removeTempDirs);

const RULES = join(METRICS_DIR, 'raidtune-alerts.yml');
const TESTS = join(__dirname, 'raidtune-alerts.test.yml');
const rules = readFileSync(RULES, 'utf8');
const alertNames = [...rules.matchAll(/^\s+- alert: (\w+)$/gm)].map(m => m[1]);

test('promtool check rules accepts the five rules', () => {
    expect(alertNames).toEqual(['RaidArrayDegraded', 'RaidArrayNotRunning', 'RaidSyncStalled', 'RaidSyncSlowerThanLimits',
        'RaidMismatchesAfterCheck']);
    expect(promtool(['check', 'rules', RULES])).toMatch(/SUCCESS: 5 rules found/);
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

test('an inactive array (degraded-failed md1: its members failed, it did not start) fires a rule: it has no degraded count (#31)', () => {
    const host = createSimulatedHost('degraded-failed', tempDir(), { seed: 1 });
    let samples;
    try {
        samples = parseMetrics(metricsOf(host.root));
    } finally {
        host.close();
    }
    // md has no md/degraded for an array that does not run: RaidArrayDegraded cannot see it.
    expect(samples.filter(s => s.name === 'raidtune_md_degraded_disks' && s.labels.device === 'md1')).toEqual([]);
    const info = samples.find(s => s.name === 'raidtune_md_info' && s.labels.device === 'md1')!;
    expect(info.labels.array_state).toBe('inactive');
    // The rule's own selector, evaluated by promtool on md1's series as written.
    const dir = tempDir();
    const series = `raidtune_md_info{${Object.entries(info.labels).map(([k, v]) => `${k}="${v}"`).join(',')}}`;
    writeFileSync(join(dir, 'rules.yml'), rules);
    writeFileSync(join(dir, 'test.yml'), [
        'rule_files: [rules.yml]', 'tests:', '  - interval: 30s', '    input_series:', `      - series: '${series}'`, "        values: '1x10'",
        '    alert_rule_test:', '      - eval_time: 2m', '        alertname: RaidArrayNotRunning', '        exp_alerts:',
        `          - exp_labels: { severity: critical, ${Object.entries(info.labels).map(([k, v]) => `${k}: "${v}"`).join(', ')} }`,
        '            exp_annotations:', '              summary: "md1 on  is not running (array_state inactive)"',
        '              description: "Its data cannot be reached until it is assembled again (mdadm --detail /dev/md1, mdadm --assemble --scan)."', '',
    ].join('\n'));
    expect(promtool(['test', 'rules', 'test.yml'], dir)).toMatch(/SUCCESS/);
});
