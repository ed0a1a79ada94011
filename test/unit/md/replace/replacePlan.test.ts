// SPDX-License-Identifier: LGPL-2.1-or-later
// The commands that put a new disk in an array (issue #34): an empty slot filled, a working member
// replaced without a degraded window, a partition table copied first; and what a command fed input
// means for the preview, its undo, the record of a plan being applied and the automation export.

import { automationTexts, takesHostDevice } from '../../../../src/md/automation';
import { buildModel } from '../../../../src/md/model';
import type { ArrayModel, MemberModel } from '../../../../src/md/modelTypes';
import { describePlan, invertStep, type RunCommandStep } from '../../../../src/md/plan';
import { parsePlanRecord } from '../../../../src/md/planRecord';
import { partitionName } from '../../../../src/md/replace/partitionCopy';
import { partitionTargets, replacementPlan } from '../../../../src/md/replace/replacePlan';
import { loadCaptureFiles } from '../../helpers/realKernelCapture';

/** RAID 5 of vda, vdb and an empty slot (Linux 6.1, mdadm 4.2). */
const degraded = buildModel({ files: loadCaptureFiles('raid5-degraded'), pageSize: 4096, missingRoots: [], complete: true }, 0).arrays[0];

function member(name: string, disk: string, slot: number | null, role: MemberModel['role'] = 'active'): MemberModel {
    return {
        name, disk, descriptor: slot, slot, role, writeMostly: false, states: [role === 'faulty' ? 'faulty' : 'in_sync'],
        errors: 0, recoveryStartSectors: null, startSectors: 2048, dataOffsetSectors: 264192,
    };
}

/** /boot, / and data as RAID 1, RAID 1 and RAID 5 on partitions 1-3 of three disks (sda, sdb, sdc). */
function layout(third: 'working' | 'gone', disks = ['sda', 'sdb', 'sdc']): ArrayModel[] {
    const on = (n: number, level: string, device: string): ArrayModel => ({
        ...degraded, name: device, device: `/dev/${device}`, level, raidDisks: 3,
        members: disks.slice(0, third === 'working' ? 3 : 2).map((d, slot) => member(partitionName(d, n), d, slot)),
        missingSlots: third === 'working' ? [] : [2],
    });
    return [on(1, 'raid1', 'md0'), on(2, 'raid1', 'md1'), on(3, 'raid5', 'md2')];
}

const SCRIPT = 'label: gpt\nunit: sectors\nfirst-lba: 2048\nsector-size: 512\n\nstart=2048, size=2097152, type=A19D880F-05FC-4D3B-A006-743F0F84911E\n';

test('an empty slot of a whole-device array filled: one --add, undone by failing and removing it', () => {
    expect(degraded.missingSlots).toHaveLength(1);
    const plan = replacementPlan({ disk: 'vdd', wipe: [], partitionScript: null, targets: [{ device: degraded.device, newMember: 'vdd', replaces: null }] });
    expect(describePlan(plan)).toBe('mdadm /dev/md0 --add /dev/vdd');
    expect(describePlan({ ...plan, steps: plan.steps.map(s => invertStep(s)!) })).toBe('mdadm /dev/md0 --fail /dev/vdd --remove /dev/vdd');
});

test('a working member replaced: added as a spare, then --replace --with it; the wipe the admin chose first', () => {
    const plan = replacementPlan({ disk: 'vdd', wipe: ['vdd'], partitionScript: null, targets: [{ device: '/dev/md0', newMember: 'vdd', replaces: 'vdb' }] });
    expect(describePlan(plan).split('\n')).toEqual([
        'wipefs --all /dev/vdd',
        'mdadm /dev/md0 --add-spare /dev/vdd',
        'mdadm /dev/md0 --replace /dev/vdb --with /dev/vdd',
    ]);
    // Neither a wipe nor a replacement under way can be undone by a command.
    expect(plan.steps.map(s => (s as RunCommandStep).undoArgv === null)).toEqual([true, false, true]);
});

