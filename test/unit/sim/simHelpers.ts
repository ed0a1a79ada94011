// SPDX-License-Identifier: LGPL-2.1-or-later
// Shared helpers for the simulator tests: temp roots, reading the tree, small scenario builders.

import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulatedHost, type SimulatedHost } from '../../../sim';
import { GATHER_SCRIPT } from '../../../src/host/gatherScript';
import { buildModel } from '../../../src/md/model';
import type { HostModel } from '../../../src/md/modelTypes';
import { parseGatherOutput, type Snapshot } from '../../../src/md/snapshot';
import type { ArraySpec, DiskSpec, ScenarioSpec } from '../../../sim/scenario/types';
import { UDEV_DATA } from '../../../sim/kernel/udev';
import { memoryDir } from '../../../tools/memoryDir';

export const FIXTURES = join(__dirname, '../../fixtures/real-kernel');

const roots: string[] = [];

export function tempRoot(): string {
    const root = memoryDir('mdsim-test-');
    roots.push(root);
    return root;
}

export function removeTempRoots(): void {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
}

/** A host on a fresh temp root; removed by removeTempRoots(). */
export function startHost(scenario: ScenarioSpec | string, seed = 1): SimulatedHost {
    return createSimulatedHost(scenario, tempRoot(), { seed });
}

/** What raidtune reads from the host: its gather script run by the real sh and grep on the tree. */
export function gather(host: SimulatedHost): Snapshot {
    return parseGatherOutput(gatherOutput(host));
}

/**
 * The gather script's output as the page receives it; `fast`: a fast read, with diskstats of `disks`
 * ("sda|sdb", all if empty).
 */
/** Refreshes every 2 s for `seconds`, keeping the history as the page does; the last model. */
export function watchHost(host: SimulatedHost, seconds: number, model: HostModel | null = null): HostModel {
    for (let t = 0; t < seconds; t += 2) {
        host.tick(2);
        model = buildModel(gather(host), 0, model);
    }
    return model!;
}

export function gatherOutput(host: SimulatedHost, fast = false, disks = ''): string {
    const roots = [join(host.root, 'proc'), join(host.root, 'sys')];
    const fastArgs = fast ? ['fast', disks] : ['', ''];
    return execFileSync('sh', ['-c', GATHER_SCRIPT, 'raidtune-gather', ...roots, '', '', '', '', '', ...fastArgs,
        join(host.root, UDEV_DATA)],
        { encoding: 'utf8', env: { LC_ALL: 'C', PATH: process.env.PATH }, maxBuffer: 256 * 2 ** 20 });
}

export function read(host: SimulatedHost, path: string): string {
    return readFileSync(join(host.root, path), 'utf8');
}

/** An attribute's value without the trailing newline. */
export function attr(host: SimulatedHost, path: string): string {
    return read(host, path).replace(/\n$/, '');
}

/** What `echo VALUE | tee FILE` does: truncate the file in place and write. */
export function tee(host: SimulatedHost, path: string, value: string): void {
    writeFileSync(join(host.root, path), `${value}\n`);
}

export function md(name: string, attribute: string): string {
    return `sys/block/${name}/md/${attribute}`;
}

/** The mdstat progress of an array: per-device KiB done and total, speed, finish minutes. */
export function progress(host: SimulatedHost,
    name: string): { done: number; total: number; speed: number; finishMin: number; label: string } | null {
    const lines = read(host, 'proc/mdstat').split('\n');
    const start = lines.findIndex(line => line.startsWith(`${name} :`));
    const end = lines.findIndex((line, i) => i > start && /^(md\d+ :|unused)/.test(line));
    const section = start < 0 ? '' : lines.slice(start, end).join('\n');
    const m = /(\w+) =\s*[\d.]+% \((\d+)\/(\d+)\) finish=([\d.]+)min speed=(\d+)K\/sec/.exec(section);
    if (!m) return null;
    return { label: m[1], done: Number(m[2]), total: Number(m[3]), finishMin: Number(m[4]), speed: Number(m[5]) };
}

export function disks(names: string[], spec: Omit<DiskSpec, 'name'>): DiskSpec[] {
    return names.map(name => ({ ...spec, name }));
}

/** A one-array scenario on whole disks sda, sdb, ... */
export function oneArray(array: Omit<ArraySpec, 'name' | 'members'> & { members?: ArraySpec['members'] }, options: {
    disks?: number; diskSpec?: Omit<DiskSpec, 'name'>; kernel?: ScenarioSpec['kernel'];
} = {}): ScenarioSpec {
    const names = Array.from({ length: options.disks ?? 2 }, (_, i) => `sd${String.fromCharCode(97 + i)}`);
    return {
        name: 'test',
        kernel: options.kernel,
        disks: disks(names, options.diskSpec ?? { sizeBytes: 64 * 2 ** 30 }),
        arrays: [{ name: 'md0', members: names.map(device => ({ device })), ...array }],
    };
}
