// SPDX-License-Identifier: LGPL-2.1-or-later
// /proc/mdstat captured from a real Linux 6.1 kernel (test/fixtures/real-kernel, one folder per
// state; its README.md says how it was made). Two checks per capture: the values a person would
// read off it, written out by hand, and agreement with the sysfs tree captured at the same moment.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseMdstat, type MdstatArray, type MdstatBitmap, type MdstatSync } from '../../../src/md/mdstat';

const KERNEL_DIR = path.join(__dirname, '../../fixtures/real-kernel');
const PERSONALITIES = ['linear', 'raid0', 'raid1', 'raid10', 'raid6', 'raid5', 'raid4'];

const read = (folder: string, file: string) => fs.readFileSync(path.join(KERNEL_DIR, folder, file), 'utf8');
const captures = fs.readdirSync(KERNEL_DIR).filter(f => fs.existsSync(path.join(KERNEL_DIR, f, 'mdstat'))).sort();

/** Members in mdstat's own notation, so the expectations below read like the capture. */
function membersText(array: MdstatArray): string {
    const letter = { faulty: 'F', spare: 'S', 'write-mostly': 'W', replacement: 'R', journal: 'J' };
    return array.members.map(m => `${m.name}[${m.role}]${m.flags.map(f => `(${letter[f]})`).join('')}`).join(' ');
}

interface Expected {
    name: string;
    level: string;
    members: string;
    blocks: number;
    disks: [number, number] | null;
    status: string | null;
    chunkKiB: number | null;
    sync: MdstatSync | null;
    bitmap: MdstatBitmap | null;
    extra?: Partial<MdstatArray>;
}

const running = (action: string, percent: number, done: number, total: number, finishMinutes: number,
    speedKiBs: number): MdstatSync => ({ action, state: 'running', percent, done, total, finishMinutes, speedKiBs });

const bitmap = (pagesUsed: number, pagesTotal: number, sizeKiB: number, chunkKiB: number): MdstatBitmap =>
    ({ pagesUsed, pagesTotal, sizeKiB, chunkKiB, file: null });

const raid1 = (members: string, disks: [number, number], status: string, sync: MdstatSync | null = null,
    map: MdstatBitmap | null = null): Expected =>
    ({ name: 'md0', level: 'raid1', members, blocks: 261120, disks, status, chunkKiB: null, sync, bitmap: map });

const raid5 = (members: string, blocks: number, chunkKiB: number, disks: [number, number], status: string,
    sync: MdstatSync | null = null, map: MdstatBitmap | null = null): Expected =>
    ({ name: 'md0', level: 'raid5', members, blocks, disks, status, chunkKiB, sync, bitmap: map, extra: { algorithm: 2 } });