test('members on partitions, a disk gone: the new disk gets the table, its partition fills each array\'s empty slot', () => {
    const targets = partitionTargets(layout('gone'), 'sda', 'sdd', null);
    expect(targets).toEqual([
        { device: '/dev/md0', newMember: 'sdd1', replaces: null },
        { device: '/dev/md1', newMember: 'sdd2', replaces: null },
        { device: '/dev/md2', newMember: 'sdd3', replaces: null },
    ]);
    const plan = replacementPlan({ disk: 'sdd', wipe: [], partitionScript: SCRIPT, targets });
    expect(describePlan(plan)).toBe(`sfdisk /dev/sdd <<'EOF'
label: gpt
unit: sectors
first-lba: 2048
sector-size: 512

start=2048, size=2097152, type=A19D880F-05FC-4D3B-A006-743F0F84911E
EOF
mdadm /dev/md0 --add /dev/sdd1
mdadm /dev/md1 --add /dev/sdd2
mdadm /dev/md2 --add /dev/sdd3`);
    expect(plan.title).toEqual({ message: 'Put $0 in $1', args: ['sdd', 'md0, md1, md2'] });
});

test('members on partitions, a failing disk that still works: each of its partitions replaced, nothing degraded', () => {
    expect(partitionTargets(layout('working'), 'sda', 'sdd', 'sdc')).toEqual([
        { device: '/dev/md0', newMember: 'sdd1', replaces: 'sdc1' },
        { device: '/dev/md1', newMember: 'sdd2', replaces: 'sdc2' },
        { device: '/dev/md2', newMember: 'sdd3', replaces: 'sdc3' },
    ]);
    // An array with nothing missing and nothing to replace needs nothing of the new disk.
    expect(partitionTargets(layout('working'), 'sda', 'sdd', null)).toEqual([]);
    // Nor does an array that has a member on the new disk already.
    const arrays = layout('gone');
    arrays[2] = { ...arrays[2], members: [...arrays[2].members, member('sdd3', 'sdd', null, 'spare')] };
    expect(partitionTargets(arrays, 'sda', 'sdd', null).map(t => t.device)).toEqual(['/dev/md0', '/dev/md1']);
});

test('NVMe disks: partitions named with a "p"', () => {
    const arrays = layout('gone', ['nvme0n1', 'nvme1n1', 'nvme2n1']);
    expect(arrays[0].members.map(m => m.name)).toEqual(['nvme0n1p1', 'nvme1n1p1']);
    expect(partitionTargets(arrays, 'nvme0n1', 'nvme3n1', null).map(t => t.newMember)).toEqual(['nvme3n1p1', 'nvme3n1p2', 'nvme3n1p3']);
});

test('a command fed input: its undo reads none, the record keeps the input, the export refuses it', () => {
    const plan = replacementPlan({ disk: 'sdd', wipe: [], partitionScript: SCRIPT, targets: [] });
    const [copy] = plan.steps as RunCommandStep[];
    expect(copy.stdin).toBe(SCRIPT);
    const undo = invertStep(copy) as RunCommandStep;
    expect(undo).toEqual({ kind: 'run', setting: copy.setting, argv: ['wipefs', '--all', '/dev/sdd'], undoArgv: null });
    const record = { version: 1, id: 'x', startedAt: 'T', title: plan.title, steps: plan.steps };
    expect(parsePlanRecord(JSON.stringify(record))?.steps).toEqual(plan.steps);
    expect(parsePlanRecord(JSON.stringify({ ...record, steps: [{ ...copy, stdin: 42 }] }))).toBeNull();
    expect(automationTexts(plan, 'Put sdd in md2', [])).toBeNull();
});

test('a plan that takes a disk of this host by its kernel name is not exported: another host\'s disk of that name may hold data', () => {
    const add = replacementPlan({ disk: 'vdd', wipe: ['vdd'], partitionScript: null, targets: [{ device: degraded.device, newMember: 'vdd', replaces: 'vdb' }] });
    expect(add.steps.map(takesHostDevice)).toEqual([true, true, true]);
    expect(automationTexts(add, 'Put vdd in md0', [])).toBeNull();
    expect(takesHostDevice({ kind: 'run', setting: add.title, argv: ['mdadm', '/dev/md0', '--fail', '/dev/vdb', '--remove', '/dev/vdb'], undoArgv: null }))
        .toBe(false);
});
