// SPDX-License-Identifier: LGPL-2.1-or-later
// The Replace disk dialog's decisions (issue #34) on a real 6.1 capture (RAID 5 of vda and vdc,
// slot 1 empty) and on the RHEL layout (three arrays on partitions of two disks): which devices are
// offered, why the others are not, and the plan for the one chosen.

import { buildModel } from '../../../../src/md/model';
import type { ArrayModel, HostModel, MemberModel } from '../../../../src/md/modelTypes';
import { describePlan } from '../../../../src/md/plan';
import { parseLsblk, type Signature } from '../../../../src/md/replace/blockDevices';
import { offeredCandidates } from '../../../../src/md/replace/candidates';
import { parseSfdiskDump } from '../../../../src/md/replace/partitionCopy';
import {
    partitionSourceDisk, rebuildBounds, replaceChoices, replaceDiskPlan, tableBytes,
    type ReplaceReads, type ReplaceSituation,
} from '../../../../src/md/replace/replaceDisk';
import { loadCaptureFiles } from '../../helpers/realKernelCapture';
import { lsblkEntry, type LsblkEntry } from './lsblkEntry';

const MiB = 2 ** 20;
/** Physical blocks of 512 bytes, as the VM tier's disks have. */
function dev(name: string, type: string, size: number, extra: LsblkEntry = {},
    children: LsblkEntry[] = []): LsblkEntry {
    return lsblkEntry(name, type, size, { 'phy-sec': 512, ...extra }, children);
}

const host: HostModel = buildModel({ files: loadCaptureFiles('raid5-degraded'), pageSize: 4096, missingRoots: [], complete: true }, 0);
const md0 = host.arrays[0];

/** vda and vdc hold md0; vdb's place is empty; vdd..vdg are beside. */
const devices = parseLsblk(JSON.stringify({
    blockdevices: [
        dev('vda', 'disk', 256 * MiB, {}, [dev('md0', 'raid5', 500 * MiB)]),
        dev('vdc', 'disk', 256 * MiB, {}, [dev('md0', 'raid5', 500 * MiB)]),
        dev('vdd', 'disk', 256 * MiB),
        dev('vde', 'disk', 256 * MiB),
        dev('vdf', 'disk', 128 * MiB),
        dev('vdg', 'disk', 256 * MiB, { 'log-sec': 4096, 'phy-sec': 4096 }),
    ],
}));

const ext4: Signature = { device: 'vde', type: 'ext4', offset: '0x438' };

function reads(signatures: Record<string, Signature[] | { failed: string }> = {}): ReplaceReads {
    const facts = { componentKiB: 250 * 1024, logicalBlockBytes: 512 };
    return { devices, facts, signatures: new Map(Object.entries(signatures)), table: null };
}

const emptySlot: ReplaceSituation = { array: md0, arrays: host.arrays, host, replacing: { kind: 'empty-slot' } };

test('an empty slot: the blank disk offered; the one with a signature only once its wipe is chosen; the rest refused with their reasons', () => {
    const read = reads({ vdd: [], vde: [ext4], vdf: [], vdg: [] });
    const choices = replaceChoices(emptySlot, read);
    expect(choices.tableCopy).toBeNull();
    expect(offeredCandidates(choices.verdicts, false).map(v => v.device.name)).toEqual(['vdd']);
    expect(offeredCandidates(choices.verdicts, true).map(v => v.device.name)).toEqual(['vdd', 'vde']);
    const refused = Object.fromEntries(choices.verdicts.filter(v => v.refusals.length)
        .map(v => [v.device.name, v.refusals.map(r => r.message)]));
    expect(refused.vdf).toEqual(['Too small: $0, and $1 needs at least $2 for a member.']);
    expect(refused.vdg[0]).toMatch(/^Its logical block size is \$0 bytes, larger than/);
    expect(refused.vda).toEqual(['It holds a member of $0 now.']);
    // The usable ones come first.
    expect(choices.verdicts.slice(0, 2).map(v => v.device.name)).toEqual(['vdd', 'vde']);

    const plan = replaceDiskPlan(emptySlot, choices, 'vdd', false);
    expect('plan' in plan && describePlan(plan.plan)).toBe('mdadm /dev/md0 --add /dev/vdd');
    const wiped = replaceDiskPlan(emptySlot, choices, 'vde', true);
    expect('plan' in wiped && describePlan(wiped.plan).split('\n')).toEqual(['wipefs --all /dev/vde', 'mdadm /dev/md0 --add /dev/vde']);
    expect(replaceDiskPlan(emptySlot, choices, 'vde', false)).toEqual({ error: { message: '$0 cannot take the place of the member.', args: ['vde'] } });
    expect(replaceDiskPlan(emptySlot, choices, 'vdg', true)).toHaveProperty('error');
});

