// SPDX-License-Identifier: LGPL-2.1-or-later
// Which devices can take a member's place (issue #34): lsblk's and wipefs's JSON as util-linux 2.38
// prints them (the shapes were taken from `lsblk --json --bytes` and `wipefs --no-act --json` on
// Debian 12), a RHEL-like host of three arrays on partitions of two disks, and the devices beside.

import { parseLsblk, parseWipefs, type Signature } from '../../../../src/md/replace/blockDevices';
import {
    judgeCandidates, minimumMemberBytes, offeredCandidates, replacementNeeds,
    type CandidateVerdict, type ReplacementNeeds,
} from '../../../../src/md/replace/candidates';
import { buildModel } from '../../../../src/md/model';
import { loadCaptureFiles } from '../../helpers/realKernelCapture';
import type { Message } from '../../../../src/md/message';
import { lsblkEntry, type LsblkEntry } from './lsblkEntry';

const GiB = 1024 ** 3;
const TB = 1e12;

type Entry = LsblkEntry;
const dev = lsblkEntry;

/** sda and sdb: /boot (md0), / (md1) and data (md2) as RAID 1, 1, 5 on their partitions; sdc's are gone. */
function memberDisk(name: string): Entry {
    return dev(name, 'disk', 4 * TB, { pttype: 'gpt', serial: `WD-${name}`, wwn: `0x50014ee2${name}`, tran: 'sata' }, [
        dev(`${name}1`, 'part', GiB, {}, [dev('md0', 'raid1', GiB - 2 ** 20, { mountpoints: ['/boot'] })]),
        dev(`${name}2`, 'part', 100 * GiB, {}, [dev('md1', 'raid1', 100 * GiB - 2 ** 20, { mountpoints: ['/'] })]),
        dev(`${name}3`, 'part', 3 * TB, {}, [dev('md2', 'raid5', 6 * TB, { mountpoints: ['/srv'] })]),
    ]);
}

const LSBLK = JSON.stringify({
    blockdevices: [
        dev('zram0', 'disk', 0, { 'log-sec': 4096, 'rota': false }),
        memberDisk('sda'),
        memberDisk('sdb'),
        dev('sdd', 'disk', 4 * TB, { serial: 'WD-NEW1', tran: 'sata' }),
        dev('sde', 'disk', 4 * TB, { pttype: 'gpt' }, [dev('sde1', 'part', 4 * TB - 2 ** 20)]),
        dev('sdf', 'disk', 2 * TB),
        dev('sdg', 'disk', 4 * TB, { 'log-sec': 4096 }),
        dev('sdh', 'disk', 4 * TB, { 'rota': false, 'phy-sec': 512 }),
        dev('sdi', 'disk', 4 * TB, {}, [dev('sdi1', 'part', 4 * TB, {}, [dev('vg-data', 'lvm', 4 * TB)])]),
        dev('sdj', 'disk', 4 * TB, {}, [dev('sdj1', 'part', 8 * GiB, { mountpoints: ['[SWAP]'] })]),
        dev('sdk', 'disk', 4 * TB, { ro: true }),
        dev('sr0', 'rom', 1024 ** 3),
    ],
});

/** What md2 (RAID 5, 1.2 metadata, 3 TB partitions) needs of a replacement for sdc3. */
const NEEDS: ReplacementNeeds = {
    array: 'md2',
    logicalBlockBytes: 512,
    minimumBytes: minimumMemberBytes('1.2', 264192, 2_929_555_456, null),
    rotational: true,
    physicalBlockBytes: 4096,
    memberDisks: ['sda', 'sdb'],
};

const interpolated = (m: Message) => m.args.reduce<string>((s, arg, i) => s.replaceAll(`$${i}`, String(arg)), m.message);

function verdicts(signatures: ReadonlyMap<string, Signature[]> = new Map(), needs = NEEDS):
    Map<string, CandidateVerdict> {
    return new Map(judgeCandidates(parseLsblk(LSBLK), signatures, needs).map(v => [v.device.name, v]));
}

const refusals = (v: CandidateVerdict | undefined) => v!.refusals.map(interpolated);

