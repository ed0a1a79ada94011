// SPDX-License-Identifier: LGPL-2.1-or-later
// The health advice of a card (issue #18 item 6), read end to end: the simulator's tree through
// the real gather script into the model, then what the alert says and offers; the removal plan's
// validation; the read-back after the removal.

import { join } from 'node:path';
import {
    diskIdentity, healthAdvice, memberStillListed, removeFailedPlan,
} from '../../../../src/md/advice/health';
import { buildModel } from '../../../../src/md/model';
import { slowMemberNames, slowMembersOf } from '../../../../src/md/diagnosis/slowMembers';
import type { HostModel } from '../../../../src/md/modelTypes';
import { describeStep } from '../../../../src/md/plan';
import { gather, read, removeTempRoots, startHost, watchHost } from '../../sim/simHelpers';

afterEach(removeTempRoots);

const MEMBER_TROUBLE = join(__dirname, '../../../browser/fixtures/member-trouble.json');

function model(scenario: string): { host: HostModel; mdstat: string } {
    const sim = startHost(scenario);
    return { host: buildModel(gather(sim), 0), mdstat: read(sim, 'proc/mdstat') };
}

const arrayOf = (host: HostModel, name: string) => host.arrays.find(a => a.name === name)!;
const argvs = (advice: ReturnType<typeof healthAdvice>) => advice?.commands.map(c => c.argv.join(' '));

test('degraded-failed md0: slot 2 empty, sdc1 failed with its SATA WWID and the serial that ends it; remove, then add', () => {
    const { host } = model('degraded-failed');
    const advice = healthAdvice(arrayOf(host, 'md0'), host.disks)!;
    // A RAID5 with one slot empty: the next failure loses its data.
    expect(advice).toMatchObject({ situation: 'degraded', severity: 'danger', failuresLeft: 0, emptySlots: [2], rebuilding: [], failing: [] });
    expect(advice.failed).toEqual([{
        member: 'sdc1', errors: 128,
        identity: { disk: 'sdc', wwid: expect.stringMatching(/^t10\.ATA SIMDISK ST2000DM008-2FR102 ZFL[0-9A-F]{5}$/), serial: expect.stringMatching(/^ZFL[0-9A-F]{5}$/),
            byPath: expect.stringMatching(/^pci-.*-ata-\d+\.0$/), enclosureSlot: null },
    }]);
    expect(advice.failed[0].identity.wwid!.endsWith(advice.failed[0].identity.serial!)).toBe(true);
    expect(argvs(advice)).toEqual(['mdadm /dev/md0 --fail /dev/sdc1 --remove /dev/sdc1', 'mdadm /dev/md0 --add /dev/sdX']);
});

test('degraded-failed md1: inactive with 1 of 2 devices, a mirror needs 1: mdadm --run', () => {
    const { host } = model('degraded-failed');
    expect(healthAdvice(arrayOf(host, 'md1'), host.disks)).toMatchObject({ situation: 'inactive', severity: 'danger', present: 1, needed: 1 });
    expect(argvs(healthAdvice(arrayOf(host, 'md1'), host.disks))).toEqual(['mdadm --run /dev/md1']);
});

test('member-trouble: a rebuild under way asks for nothing; errors on a member with a spare: --replace; two lost of RAID5: failed', () => {
    const { host } = model(MEMBER_TROUBLE);
    const md0 = healthAdvice(arrayOf(host, 'md0'), host.disks)!;
    // A two-disk mirror rebuilding onto its second disk: until the rebuild ends, sda is all there is.
    expect(md0).toMatchObject({
        situation: 'rebuilding', severity: 'danger', failuresLeft: 0, emptySlots: [], rebuilding: [{ slot: 1, member: 'sdb' }], commands: [],
    });

    const md1 = healthAdvice(arrayOf(host, 'md1'), host.disks)!;
    expect(md1).toMatchObject({ situation: 'member-trouble', failed: [] });
    // NVMe: the wwid file and the controller's serial, both read by the gather script.
    expect(md1.failing).toEqual([{ member: 'nvme0n1', errors: 37, identity: { disk: 'nvme0n1', wwid: expect.stringMatching(/^eui\./), serial: expect.stringMatching(/^SIMNVME/),
        byPath: expect.stringMatching(/^pci-.*-nvme-1$/), enclosureSlot: null } }]);
    expect(argvs(md1)).toEqual(['mdadm /dev/md1 --replace /dev/nvme0n1 --with /dev/nvme2n1']);

    expect(healthAdvice(arrayOf(host, 'md2'), host.disks)).toMatchObject({ situation: 'failed', severity: 'danger', present: 2, needed: 3 });
    expect(healthAdvice(arrayOf(host, 'md2'), host.disks)?.commands.map(c => c.purpose)).toEqual(['examine', 'stop', 'assemble']);
});

test('raid6-recovery md0: a RAID6 rebuilding one slot still survives one more failure: a warning, not danger', () => {
    const { host } = model('raid6-recovery');
    const advice = healthAdvice(arrayOf(host, 'md0'), host.disks)!;
    expect(advice).toMatchObject({ situation: 'rebuilding', severity: 'warning', failuresLeft: 1 });
});