test('a device wipefs could not read is refused with wipefs\'s words', () => {
    const choices = replaceChoices(emptySlot, reads({ vdd: { failed: 'probing initialization failed: Device or resource busy' } }));
    const vdd = choices.verdicts.find(v => v.device.name === 'vdd')!;
    expect(vdd.refusals).toEqual([{ message: 'wipefs could not read $0: $1', args: ['/dev/vdd', 'probing initialization failed: Device or resource busy'] }]);
});

test('a working member replaced: added as a spare, then --replace; a failed one removed before the add', () => {
    const working: ReplaceSituation = { ...emptySlot, replacing: { kind: 'working', member: 'vdc' } };
    const read = reads({ vdd: [] });
    const plan = replaceDiskPlan(working, replaceChoices(working, read), 'vdd', false);
    expect('plan' in plan && describePlan(plan.plan).split('\n')).toEqual([
        'mdadm /dev/md0 --add-spare /dev/vdd', 'mdadm /dev/md0 --replace /dev/vdc --with /dev/vdd',
    ]);
    const failedMember: MemberModel = { ...md0.members[1], role: 'faulty', slot: null, states: ['faulty'] };
    const withFailed: ArrayModel = { ...md0, members: [md0.members[0], failedMember] };
    const failed: ReplaceSituation = { ...emptySlot, array: withFailed, arrays: [withFailed], replacing: { kind: 'failed', member: 'vdc' } };
    const removeThenAdd = replaceDiskPlan(failed, replaceChoices(failed, read), 'vdd', false);
    expect('plan' in removeThenAdd && describePlan(removeThenAdd.plan).split('\n')).toEqual([
        'mdadm /dev/md0 --fail /dev/vdc --remove /dev/vdc', 'mdadm /dev/md0 --add /dev/vdd',
    ]);
});

