// SPDX-License-Identifier: LGPL-2.1-or-later
// Layout advice (issue #6): stripe geometry and mkfs options computed by hand, member
// alignment from partition starts and md's data offset, and the same facts read end to end from a
// real-kernel capture and from the simulator through the real gather script.

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { layoutAdvice, memberAlignment, partitionAlignment, stripeGeometry } from '../../../../src/md/advice/layout';
import { GATHER_SCRIPT } from '../../../../src/host/gatherScript';
import { buildModel } from '../../../../src/md/model';
import type { ArrayModel, MemberModel } from '../../../../src/md/modelTypes';
import { parseGatherOutput } from '../../../../src/md/snapshot';
import { loadCaptureFiles } from '../../helpers/realKernelCapture';
import { removeTempRoots, startHost } from '../../sim/simHelpers';

function member(name: string, startSectors: number | null, dataOffsetSectors: number | null = null): MemberModel {
    return {
        name, disk: name.replace(/\d+$/, ''), descriptor: 0, slot: 0, role: 'active', writeMostly: false, states: ['in_sync'],
        errors: 0, recoveryStartSectors: null, startSectors, dataOffsetSectors,
    };
}

/** An array as the model holds it; only the fields the advice reads matter. */
function array(level: string, raidDisks: number, chunkKiB: number | null, extra: Partial<ArrayModel> = {}): ArrayModel {
    const members = Array.from({ length: raidDisks }, (_, i) => member(`sd${String.fromCharCode(97 + i)}1`, 2048, 264192));
    return { name: 'md0', device: '/dev/md0', level, raidDisks, chunkKiB, layout: null, members, partitions: [], sync: null, ...extra } as ArrayModel;
}

describe('stripe geometry', () => {
    test('raid5, 4 disks, 512 KiB chunk: 3 data disks, stride 128, stripe_width 384, su=512k sw=3', () => {
        const { stripe, noStripe } = layoutAdvice(array('raid5', 4, 512));
        expect(noStripe).toBeNull();
        expect(stripe).toEqual({
            chunkKiB: 512, dataDisks: 3, stripeWidthKiB: 1536, ext4Stride: 128, ext4StripeWidth: 384, devices: ['/dev/md0'],
            commands: ['mkfs.ext4 -E stride=128,stripe_width=384 /dev/md0', 'mkfs.xfs -d su=512k,sw=3 /dev/md0'],
        });
    });

    test('raid6, 6 disks, 64 KiB chunk: 4 data disks, stride 16, stripe_width 64, su=64k sw=4', () => {
        const { stripe } = layoutAdvice(array('raid6', 6, 64, { device: '/dev/md127' }));
        expect(stripe).toMatchObject({ dataDisks: 4, stripeWidthKiB: 256, ext4Stride: 16, ext4StripeWidth: 64 });
        expect(stripe?.commands).toEqual([
            'mkfs.ext4 -E stride=16,stripe_width=64 /dev/md127', 'mkfs.xfs -d su=64k,sw=4 /dev/md127',
        ]);
    });

    test('raid10, 4 disks, near 2 (layout 0x102), 512 KiB chunk: 2 data disks', () => {
        const { stripe } = layoutAdvice(array('raid10', 4, 512, { layout: 0x102 }));
        expect(stripe).toMatchObject({ dataDisks: 2, stripeWidthKiB: 1024, ext4Stride: 128, ext4StripeWidth: 256 });
        expect(stripe?.commands[1]).toBe('mkfs.xfs -d su=512k,sw=2 /dev/md0');
    });

    test('raid10 near 3 on 6 disks: 2 data disks; far 2 and 3 disks near 2: no stripe width', () => {
        expect(layoutAdvice(array('raid10', 6, 64, { layout: 0x103 })).stripe?.dataDisks).toBe(2);
        const far = layoutAdvice(array('raid10', 4, 512, { layout: 0x201 }));
        expect(far.stripe).toBeNull();
        expect(far.noStripe?.message).toMatch(/far or offset layout/);
        const uneven = layoutAdvice(array('raid10', 3, 512, { layout: 0x102 }));
        expect(uneven.stripe).toBeNull();
        expect(uneven.noStripe?.args).toEqual([3, 2]);
    });

    test('raid0, 2 disks, 128 KiB chunk: both disks carry data, stride 32, stripe_width 64', () => {
        expect(layoutAdvice(array('raid0', 2, 128)).stripe).toMatchObject({ dataDisks: 2, ext4Stride: 32, ext4StripeWidth: 64 });
    });

    test('raid1 and linear: no stripe advice, and the reason says so', () => {
        for (const level of ['raid1', 'linear']) {
            const advice = layoutAdvice(array(level, 2, null));
            expect(advice.stripe).toBeNull();
            expect(advice.noStripe?.message).toMatch(/has no stripes/);
        }
    });

    test('a reshape says which disk count the values are for', () => {
        const sync = { reshape: { fromDisks: 4, toDisks: 5 } } as ArrayModel['sync'];
        const advice = layoutAdvice(array('raid5', 5, 512, { sync }));
        expect(advice.stripe?.dataDisks).toBe(4);
        expect(advice.notes.map(n => n.args)).toEqual([[4, 5]]);
    });
});

