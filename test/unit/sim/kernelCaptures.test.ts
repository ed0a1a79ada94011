// SPDX-License-Identifier: LGPL-2.1-or-later
// The simulator against real-kernel captures (test/fixtures/real-kernel/): for scenarios built
// to be equivalent to each capture, /proc/mdstat must match byte for byte, and the sysfs files
// raidtune reads must exist exactly where the kernel has them, with the same values.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARRAY_ATTRIBUTES, DISK_ATTRIBUTES, MEMBER_ATTRIBUTES } from '../../../src/host/gatherScript';
import type { ArraySpec, MemberSpec, ScenarioSpec } from '../../../sim/scenario/types';
import { FIXTURES, read, removeTempRoots, startHost } from './simHelpers';

const VIRTIO_DISKS = ['vda', 'vdb', 'vdc', 'vdd', 'vde', 'vdf', 'vdg', 'vdh']
    .map(name => ({ name, kind: 'virtio' as const, sizeBytes: 256 * 2 ** 20 }));

/** A capture's host: 8 x 256 MiB virtio disks (QEMU), arrays as given. */
function captureHost(capture: string, arrays: ArraySpec[], syncSpeed?: number): ScenarioSpec {
    // The kernel ran a little over its 1000 KiB/s limit; pinning the limit to the speed it
    // reported makes speed= and finish= come out the same.
    return { name: capture, disks: VIRTIO_DISKS, arrays, kernel: syncSpeed ? { speedLimitMax: syncSpeed } : undefined };
}

function captureUuid(capture: string, array = 'md0'): string | undefined {
    const path = join(FIXTURES, capture, 'sysfs.txt');
    if (!existsSync(path)) return undefined;
    const text = readFileSync(path, 'utf8');
    return new RegExp(`^/sys/block/${array}/md/uuid: (\\S+)$`, 'm').exec(text)?.[1];
}

const inSync = (device: string, slot?: number, desc?: number): MemberSpec => ({ device, slot, desc });

const raid5 = (members: MemberSpec[], extra: Partial<ArraySpec> = {}): ArraySpec =>
    ({ name: 'md0', level: 'raid5', componentSizeKiB: 260096, members, ...extra });

const four = ['vda', 'vdb', 'vdc', 'vdd'].map(d => inSync(d));

const CASES: Record<string, () => ScenarioSpec> = {
    '00-empty': () => captureHost('00-empty', []),
    'raid0-and-linear': () => captureHost('raid0-and-linear', [
        { name: 'md0', level: 'raid0', chunkKiB: 128, componentSizeKiB: 261120, members: [inSync('vda'), inSync('vdb')] },
        { name: 'md1', level: 'linear', componentSizeKiB: 261120, members: [inSync('vdc'), inSync('vdd')] },
    ]),
    'raid1-resync': () => captureHost('raid1-resync', [{
        name: 'md0', level: 'raid1', componentSizeKiB: 261120, members: [inSync('vda'), inSync('vdb')],
        sync: { action: 'resync', doneKiB: 4096 },
    }], 1024),
    'raid1-bitmap-internal-resync': () => captureHost('raid1-bitmap-internal-resync', [{
        name: 'md0', level: 'raid1', componentSizeKiB: 261120, members: [inSync('vda'), inSync('vdb')],
        bitmap: { chunkKiB: 65536 }, sync: { action: 'resync', doneKiB: 4096 },
    }], 1024),
    'raid1-degraded-missing': () => captureHost('raid1-degraded-missing', [{
        name: 'md0', level: 'raid1', componentSizeKiB: 261120, raidDisks: 2, members: [inSync('vda')],
    }]),
    'raid1-with-spare': () => captureHost('raid1-with-spare', [{
        name: 'md0', level: 'raid1', componentSizeKiB: 261120,
        members: [inSync('vda'), inSync('vdb'), { device: 'vdc', role: 'spare' }],
    }]),
    'raid10-resync': () => captureHost('raid10-resync', [{
        name: 'md0', level: 'raid10', componentSizeKiB: 260096, members: four,
        sync: { action: 'resync', doneKiB: 4992 },
    }], 1248),
    'raid5-assume-clean-idle': () => captureHost('raid5-assume-clean-idle', [raid5(four)]),
    'raid5-after-check-idle': () => captureHost('raid5-after-check-idle', [raid5(four, { lastSyncAction: 'repair' })]),
    'raid5-check': () => captureHost('raid5-check', [raid5(four, { sync: { action: 'check', doneKiB: 4608 } })], 1152),
    'raid5-degraded': () => captureHost('raid5-degraded', [raid5([inSync('vda', 0), inSync('vdc', 2, 2)], { raidDisks: 3 })]),
    'raid5-member-failed': () => captureHost('raid5-member-failed', [raid5([
        inSync('vda', 0), { device: 'vdb', role: 'faulty' }, inSync('vdc', 2),
    ], { raidDisks: 3 })]),
    'raid5-recovery': () => captureHost('raid5-recovery', [raid5([
        inSync('vda', 0), inSync('vdc', 2, 2), { device: 'vdd', slot: 1, desc: 3, role: 'recovering' },
    ], { sync: { action: 'recover', doneKiB: 4608 } })], 1152),
    'raid5-initial-build': () => captureHost('raid5-initial-build', [raid5([
        inSync('vda'), inSync('vdb'), inSync('vdc'), { device: 'vdd', desc: 4, role: 'recovering' },
    ], { chunkKiB: 64, componentSizeKiB: 261120, sync: { action: 'recover', doneKiB: 4608 } })], 1152),
    'raid5-initial-resync-force': () => captureHost('raid5-initial-resync-force', [raid5(four, {
        chunkKiB: 64, componentSizeKiB: 261120, sync: { action: 'resync', doneKiB: 4736 },
    })], 1184),
    // Captured right after a write: the array is still "active" and a bitmap page is in use.
    'raid5-bitmap-chunk4M-dirty': () => captureHost('raid5-bitmap-chunk4M-dirty', [raid5(four.slice(0, 3), {
        state: 'active', bitmap: { chunkKiB: 4096, allocatedPages: 1 },
    })]),
    'raid6-resync': () => captureHost('raid6-resync', [{
        name: 'md0', level: 'raid6', componentSizeKiB: 260096, members: four, sync: { action: 'resync', doneKiB: 4608 },
    }], 1152),
    'resync-progress-timeline': () => captureHost('resync-progress-timeline', [{
        name: 'md0', level: 'raid1', componentSizeKiB: 261120, members: [inSync('vda'), inSync('vdb')],
        sync: { action: 'resync', doneKiB: 165888 },
    }], 4122),
};