test('lsblk\'s tree is read with its sizes, block sizes, kinds and mounts', () => {
    const [, sda] = parseLsblk(LSBLK);
    expect(sda).toMatchObject({
        name: 'sda', path: '/dev/sda', type: 'disk', sizeBytes: 4 * TB, logicalBlockBytes: 512, physicalBlockBytes: 4096,
        rotational: true, readOnly: false, mountpoints: [], pttype: 'gpt', serial: 'WD-sda', transport: 'sata',
    });
    expect(sda.children.map(c => c.name)).toEqual(['sda1', 'sda2', 'sda3']);
    expect(sda.children[0].children[0]).toMatchObject({ name: 'md0', type: 'raid1', mountpoints: ['/boot'] });
});

test('an older lsblk\'s strings ("1", "512", one mountpoint) read the same', () => {
    const old = JSON.stringify({ blockdevices: [{
        'name': 'sdb', 'size': '4000787030016', 'type': 'disk', 'log-sec': '512', 'phy-sec': '4096', 'rota': '1', 'ro': '0',
        'mountpoint': null, 'fstype': null,
    }] });
    expect(parseLsblk(old)[0]).toMatchObject({
        path: '/dev/sdb', sizeBytes: 4000787030016, logicalBlockBytes: 512, rotational: true, readOnly: false, mountpoints: [],
    });
    expect(() => parseLsblk('{}')).toThrow('lsblk printed no "blockdevices" list');
});

test('wipefs\'s signatures, and none from an empty list or no output', () => {
    const text = '{\n   "signatures": [\n      {\n         "device": "sde1",\n         "offset": "0x438",\n         "type": "ext4",\n' +
        '         "uuid": "e1525de4-f4e7-4256-8bfb-4e4d89fa6a1c",\n         "label": null\n      }\n   ]\n}\n';
    expect(parseWipefs(text)).toEqual([{ device: 'sde1', type: 'ext4', offset: '0x438' }]);
    expect(parseWipefs('{\n   "signatures": [\n\n   ]\n}\n')).toEqual([]);
    expect(parseWipefs('')).toEqual([]);
});

test('a blank disk of the same size and kind is offered, with nothing to say', () => {
    const sdd = verdicts().get('sdd')!;
    expect(sdd.refusals).toEqual([]);
    expect(sdd.warnings).toEqual([]);
    // Without signatures, every device nothing refuses (sdh with its warnings too).
    expect(offeredCandidates([...verdicts().values()], false).map(v => v.device.name)).toEqual(['sdd', 'sde', 'sde1', 'sdh']);
});

test('the array\'s own disks, and free space on them, are refused: one disk would hold two members', () => {
    const all = verdicts();
    expect(refusals(all.get('sda'))).toEqual(['It holds a member of md2 now.']);
    expect(refusals(all.get('sdb3'))).toEqual(['It is on sdb, which holds a member of md2 now: one disk failing would take two members.']);
});

test('devices in use are refused with what uses them', () => {
    const needs = { ...NEEDS, memberDisks: [] };
    const all = verdicts(new Map(), needs);
    expect(refusals(all.get('sda'))).toEqual([
        '/dev/md0 is mounted at /boot.', 'It holds a member of md0.',
        '/dev/md1 is mounted at /.', 'It holds a member of md1.',
        '/dev/md2 is mounted at /srv.', 'It holds a member of md2.',
    ]);
    expect(refusals(all.get('sdi'))).toEqual(['It holds LVM volume vg-data.']);
    expect(refusals(all.get('sdj'))).toEqual(['/dev/sdj1 is in use as swap.']);
    expect(refusals(all.get('sdk'))).toEqual(['The kernel has it read-only.']);
});

test('too small for what md uses of a member: the sizes in binary units', () => {
    expect(refusals(verdicts().get('sdf'))).toEqual(['Too small: 1.82 TiB, and md2 needs at least 2.73 TiB for a member.']);
});

test('a larger logical block than the array\'s is refused on every kernel', () => {
    expect(refusals(verdicts().get('sdg'))).toEqual([
        'Its logical block size is 4096 bytes, larger than the 512 bytes of md2: md cannot use it (Linux 6.19 refuses the add; older kernels take it and then fail the array\'s smaller writes).',
    ]);
    // The other way round is fine: 512-byte blocks in a 4096-byte array.
    expect(verdicts(new Map(), { ...NEEDS, logicalBlockBytes: 4096 }).get('sdd')!.refusals).toEqual([]);
});