const EXPECTED: Record<string, Expected[]> = {
    '00-empty': [],
    'raid0-and-linear': [
        {
            name: 'md1', level: 'linear', members: 'vdd[1] vdc[0]', blocks: 522240, disks: null, status: null,
            chunkKiB: null, sync: null, bitmap: null, extra: { roundingKiB: 0 },
        },
        {
            name: 'md0', level: 'raid0', members: 'vdb[1] vda[0]', blocks: 522240, disks: null, status: null,
            chunkKiB: 128, sync: null, bitmap: null,
        },
    ],
    'raid1-bitmap-internal-resync': [
        raid1('vdb[1] vda[0]', [2, 2], 'UU', running('resync', 1.5, 4096, 261120, 4.1, 1024), bitmap(1, 1, 4, 65536)),
    ],
    'raid1-degraded-missing': [raid1('vda[0]', [2, 1], 'U_')],
    'raid1-resync': [raid1('vdb[1] vda[0]', [2, 2], 'UU', running('resync', 1.5, 4096, 261120, 4.1, 1024))],
    // Resumed after frozen -> idle: restarts from the checkpoint, not from 0.
    'raid1-resync-unfrozen': [raid1('vdb[1] vda[0]', [2, 2], 'UU', running('resync', 3.3, 8704, 261120, 3.4, 1216))],
    'raid1-with-spare': [raid1('vdc[2](S) vdb[1] vda[0]', [2, 2], 'UU')],
    // raid10 counts its resync over the whole array (520192), not per member like raid1/4/5/6.
    'raid10-resync': [{
        name: 'md0', level: 'raid10', members: 'vdd[3] vdc[2] vdb[1] vda[0]', blocks: 520192, disks: [4, 4],
        status: 'UUUU', chunkKiB: 512, sync: running('resync', 0.8, 4992, 520192, 6.8, 1248), bitmap: null,
        extra: { nearCopies: 2, farCopies: null, offsetCopies: null },
    }],
    // A check/repair stopped with "idle" leaves no trace in mdstat (sysfs last_sync_action says repair).
    'raid5-after-check-idle': [raid5('vdd[3] vdc[2] vdb[1] vda[0]', 780288, 512, [4, 4], 'UUUU')],
    // mdadm refused to start 1 of 3 members and left no array behind.
    'raid5-assemble-too-few': [],
    'raid5-assume-clean-idle': [raid5('vdd[3] vdc[2] vdb[1] vda[0]', 780288, 512, [4, 4], 'UUUU')],
    'raid5-bitmap-chunk4M-dirty': [raid5('vdc[2] vdb[1] vda[0]', 520192, 512, [3, 3], 'UUU', null, bitmap(1, 1, 4, 4096))],
    'raid5-check': [
        raid5('vdd[3] vdc[2] vdb[1] vda[0]', 780288, 512, [4, 4], 'UUUU', running('check', 1.7, 4608, 260096, 3.6, 1152)),
    ],
    'raid5-degraded': [raid5('vdc[2] vda[0]', 520192, 512, [3, 2], 'U_U')],
    // mdadm builds a new RAID5 degraded and recovers onto the last member; vdd is descriptor 4 in slot 3.
    'raid5-initial-build': [
        raid5('vdd[4] vdc[2] vdb[1] vda[0]', 783360, 64, [4, 3], 'UUU_', running('recovery', 1.7, 4608, 261120, 3.6, 1152)),
    ],
    'raid5-initial-resync-force': [
        raid5('vdd[3] vdc[2] vdb[1] vda[0]', 783360, 64, [4, 4], 'UUUU', running('resync', 1.7, 4736, 261120, 3.5, 1184)),
    ],
    'raid5-member-failed': [raid5('vdc[2] vdb[1](F) vda[0]', 520192, 512, [3, 2], 'U_U')],
    'raid5-recovery': [
        raid5('vdd[3] vdc[2] vda[0]', 520192, 512, [3, 2], 'U_U', running('recovery', 1.7, 4608, 260096, 3.6, 1152)),
    ],
    'raid5-recovery-plus-spare': [
        raid5('vde[4](S) vdd[3] vdc[2] vda[0]', 520192, 512, [3, 2], 'U_U',
            running('recovery', 3.5, 9216, 260096, 3.5, 1152)),
    ],
    'raid6-resync': [{
        name: 'md0', level: 'raid6', members: 'vdd[3] vdc[2] vdb[1] vda[0]', blocks: 520192, disks: [4, 4],
        status: 'UUUU', chunkKiB: 512, sync: running('resync', 1.7, 4608, 260096, 3.6, 1152), bitmap: null,
        extra: { algorithm: 2 },
    }],
    'resync-progress-timeline': [raid1('vdb[1] vda[0]', [2, 2], 'UU', running('resync', 63.4, 165888, 261120, 0.3, 4122))],
};

describe.each(captures)('real kernel: %s', folder => {
    const result = parseMdstat(read(folder, 'mdstat'));

    it('is read without problems, personalities included', () => {
        expect(result.problems).toEqual([]);
        expect(result.personalities).toEqual(PERSONALITIES);
    });

    it('gives the values a person reads off the capture', () => {
        expect(EXPECTED[folder]).toBeDefined();
        expect(result.arrays.map(a => ({
            name: a.name, level: a.level, members: membersText(a), blocks: a.blocks,
            disks: a.disks && [a.disks.total, a.disks.active], status: a.status, chunkKiB: a.chunkKiB,
            sync: a.sync, bitmap: a.bitmap,
        }))).toEqual(EXPECTED[folder].map(({ extra: _extra, ...rest }) => rest));
        for (const [i, expected] of EXPECTED[folder].entries()) {
            expect(result.arrays[i]).toMatchObject({ state: 'active', readOnly: false, super: '1.2', ...expected.extra });
        }
    });
});

/** sysfs.txt holds `path: value` lines. */
function readSysfs(folder: string): Map<string, string> {
    const values = new Map<string, string>();
    for (const line of read(folder, 'sysfs.txt').split('\n')) {
        const colon = line.indexOf(': ');
        if (line.startsWith('/sys/') && colon > 0) values.set(line.slice(0, colon), line.slice(colon + 2).trim());
    }
    return values;
}

// sysfs sync_action words for what mdstat prints (a repair prints as resync).
const MDSTAT_ACTION: Record<string, string> = {
    resync: 'resync', recover: 'recovery', check: 'check', repair: 'resync', reshape: 'reshape',
};

const withSysfs = captures.filter(f => fs.existsSync(path.join(KERNEL_DIR, f, 'sysfs.txt')));