describe('member alignment', () => {
    test('a partition at sector 63 (the old DOS track) is not even 4 KiB aligned', () => {
        const result = memberAlignment(member('sda1', 63), 64);
        expect(result).toMatchObject({ dataStartSectors: 63, verdict: 'not-4kib' });
        expect(result.problem?.message).toMatch(/Not a multiple of 4 KiB/);
    });

    test('a partition at sector 2048 is on the 1 MiB boundary, so on every chunk up to 1 MiB', () => {
        expect(memberAlignment(member('sda1', 2048), 512)).toMatchObject({ verdict: 'aligned', problem: null });
        expect(memberAlignment(member('sda1', 2048), 1024).verdict).toBe('aligned');
    });

    test('md\'s data offset moves the data start: 1 MiB partition + 9 MiB offset is off a 4 MiB chunk', () => {
        const result = memberAlignment(member('sda1', 2048, 18432), 4096);
        expect(result).toMatchObject({ dataStartSectors: 20480, verdict: 'not-chunk' });
        expect(result.problem?.args).toEqual([4096]);
    });

    test('4 KiB aligned but not on 1 MiB; no chunk for a mirror', () => {
        expect(memberAlignment(member('sda1', 128), 64).verdict).toBe('not-1mib');
        expect(memberAlignment(member('sda1', 128), null).verdict).toBe('not-1mib');
        expect(memberAlignment(member('sda1', 256), 128)).toMatchObject({ verdict: 'not-1mib' });
    });

    test('an unknown start gives no verdict', () => {
        expect(memberAlignment(member('sda1', null, 2048), 512).verdict).toBe('unknown');
    });

    test('the advice names the members off 4 KiB and off the chunk, and no others', () => {
        const advice = layoutAdvice(array('raid5', 4, 512));
        advice.members.forEach(m => expect(m.verdict).toBe('aligned'));
        const mixed = array('raid5', 3, 512);
        mixed.members = [member('sda1', 63, 264192), member('sdb1', 2048, 264192), member('sdc1', 2056, 264192)];
        expect(layoutAdvice(mixed)).toMatchObject({ misaligned: ['sda1'], offChunk: ['sdc1'] });
    });
});

describe('partitions on the array (a partition on a striped volume)', () => {
    const raid5 = stripeGeometry(['/dev/md0'], 512, 3); // 1536 KiB stripes

    test('sector 63 is not even 4 KiB aligned; 1 MiB is on a chunk but not on a 1536 KiB stripe; 3 MiB is on both', () => {
        expect(partitionAlignment('md0p1', 63, raid5).verdict).toBe('not-4kib');
        expect(partitionAlignment('md0p1', 2048, raid5)).toMatchObject({ verdict: 'not-stripe', problem: { args: [1536] } });
        expect(partitionAlignment('md0p1', 6144, raid5)).toMatchObject({ verdict: 'aligned', problem: null });
        expect(partitionAlignment('md0p1', 256, raid5)).toMatchObject({ verdict: 'not-chunk', problem: { args: [512] } });
    });

    test('on a mirror only the 4 KiB boundary counts', () => {
        expect(partitionAlignment('md0p1', 2048, null).verdict).toBe('aligned');
        expect(partitionAlignment('md0p1', 63, null).verdict).toBe('not-4kib');
    });

    test('the mkfs lines name the partitions instead of the whole array, and the off ones are listed', () => {
        const partitions = [{ name: 'md0p1', startSectors: 2048 }, { name: 'md0p2', startSectors: 6144 }];
        const advice = layoutAdvice(array('raid5', 4, 512, { partitions }));
        expect(advice.stripe?.commands).toEqual([
            'mkfs.ext4 -E stride=128,stripe_width=384 /dev/md0p1', 'mkfs.xfs -d su=512k,sw=3 /dev/md0p1',
            'mkfs.ext4 -E stride=128,stripe_width=384 /dev/md0p2', 'mkfs.xfs -d su=512k,sw=3 /dev/md0p2',
        ]);
        expect(advice.offStripe).toEqual(['md0p1']);
    });

    test('the model finds a partition of the array in sysfs (/sys/block/md0/md0p1/start)', () => {
        const files = loadCaptureFiles('raid5-check');
        files.set('/sys/block/md0/md0p1/partition', '1\n');
        files.set('/sys/block/md0/md0p1/start', '63\n');
        const md0 = buildModel({ files, pageSize: 4096, missingRoots: [], complete: true }, 0).arrays[0];
        expect(md0.partitions).toEqual([{ name: 'md0p1', startSectors: 63 }]);
        expect(layoutAdvice(md0).partitions.map(p => [p.name, p.verdict])).toEqual([['md0p1', 'not-4kib']]);
    });
});