/** Values that depend on the moment of capture or on the limit pinned above, not on the state. */
const MOMENT_DEPENDENT = /\/(sync_speed|sync_speed_max)$/;

function captureFiles(capture: string): Map<string, string> {
    const files = new Map<string, string>();
    for (const part of ['sysfs.txt', 'members-sysfs.txt']) {
        const path = join(FIXTURES, capture, part);
        if (!existsSync(path)) continue;
        for (const line of readFileSync(path, 'utf8').split('\n')) {
            const m = /^\/(sys\/[^:\s]+): ?(.*)$/.exec(line);
            if (m && !m[2].startsWith('<unreadable') && !m[2].includes(' -> ')) files.set(m[1], m[2]);
        }
    }
    return files;
}

/** The paths the gather script reads, as a test on a tree-relative path. */
function readByRaidtune(path: string): boolean {
    return ARRAY_ATTRIBUTES.some(a => new RegExp(`^sys/block/md\\d+/md/${a}$`).test(path)) ||
        MEMBER_ATTRIBUTES.some(a => new RegExp(`^sys/block/md\\d+/md/dev-[^/]+/${a}$`).test(path)) ||
        DISK_ATTRIBUTES.some(a => new RegExp(`^sys/block/[^/]+/${a}$`).test(path));
}

afterEach(removeTempRoots);

describe('mdstat matches the real kernel byte for byte', () => {
    test.each(Object.keys(CASES))('%s', capture => {
        const scenario = CASES[capture]();
        for (const array of scenario.arrays ?? []) array.uuid = captureUuid(capture, array.name);
        const host = startHost(scenario);
        expect(read(host, 'proc/mdstat')).toBe(readFileSync(join(FIXTURES, capture, 'mdstat'), 'utf8'));
    });
});

describe('sysfs matches the real kernel', () => {
    const withSysfs = Object.keys(CASES).filter(c => existsSync(join(FIXTURES, c, 'sysfs.txt')) && c !== '00-empty');

    test.each(withSysfs)('%s: same attributes present, same values', capture => {
        const scenario = CASES[capture]();
        for (const array of scenario.arrays ?? []) array.uuid = captureUuid(capture, array.name);
        const host = startHost(scenario);
        const kernel = captureFiles(capture);
        const arrays = new Set((scenario.arrays ?? []).map(a => a.name));
        const mdPaths = [...kernel.keys()].filter(p => readByRaidtune(p) && arrays.has(p.split('/')[2]) && p.includes('/md/'));
        for (const path of mdPaths) expect([path, existsSync(join(host.root, path))]).toEqual([path, true]);
        for (const path of kernel.keys()) {
            if (!readByRaidtune(path) || MOMENT_DEPENDENT.test(path) || !existsSync(join(host.root, path))) continue;
            expect([path, read(host, path).replace(/\n$/, '')]).toEqual([path, kernel.get(path)]);
        }
    });

    test('level-specific attributes are absent where the kernel has none', () => {
        const host = startHost(CASES['raid0-and-linear']());
        for (const name of ['degraded', 'sync_action', 'sync_completed', 'mismatch_cnt', 'sync_speed_min', 'stripe_cache_size'])
            expect(existsSync(join(host.root, `sys/block/md0/md/${name}`))).toBe(false);
        const raid1 = startHost(CASES['raid1-with-spare']());
        expect(existsSync(join(raid1.root, 'sys/block/md0/md/stripe_cache_size'))).toBe(false);
        expect(existsSync(join(raid1.root, 'sys/block/md0/md/sync_action'))).toBe(true);
    });
});