test('a healthy array has nothing to say; without a spare, --replace names a new disk to add first', () => {
    const { host } = model('raid1-healthy');
    const md0 = arrayOf(host, 'md0');
    expect(healthAdvice(md0, host.disks)).toBeNull();
    const withErrors = { ...md0, members: md0.members.map((m, i) => (i === 0 ? { ...m, errors: 3 } : m)) };
    const first = withErrors.members[0].name;
    expect(argvs(healthAdvice(withErrors, host.disks))).toEqual(['mdadm /dev/md0 --add /dev/sdY', `mdadm /dev/md0 --replace /dev/${first} --with /dev/sdY`]);
});

test('slow-rebuilds md2: the member the rebuild waits for is named, with its health check and a replace; danger, none left', () => {
    const sim = startHost('slow-rebuilds');
    // Before the diagnosis has its window (10 s of samples), nothing is said of sdj.
    const early = watchHost(sim, 4);
    expect(slowMemberNames(arrayOf(early, 'md2'))).toBe('');
    const host = watchHost(sim, 20, early);
    const md2 = arrayOf(host, 'md2');
    expect(slowMemberNames(md2)).toBe('sdj');
    const [sdj] = slowMembersOf(md2);
    expect(sdj.busyShare).toBeGreaterThan(0.85);
    expect(sdj.msPerMiB).toBeGreaterThan(2 * sdj.peerMsPerMiB);
    const advice = healthAdvice(md2, host.disks, ['sdj'])!;
    // A RAID 5 rebuilding onto sdk: 3 of 4 in sync, so a failure of sdj during the rebuild loses the data.
    expect(advice).toMatchObject({ situation: 'rebuilding', severity: 'danger', failuresLeft: 0 });
    expect(advice.slow).toEqual([{ member: 'sdj', identity: expect.objectContaining({ disk: 'sdj' }), errors: 0 }]);
    expect(argvs(advice)).toEqual(['smartctl -a /dev/sdj', 'mdadm /dev/md2 --add /dev/sdY', 'mdadm /dev/md2 --replace /dev/sdj --with /dev/sdY']);
    // md0's members are evenly busy (starved by other I/O): no member is named.
    expect(slowMemberNames(arrayOf(host, 'md0'))).toBe('');
    // A name that is no working member is not said.
    expect(healthAdvice(md2, host.disks, ['sdk', 'sdz'])!.slow).toEqual([]);
});

test('disk identity: whitespace runs of a padded wwid shown as one blank; a serial file wins; nothing known; udev\'s by-path name', () => {
    const disk = {
        name: 'sdz', rotational: null, scheduler: null, nrRequests: null, queueDepth: null, readAheadKiB: null, hwTags: null,
        enclosureSlot: null, byPath: null,
    };
    expect(diskIdentity('sdz', { ...disk, wwid: 't10.ATA     WDC WD40EFRX-68N32N0                    WD-WCC7K1234567  ', serial: null }))
        .toEqual({ disk: 'sdz', wwid: 't10.ATA WDC WD40EFRX-68N32N0 WD-WCC7K1234567', serial: 'WD-WCC7K1234567', byPath: null, enclosureSlot: null });
    expect(diskIdentity('vdb', { ...disk, wwid: null, serial: 'QM00001' })).toEqual({ disk: 'vdb', wwid: null, serial: 'QM00001', byPath: null, enclosureSlot: null });
    expect(diskIdentity('sdz', { ...disk, wwid: 'naa.5000c500a1b2c3d4', serial: null })).toEqual({ disk: 'sdz', wwid: 'naa.5000c500a1b2c3d4', serial: null, byPath: null, enclosureSlot: null });
    expect(diskIdentity('sdz', undefined)).toEqual({ disk: 'sdz', wwid: null, serial: null, byPath: null, enclosureSlot: null });
    const slot = { enclosure: '6:0:16:0', component: 'Slot 03', slot: 3, locate: false };
    expect(diskIdentity('sdz', { ...disk, wwid: null, serial: null, enclosureSlot: slot }).enclosureSlot).toBe(slot);
    expect(diskIdentity('sdz', { ...disk, wwid: null, serial: null, byPath: 'pci-0000:00:17.0-ata-3.0' }).byPath).toBe('pci-0000:00:17.0-ata-3.0');
});

test('the removal plan: only a failed member the model knows, as argv, read back in /proc/mdstat', () => {
    const { host, mdstat } = model('degraded-failed');
    const md0 = arrayOf(host, 'md0');
    const result = removeFailedPlan(md0, 'sdc1');
    expect(result.plan?.steps).toEqual([expect.objectContaining({
        kind: 'run', argv: ['mdadm', '/dev/md0', '--fail', '/dev/sdc1', '--remove', '/dev/sdc1'], undoArgv: null,
        verify: { memberRemoved: { array: 'md0', member: 'sdc1' } },
    })]);
    expect(describeStep(result.plan!.steps[0])).toBe('mdadm /dev/md0 --fail /dev/sdc1 --remove /dev/sdc1');
    expect(removeFailedPlan(md0, 'sda1').errors?.member?.message).toMatch(/has not failed/);
    expect(removeFailedPlan(md0, 'sdc1; rm -rf /').errors?.member?.message).toMatch(/is not a member/);
    expect(removeFailedPlan(arrayOf(host, 'md1'), 'sdf1').errors?.member).toBeDefined();

    expect(memberStillListed(mdstat, 'md0', 'sdc1')).toBe(true);
    expect(memberStillListed(mdstat.replace(' sdc1[2](F)', ''), 'md0', 'sdc1')).toBe(false);
    expect(memberStillListed(mdstat, 'md1', 'sdc1')).toBe(false);
});
