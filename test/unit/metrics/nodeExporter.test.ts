// SPDX-License-Identifier: LGPL-2.1-or-later
// A real node_exporter (Debian's prometheus-node-exporter) with only its textfile collector, on a
// free loopback port, reading what raidtune-metrics --output wrote: it serves raidtune's series
// and reports no textfile error.

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createSimulatedHost } from '../../../sim';
import { parseMetrics, removeTempDirs, runScript, tempDir, value } from './metricsHelpers';

let exporter: ChildProcess | undefined;
afterEach(() => {
    exporter?.kill('SIGTERM');
    exporter = undefined;
    removeTempDirs();
});

function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const server = createServer();
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => {
            const address = server.address();
            server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
        });
    });
}

/** The exporter's /metrics once it answers; it fails when the exporter exits first or never answers. */
async function scrape(port: number, child: ChildProcess): Promise<string> {
    let exited = false;
    child.once('exit', () => { exited = true; });
    for (let attempt = 0; attempt < 300; attempt++) {
        if (exited) throw new Error('prometheus-node-exporter exited');
        try {
            const response = await fetch(`http://127.0.0.1:${port}/metrics`);
            return await response.text();
        } catch {
            await new Promise(resolve => setTimeout(resolve, 100));
        }
    }
    throw new Error(`prometheus-node-exporter never answered on port ${port}`);
}

test('prometheus-node-exporter serves the metrics raidtune-metrics wrote', async () => {
    const host = createSimulatedHost('raid6-recovery', tempDir(), { seed: 1 });
    const textfiles = tempDir();
    try {
        const run = runScript(['--proc-root', join(host.root, 'proc'), '--sys-root', join(host.root, 'sys'),
            '--output', join(textfiles, 'raidtune.prom')]);
        expect(run.status).toBe(0);
    } finally {
        host.close();
    }
    const port = await freePort();
    exporter = spawn('prometheus-node-exporter', ['--collector.disable-defaults', '--collector.textfile',
        `--collector.textfile.directory=${textfiles}`, `--web.listen-address=127.0.0.1:${port}`], { stdio: 'ignore' });
    const samples = parseMetrics((await scrape(port, exporter)).split('\n')
        .filter(line => /^(raidtune_md_|node_textfile_scrape_error)/.test(line)).join('\n'));
    expect(value(samples, 'node_textfile_scrape_error')).toBe(0);
    expect(value(samples, 'raidtune_md_degraded_disks', { device: 'md0' })).toBe(1);
    expect(value(samples, 'raidtune_md_sync_action', { device: 'md0', action: 'recover' })).toBe(1);
    expect(value(samples, 'raidtune_md_sync_progress_ratio', { device: 'md0' })).toBeCloseTo(0.838, 2);
}, 60_000);
