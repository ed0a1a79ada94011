// SPDX-License-Identifier: LGPL-2.1-or-later
// Runs metrics/raidtune-metrics with the host's python3 (as the managed host would) and checks
// its output with Prometheus' own promtool (Debian's `prometheus` package, tools/install-deps.sh).

import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoryDir } from '../../../tools/memoryDir';

export const SCRIPT = join(__dirname, '../../../metrics/raidtune-metrics');
export const METRICS_DIR = join(__dirname, '../../../metrics');

const dirs: string[] = [];

export function tempDir(prefix = 'raidtune-metrics-'): string {
    const dir = memoryDir(prefix);
    dirs.push(dir);
    return dir;
}

export function removeTempDirs(): void {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface Run { status: number | null; stdout: string; stderr: string }

/**
 * Runs the script itself, so its shebang picks the interpreter, as on the managed host: not a
 * `python3` found first in PATH (a version manager's shim there costs ~0.6 s a start).
 */
export function runScript(args: string[]): Run {
    const result = spawnSync(SCRIPT, args, { encoding: 'utf8', env: { LC_ALL: 'C', PATH: process.env.PATH }, maxBuffer: 256 * 2 ** 20 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The metrics of a tree holding proc/ and sys/; fails the test on a non-zero exit. */
export function metricsOf(root: string, extra: string[] = []): string {
    const run = runScript(['--proc-root', join(root, 'proc'), '--sys-root', join(root, 'sys'), ...extra]);
    if (run.status !== 0) throw new Error(`raidtune-metrics exited ${run.status}: ${run.stderr}`);
    return run.stdout;
}

/** What `promtool check metrics` says about the text (it reads standard input); '' when clean. */
export function promtoolCheckMetrics(text: string): string {
    const result = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
    if (result.error) throw result.error;
    return `${result.stdout}${result.stderr}`.trim() + (result.status === 0 ? '' : ` (exit ${result.status})`);
}

export function promtool(args: string[], cwd?: string): string {
    return execFileSync('promtool', args, { encoding: 'utf8', cwd, stdio: ['ignore', 'pipe', 'pipe'] });
}

export interface Sample { name: string; labels: Record<string, string>; value: number }

/** The exposition lines as samples (label values here never hold quotes or commas). */
export function parseMetrics(text: string): Sample[] {
    const samples: Sample[] = [];
    for (const line of text.split('\n')) {
        if (line === '' || line.startsWith('#')) continue;
        const m = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/);
        if (!m) throw new Error(`not an exposition line: ${line}`);
        const labels: Record<string, string> = {};
        for (const pair of (m[2] ?? '').split(',').filter(Boolean)) {
            const [key, value] = pair.split('=');
            labels[key] = JSON.parse(value);
        }
        samples.push({ name: m[1], labels, value: Number(m[3]) });
    }
    return samples;
}

/** The one sample of `name` whose labels include `labels`; undefined when it is left out. */
export function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
    const found = samples.filter(s => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
    if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${found.length} samples`);
    return found[0]?.value;
}

export function writeFile(path: string, text: string): void {
    writeFileSync(path, text);
}