describe.each(withSysfs)('agrees with sysfs: %s', folder => {
    const sysfs = readSysfs(folder);
    const arrays = parseMdstat(read(folder, 'mdstat')).arrays;

    it('lists exactly the arrays sysfs has', () => {
        const inSysfs = new Set([...sysfs.keys()].map(p => /^\/sys\/block\/(md[^/]+)\/md\//.exec(p)?.[1]).filter(Boolean));
        expect(arrays.map(a => a.name).sort()).toEqual([...inSysfs].sort());
    });

    for (const array of arrays) {
        it(array.name, () => checkAgainstSysfs(sysfs, array));
    }
});

/** Every mdstat value that sysfs also shows must match it. */
function checkAgainstSysfs(sysfs: Map<string, string>, array: MdstatArray): void {
    const name = array.name;
    const attr = (key: string) => sysfs.get(`/sys/block/${name}/md/${key}`);
    expect(array.level).toBe(attr('level'));
    expect(array.super).toBe(attr('metadata_version'));
    expect(array.state).toBe('active');
    expect(array.readOnly).toBe(attr('array_state') === 'read-auto' ? 'auto-read-only' : false);
    // mdstat counts 1 KiB blocks, sysfs 512-byte sectors.
    expect((array.blocks ?? NaN) * 2).toBe(Number(sysfs.get(`/sys/block/${name}/size`)));
    // raid1 has no chunk (sysfs 0); linear prints its chunk as "0k rounding".
    expect((array.chunkKiB ?? array.roundingKiB ?? 0) * 1024).toBe(Number(attr('chunk_size')));
    if (array.disks) {
        expect(array.disks.total).toBe(Number(attr('raid_disks')));
        expect(array.disks.total - array.disks.active).toBe(Number(attr('degraded')));
    }

    const prefix = `/sys/block/${name}/md/dev-`;
    const devices = [...sysfs.keys()].flatMap(p => (p.startsWith(prefix) && p.endsWith('/state')
        ? [p.slice(prefix.length, -'/state'.length)] : []));
    expect(array.members.map(m => m.name).sort()).toEqual(devices.sort());
    for (const member of array.members) {
        const state = attr(`dev-${member.name}/state`) ?? '';
        const faulty = state.split(',').includes('faulty');
        expect({ member: member.name, faulty: member.flags.includes('faulty') }).toEqual({ member: member.name, faulty });
        // (S) means "no slot"; a member being rebuilt is a sysfs spare but already has its slot.
        const spare = !faulty && attr(`dev-${member.name}/slot`) === 'none';
        expect({ member: member.name, spare: member.flags.includes('spare') }).toEqual({ member: member.name, spare });
    }

    const action = attr('sync_action') ?? 'idle';
    if (action === 'idle') {
        expect(array.sync).toBeNull();
    } else {
        expect(array.sync?.action).toBe(MDSTAT_ACTION[action]);
        // Both count the same span (per member, or the whole array for raid10); sysfs in sectors.
        const totalSectors = Number(attr('sync_completed')?.split('/')[1]);
        expect((array.sync?.total ?? NaN) * 2).toBe(totalSectors);
    }

    if (attr('bitmap/location') === 'none') expect(array.bitmap).toBeNull();
    else expect((array.bitmap?.chunkKiB ?? NaN) * 1024).toBe(Number(attr('bitmap/chunksize')));
}

it('the bracket number is the descriptor, not the slot (raid5-initial-build: vdd[4] sits in slot 3)', () => {
    const vdd = parseMdstat(read('raid5-initial-build', 'mdstat')).arrays[0].members.find(m => m.name === 'vdd');
    expect(vdd?.role).toBe(4);
    expect(readSysfs('raid5-initial-build').get('/sys/block/md0/md/dev-vdd/slot')).toBe('3');
});

describe('resync-progress-timeline: mdstat sampled every 2 s during one resync', () => {
    const samples = read('resync-progress-timeline', 'timeline.txt').split('\n')
        .map(line => /mdstat=\[(.*?)\] sync_completed=\[\d+ \/ (\d+)\]/.exec(line))
        .filter((m): m is RegExpExecArray => m !== null);
    // Each sample is the progress line only; give it the stanza it came from.
    const syncs = samples.map(([, progress]) => parseMdstat(
        `md0 : active raid1 vdb[1] vda[0]\n      261120 blocks super 1.2 [2/2] [UU]\n      [=>...]  ${progress}\n\nunused devices: <none>\n`,
    ));

    it('reads every sample as a running resync over the same per-member span', () => {
        expect(samples.length).toBeGreaterThan(10);
        for (const [i, result] of syncs.entries()) {
            expect(result.problems).toEqual([]);
            expect(result.arrays[0].sync).toMatchObject({ action: 'resync', state: 'running', total: 261120 });
            expect((result.arrays[0].sync?.total ?? NaN) * 2).toBe(Number(samples[i][2]));
        }
    });

    it('sees progress move forward smoothly', () => {
        const done = syncs.map(r => r.arrays[0].sync?.done ?? NaN);
        const percent = syncs.map(r => r.arrays[0].sync?.percent ?? NaN);
        expect(done.every((d, i) => i === 0 || d > done[i - 1])).toBe(true);
        expect(percent.every((p, i) => i === 0 || p > percent[i - 1])).toBe(true);
        // The kernel prints the percentage truncated to one decimal: it never runs ahead of the counters.
        for (const [i, p] of percent.entries()) expect(p).toBeLessThanOrEqual((done[i] / 261120) * 100);
    });
});