test('another kind of disk, or a much smaller physical block, is a warning, not a refusal', () => {
    const sdh = verdicts().get('sdh')!;
    expect(sdh.refusals).toEqual([]);
    expect(sdh.warnings.map(interpolated)).toEqual([
        'A solid-state disk among rotating members: md2 gains little from it, as the array runs at its slowest member\'s pace.',
        'Its physical block is 512 bytes where the other members\' is 4096: an older kind of disk, usually slower.',
    ]);
});

test('a disk with signatures is offered only once the wipe is chosen, its partitions\' signatures counted', () => {
    const signatures = new Map([
        ['sde', [{ device: 'sde', type: 'gpt', offset: '0x200' }]],
        ['sde1', [{ device: 'sde1', type: 'ext4', offset: '0x438' }]],
    ]);
    const all = [...verdicts(signatures).values()];
    const sde = all.find(v => v.device.name === 'sde')!;
    expect(sde.refusals).toEqual([]);
    expect(sde.signatures.map(s => `${s.device}: ${s.type}`)).toEqual(['sde: gpt', 'sde1: ext4']);
    expect(offeredCandidates(all, false).map(v => v.device.name)).toEqual(['sdd', 'sdh']);
    expect(offeredCandidates(all, true).map(v => v.device.name)).toEqual(['sdd', 'sde', 'sde1', 'sdh']);
});

test('RAM disks, optical drives and empty drives are not listed at all', () => {
    const names = [...verdicts().keys()];
    expect(names).not.toContain('zram0');
    expect(names).not.toContain('sr0');
});

describe('the smallest device md can use for a member', () => {
    test('superblock at the start (1.2): the data offset plus what the array uses of each member', () => {
        expect(minimumMemberBytes('1.2', 264192, 1_000_000, 5 * TB)).toBe(264192 * 512 + 1_000_000 * 1024);
        expect(minimumMemberBytes('1.1', 8192, 1_000_000, null)).toBe(8192 * 512 + 1_000_000 * 1024);
    });

    test('superblock at the end (1.0, 0.90): at least the smallest working member', () => {
        expect(minimumMemberBytes('1.0', 0, 1_000_000, 1_100_000 * 1024)).toBe(1_100_000 * 1024);
        expect(minimumMemberBytes('0.90', 0, 1_000_000, null)).toBe(1_000_000 * 1024);
    });
});

describe('what the array asks of a replacement, from its working members', () => {
    const host = buildModel({ files: loadCaptureFiles('raid5-degraded'), pageSize: 4096, missingRoots: [], complete: true }, 0);
    const array = host.arrays[0];
    const MiB = 2 ** 20;
    const tree = parseLsblk(JSON.stringify({ blockdevices: ['vda', 'vdb', 'vdc'].map(name =>
        dev(name, 'disk', (name === 'vdc' ? 300 : 256) * MiB, { 'phy-sec': name === 'vdc' ? 4096 : 512 })) }));

    test('the data offset plus what md uses of each member; the members\' disks; their largest physical block', () => {
        const offset = Math.max(...array.members.map(m => m.dataOffsetSectors ?? 0));
        expect(array.metadata).toBe('1.2');
        expect(offset).toBeGreaterThan(0);
        const needs = replacementNeeds(array, host, { componentKiB: 250 * 1024, logicalBlockBytes: 512 }, tree);
        expect(needs).toMatchObject({
            array: array.name, logicalBlockBytes: 512, minimumBytes: offset * 512 + 250 * MiB, physicalBlockBytes: 4096,
            memberDisks: ['vda', 'vdc'],
        });
        expect(array.members.map(m => m.disk)).toEqual(['vda', 'vdc']);
    });

    test('with the superblock at the end, at least the smallest working member', () => {
        const atEnd = { ...array, metadata: '1.0' };
        const facts = { componentKiB: 250 * 1024, logicalBlockBytes: 512 };
        expect(replacementNeeds(atEnd, host, facts, tree).minimumBytes).toBe(256 * MiB);
    });

    test('the members\' kind: all rotating, all not, or unknown when they differ', () => {
        const disks = (vda: boolean, others: boolean) => new Map([...host.disks].map(([name, disk]) =>
            [name, { ...disk, rotational: name === 'vda' ? vda : others }]));
        const facts = { componentKiB: 1, logicalBlockBytes: 512 };
        const kind = (vda: boolean, others: boolean) =>
            replacementNeeds(array, { ...host, disks: disks(vda, others) }, facts, tree).rotational;
        expect([kind(true, true), kind(false, false), kind(true, false)]).toEqual([true, false, null]);
    });
});