describe('members on partitions: the new disk gets a working member\'s table', () => {
    const GiB = 1024 ** 3;
    const member = (name: string, disk: string, slot: number): MemberModel => ({
        name, disk, descriptor: slot, slot, role: 'active', writeMostly: false, states: ['in_sync'], errors: 0,
        recoveryStartSectors: null, startSectors: 2048, dataOffsetSectors: 264192,
    });
    const raid1 = (name: string, n: number): ArrayModel => ({
        ...md0, name, device: `/dev/${name}`, level: 'raid1', raidDisks: 2, missingSlots: [1], members: [member(`sda${n}`, 'sda', 0)],
    });
    // As /proc/mdstat lists them: the newest first.
    const arrays = [raid1('md2', 2), raid1('md1', 1)];
    const dump = `label: gpt
label-id: 0D3C1E6A-3B34-4C2B-9D5E-2B3D7B5E8F01
device: /dev/sda
unit: sectors
first-lba: 2048
last-lba: 4194270
sector-size: 512

/dev/sda1 : start=        2048, size=     1048576, type=A19D880F-05FC-4D3B-A006-743F0F84911E, uuid=1B2C3D4E-0000-4000-8000-000000000001
/dev/sda2 : start=     1050624, size=     3141632, type=A19D880F-05FC-4D3B-A006-743F0F84911E, uuid=1B2C3D4E-0000-4000-8000-000000000002
`;
    const table = parseSfdiskDump(dump);
    const tree = parseLsblk(JSON.stringify({
        blockdevices: [
            dev('sda', 'disk', 2 * GiB, { pttype: 'gpt' }, [
                dev('sda1', 'part', 512 * MiB, {}, [dev('md1', 'raid1', 500 * MiB)]),
                dev('sda2', 'part', 1534 * MiB, {}, [dev('md2', 'raid1', 1500 * MiB)]),
            ]),
            dev('sdg', 'disk', 2 * GiB),
            dev('sdh', 'disk', 2 * GiB - MiB),
            dev('sdk', 'disk', 2 * GiB, { pttype: 'gpt' }, [dev('sdk1', 'part', 2 * GiB - 2 * MiB)]),
        ],
    }));
    const situation: ReplaceSituation = { array: arrays[0], arrays, host, replacing: { kind: 'empty-slot' } };
    const read: ReplaceReads = {
        devices: tree, facts: { componentKiB: 1500 * 1024, logicalBlockBytes: 512 }, table,
        signatures: new Map(Object.entries({ sdg: [], sdh: [], sdk: [{ device: 'sdk', type: 'gpt', offset: '0x200' }], sdk1: [] })),
    };

    test('only whole disks large enough for the table; one with a table is offered once its wipe is chosen', () => {
        expect(partitionSourceDisk(situation)).toBe('sda');
        expect(tableBytes(table)).toBe((1050624 + 3141632 + 33) * 512);
        const choices = replaceChoices(situation, read);
        expect(choices.needs.minimumBytes).toBe(tableBytes(table));
        expect(choices.verdicts.every(v => v.device.type === 'disk')).toBe(true);
        expect(offeredCandidates(choices.verdicts, false).map(v => v.device.name)).toEqual(['sdg']);
        expect(offeredCandidates(choices.verdicts, true).map(v => v.device.name)).toEqual(['sdg', 'sdk']);
        expect(choices.verdicts.find(v => v.device.name === 'sdh')!.refusals[0].message).toMatch(/^Too small/);
    });

    test('the table copied without the source\'s own identifiers, then a partition added to each array', () => {
        const choices = replaceChoices(situation, read);
        const result = replaceDiskPlan(situation, choices, 'sdk', true);
        expect('plan' in result && describePlan(result.plan)).toBe(`wipefs --all /dev/sdk1 /dev/sdk
sfdisk /dev/sdk <<'EOF'
label: gpt
unit: sectors
first-lba: 2048
sector-size: 512

start=        2048, size=     1048576, type=A19D880F-05FC-4D3B-A006-743F0F84911E
start=     1050624, size=     3141632, type=A19D880F-05FC-4D3B-A006-743F0F84911E
EOF
mdadm /dev/md1 --add /dev/sdk1
mdadm /dev/md2 --add /dev/sdk2`);
    });

    test('a partition failed, its disk\'s other partition still working: the whole disk is replaced, the working one without a degraded window', () => {
        const failedPart: MemberModel = { ...member('sdb2', 'sdb', 1), role: 'faulty', slot: null, states: ['faulty'] };
        const md2 = { ...arrays[0], members: [member('sda2', 'sda', 0), failedPart] };
        const md1 = { ...arrays[1], missingSlots: [], members: [member('sda1', 'sda', 0), member('sdb1', 'sdb', 1)] };
        const failed: ReplaceSituation = { array: md2, arrays: [md2, md1], host, replacing: { kind: 'failed', member: 'sdb2' } };
        const result = replaceDiskPlan(failed, replaceChoices(failed, read), 'sdg', false);
        expect('plan' in result && describePlan(result.plan).split('\n').filter(l => l.startsWith('mdadm'))).toEqual([
            'mdadm /dev/md2 --fail /dev/sdb2 --remove /dev/sdb2',
            'mdadm /dev/md1 --add-spare /dev/sdg1',
            'mdadm /dev/md1 --replace /dev/sdb1 --with /dev/sdg1',
            'mdadm /dev/md2 --add /dev/sdg2',
        ]);
    });
});

test('before it starts, the rebuild of a 2 TB member takes at least its size at the maximum, at most its size at the minimum', () => {
    // 1953382400 KiB per member (a 2 TB disk less md's data offset), limits 1000 and 200000 KiB/s.
    const bounds = rebuildBounds(1953382400, 1000, 200000);
    expect(bounds.shortestSeconds).toBeCloseTo(9766.9, 1);
    expect(bounds.longestSeconds).toBeCloseTo(1953382.4, 1);
    expect(rebuildBounds(1024, 0, null)).toMatchObject({ shortestSeconds: null, longestSeconds: null });
});