describe('read from a real kernel and from the simulator', () => {
    afterEach(removeTempRoots);

    test('real-kernel raid5 (whole disks, 512 KiB chunk, data offset 4096): aligned, su=512k sw=3', () => {
        const model = buildModel({ files: loadCaptureFiles('raid5-check'), pageSize: 4096, missingRoots: [], complete: true }, 0);
        const md0 = model.arrays[0];
        expect(md0.members.map(m => [m.name, m.startSectors, m.dataOffsetSectors])).toEqual([
            ['vda', 0, 4096], ['vdb', 0, 4096], ['vdc', 0, 4096], ['vdd', 0, 4096],
        ]);
        const advice = layoutAdvice(md0);
        expect(advice.stripe?.commands).toEqual(['mkfs.ext4 -E stride=128,stripe_width=384 /dev/md0', 'mkfs.xfs -d su=512k,sw=3 /dev/md0']);
        expect(advice.misaligned).toEqual([]);
    });

    test('simulated partitions through the real gather script: sector 63 is named, 2048 is not, on disks and on the array', () => {
        const host = startHost({
            name: 'layout',
            disks: ['sda', 'sdb', 'sdc'].map((name, i) => ({
                name, kind: 'sata', sizeBytes: 2000398934016, partitions: [{ number: 1, startSector: i === 0 ? 63 : 2048 }],
            })),
            arrays: [{
                name: 'md0', level: 'raid5', chunkKiB: 64, members: [{ device: 'sda1' }, { device: 'sdb1' }, { device: 'sdc1' }],
                partitions: [{ number: 1, startSector: 63, sizeBytes: 2 ** 30 }, { number: 2, startSector: 2 ** 22 }],
            }],
        });
        const output = execFileSync('sh', ['-c', GATHER_SCRIPT, 'raidtune-gather', join(host.root, 'proc'), join(host.root, 'sys')],
            { encoding: 'utf8', env: { LC_ALL: 'C', PATH: process.env.PATH } });
        const md0 = buildModel(parseGatherOutput(output), 0).arrays[0];
        // 2 TB partitions: mdadm's 129 MiB data offset (264192 sectors), a multiple of 1 MiB.
        expect(md0.members.map(m => [m.name, m.startSectors, m.dataOffsetSectors])).toEqual([
            ['sda1', 63, 264192], ['sdb1', 2048, 264192], ['sdc1', 2048, 264192],
        ]);
        const advice = layoutAdvice(md0);
        expect(advice).toMatchObject({ misaligned: ['sda1'], offChunk: [] });
        expect(advice.members[0]).toMatchObject({ dataStartSectors: 264255, verdict: 'not-4kib' });
        // On the array: sector 63 is off 4 KiB; 2 GiB is a whole number of 128 KiB stripes.
        expect(advice.partitions.map(p => [p.name, p.startSectors, p.verdict])).toEqual([
            ['md0p1', 63, 'not-4kib'], ['md0p2', 4194304, 'aligned'],
        ]);
        expect(advice.stripe?.commands).toEqual([
            'mkfs.ext4 -E stride=16,stripe_width=32 /dev/md0p1', 'mkfs.xfs -d su=64k,sw=2 /dev/md0p1',
            'mkfs.ext4 -E stride=16,stripe_width=32 /dev/md0p2', 'mkfs.xfs -d su=64k,sw=2 /dev/md0p2',
        ]);
    });
});
