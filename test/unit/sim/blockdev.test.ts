// SPDX-License-Identifier: LGPL-2.1-or-later
// The simulated lsblk, wipefs and sfdisk on the replace-disk scenario: their output read by
// raidtune's own parsers (src/md/replace/), their words and exit codes as util-linux 2.38.1's
// (checked with loop devices on a Debian 12 machine), and the kernel's view after a change.

import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLsblk, parseWipefs, withDescendants } from '../../../src/md/replace/blockDevices';
import { parseSfdiskDump, replicaScript } from '../../../src/md/replace/partitionCopy';
import { parseBlockdevArgs } from '../../../sim/blockdev/request';
import { humanSize } from '../../../sim/blockdev/humanSize';
import { writeMdadmWrapper } from '../../../sim/mdadm/wrapper';
import { LSBLK, tool } from './blockdevTools';
import { attr, oneArray, read, removeTempRoots, startHost, tempRoot } from './simHelpers';

afterEach(removeTempRoots);

const TB2 = 2000398934016;

describe('lsblk --json --bytes --output ...', () => {
    test('every disk with its partitions, each member with the arrays holding it, as raidtune reads it', async () => {
        const host = startHost('replace-disk');
        const out = await tool(host, 'lsblk', LSBLK);
        expect(out.exitCode).toBe(0);
        const devices = parseLsblk(out.stdout);
        expect(devices.map(d => d.name)).toEqual(['sda', 'sdb', 'sdc', 'sdd', 'sde', 'sdf', 'sdg', 'sdh', 'sdi', 'sdj', 'sdk']);
        const byName = new Map(devices.flatMap(withDescendants).map(d => [d.name, d]));
        expect(byName.get('sda')!.children.map(c => [c.name, c.type])).toEqual([['md0', 'raid5']]);
        expect(byName.get('sde')!.children.map(c => [c.name, c.children.map(a => a.name)])).toEqual([['sde1', ['md1']], ['sde2', ['md2']]]);
        // Removed members are held by no array any more.
        expect(byName.get('sdd')!.children).toEqual([]);
        expect(byName.get('sdf')!.children.map(c => [c.name, c.children.length])).toEqual([['sdf1', 0], ['sdf2', 0]]);
        expect(byName.get('sdg')).toMatchObject({ type: 'disk', sizeBytes: TB2, logicalBlockBytes: 512, physicalBlockBytes: 4096, rotational: true, readOnly: false, mountpoints: [], pttype: null, transport: 'sata' });
        expect(byName.get('sdj')).toMatchObject({ logicalBlockBytes: 4096, physicalBlockBytes: 4096 });
        expect(byName.get('sdi')!.sizeBytes).toBe(1000204886016);
        expect(byName.get('sdh')!.fstype).toBe('ext4');
        expect(byName.get('sde1')).toMatchObject({ type: 'part', fstype: 'linux_raid_member', pttype: 'gpt', sizeBytes: 2 ** 30 });
        expect(byName.get('md0')).toMatchObject({ path: '/dev/md0', sizeBytes: 5860147200 * 1024, logicalBlockBytes: 512 });
    });

    test('util-linux 2.38.1 layout: keys in column order, numbers and booleans as JSON, [null] for no mount point', async () => {
        const host = startHost('replace-disk');
        const out = await tool(host, 'lsblk', [...LSBLK, '/dev/sdg']);
        expect(out.stdout).toBe(`{
   "blockdevices": [
      {
         "name": "sdg",
         "path": "/dev/sdg",
         "type": "disk",
         "size": 2000398934016,
         "log-sec": 512,
         "phy-sec": 4096,
         "rota": true,
         "ro": false,
         "mountpoints": [
             null
         ],
         "fstype": null,
         "pttype": null,
         "serial": "ZFL00860",
         "wwn": "0x5000c50000000860",
         "hctl": "6:0:0:0",
         "tran": "sata"
      }
   ]
}
`);
    });

    test('-J -b -o, --output=, a mounted disk, sizes without --bytes', async () => {
        const host = startHost(oneArray({ level: 'raid1' }, { diskSpec: { sizeBytes: TB2 } }));
        host.state.disks[0].mountpoint = '/srv';
        const short = await tool(host, 'lsblk', ['-J', '-b', '-o', 'NAME,MOUNTPOINTS', '/dev/sda']);
        expect(JSON.parse(short.stdout).blockdevices[0]).toMatchObject({ name: 'sda', mountpoints: ['/srv'] });
        const human = await tool(host, 'lsblk', ['--json', '--output=NAME,SIZE', '/dev/sdb']);
        expect(JSON.parse(human.stdout).blockdevices[0]).toMatchObject({ name: 'sdb', size: '1.8T' });
    });

    test('refusals: an unknown column (exit 1), a missing device (exit 32), no --json (not simulated, exit 2)', async () => {
        const host = startHost('replace-disk');
        await expect(tool(host, 'lsblk', ['--json', '-o', 'NAME,FOO'])).resolves.toEqual({ exitCode: 1, stdout: '', stderr: 'lsblk: unknown column: FOO\n' });
        await expect(tool(host, 'lsblk', ['--json', '/dev/sdz'])).resolves.toEqual({
            exitCode: 32, stdout: '{\n   "blockdevices": [\n\n   ]\n}\n', stderr: 'lsblk: /dev/sdz: not a block device\n',
        });
        expect(parseBlockdevArgs('lsblk', ['-b'])).toMatchObject({ refused: { exitCode: 2 } });
    });
});

describe('wipefs', () => {
    test('--no-act --json: an old md superblock, ext4, a GPT with its backup and protective MBR; nothing on a blank disk', async () => {
        const host = startHost('replace-disk');
        const signatures = async (device: string) => parseWipefs((await tool(host, 'wipefs', ['--no-act', '--json', `/dev/${device}`])).stdout);
        expect(await signatures('sdd')).toEqual([{ device: 'sdd', type: 'linux_raid_member', offset: '0x1000' }]);
        expect(await signatures('sdh')).toEqual([{ device: 'sdh', type: 'ext4', offset: '0x438' }]);
        expect(await signatures('sde')).toEqual([
            { device: 'sde', type: 'gpt', offset: '0x200' }, { device: 'sde', type: 'gpt', offset: '0x1d1c1115e00' },
            { device: 'sde', type: 'PMBR', offset: '0x1fe' }]);
        expect(await signatures('sdf2')).toEqual([{ device: 'sdf2', type: 'linux_raid_member', offset: '0x1000' }]);
        // As 2.38.1 prints it for a block device without signatures.
        await expect(tool(host, 'wipefs', ['--no-act', '--json', '/dev/sdg'])).resolves.toEqual({ exitCode: 0, stdout: '{\n   "signatures": [\n\n   ]\n}\n', stderr: '' });
        const sdd = JSON.parse((await tool(host, 'wipefs', ['-n', '-J', '/dev/sdd'])).stdout).signatures[0];
        expect(sdd).toEqual({ device: 'sdd', offset: '0x1000', type: 'linux_raid_member', uuid: '5d0a3c6e-7f1b-4e2a-9c84-2b61d0f3a917', label: 'mdsim:0' });
        await expect(tool(host, 'wipefs', ['--no-act', '--json', '/dev/sdz'])).resolves.toEqual({
            exitCode: 1, stdout: '', stderr: 'wipefs: error: /dev/sdz: probing initialization failed: No such file or directory\n',
        });
    });

    test('--all erases what is there, a partition before its disk; a disk\'s table takes its partitions with it', async () => {
        const host = startHost('replace-disk');
        await expect(tool(host, 'wipefs', ['--all', '/dev/sdh', '/dev/sdf1', '/dev/sdf'])).resolves.toEqual({
            exitCode: 0, stderr: '', stdout:
                '/dev/sdh: 2 bytes were erased at offset 0x00000438 (ext4): 53 ef\n' +
                '/dev/sdf1: 4 bytes were erased at offset 0x00001000 (linux_raid_member): fc 4e 2b a9\n' +
                '/dev/sdf: 8 bytes were erased at offset 0x00000200 (gpt): 45 46 49 20 50 41 52 54\n' +
                '/dev/sdf: 8 bytes were erased at offset 0x1d1c1115e00 (gpt): 45 46 49 20 50 41 52 54\n' +
                '/dev/sdf: 2 bytes were erased at offset 0x000001fe (PMBR): 55 aa\n' +
                '/dev/sdf: calling ioctl to re-read partition table: Success\n',
        });
        expect(existsSync(join(host.root, 'sys/block/sdf/sdf1'))).toBe(false);
        expect(read(host, 'proc/diskstats')).not.toMatch(/ sdf\d /);
        for (const device of ['sdh', 'sdf']) expect(parseWipefs((await tool(host, 'wipefs', ['-n', '-J', `/dev/${device}`])).stdout)).toEqual([]);
    });

    test('--all refuses a device in use (a member, a disk with a member partition) and stops there', async () => {
        const host = startHost('replace-disk');
        for (const device of ['/dev/sda', '/dev/sde1', '/dev/sde']) {
            await expect(tool(host, 'wipefs', ['--all', device])).resolves.toEqual({
                exitCode: 1, stdout: '', stderr: `wipefs: error: ${device}: probing initialization failed: Device or resource busy\n`,
            });
        }
        const partly = await tool(host, 'wipefs', ['--all', '/dev/sdh', '/dev/sda', '/dev/sdd']);
        expect(partly.exitCode).toBe(1);
        expect(partly.stdout).toContain('/dev/sdh: 2 bytes were erased');
        expect(parseWipefs((await tool(host, 'wipefs', ['-n', '-J', '/dev/sdd'])).stdout)).toHaveLength(1);
    });
});

describe('sfdisk', () => {
    /** sde's table as raidtune copies it: the dump without its identifiers (src/md/replace/partitionCopy.ts). */
    async function copyOfSde(host: ReturnType<typeof startHost>): Promise<string> {
        const dump = await tool(host, 'sfdisk', ['--dump', '/dev/sde']);
        expect(dump.exitCode).toBe(0);
        return replicaScript(parseSfdiskDump(dump.stdout));
    }

    test('--dump as sfdisk 2.38.1 prints it', async () => {
        const host = startHost('replace-disk');
        const { stdout } = await tool(host, 'sfdisk', ['--dump', '/dev/sde']);
        expect(stdout).toMatch(new RegExp('^label: gpt\nlabel-id: [0-9A-F-]{36}\ndevice: /dev/sde\nunit: sectors\nfirst-lba: 2048\nlast-lba: 3907029134\nsector-size: 512\n\n' +
            '/dev/sde1 : start=        2048, size=     2097152, type=A19D880F-05FC-4D3B-A006-743F0F84911E, uuid=[0-9A-F-]{36}\n' +
            '/dev/sde2 : start=     2099200, size=  3904929792, type=A19D880F-05FC-4D3B-A006-743F0F84911E, uuid=[0-9A-F-]{36}\n$'));
        await expect(tool(host, 'sfdisk', ['--dump', '/dev/sdg'])).resolves.toEqual({ exitCode: 1, stdout: '', stderr: 'sfdisk: /dev/sdg: does not contain a recognized partition table\n' });
        await expect(tool(host, 'sfdisk', ['-d', '/dev/sdz'])).resolves.toEqual({ exitCode: 1, stdout: '', stderr: 'sfdisk: cannot open /dev/sdz: No such file or directory\n' });
    });

    test('a copy of sde\'s table onto sdk: sfdisk\'s report, the kernel\'s new partitions, new identifiers', async () => {
        const host = startHost('replace-disk');
        const script = await copyOfSde(host);
        const out = await tool(host, 'sfdisk', ['/dev/sdk'], script);
        expect(out.exitCode).toBe(0);
        expect(out.stdout).toMatch(new RegExp(`^Checking that no-one is using this disk right now \\.\\.\\. OK

Disk /dev/sdk: 1\\.82 TiB, 2000398934016 bytes, 3907029168 sectors
Units: sectors of 1 \\* 512 = 512 bytes
Sector size \\(logical/physical\\): 512 bytes / 4096 bytes
I/O size \\(minimum/optimal\\): 4096 bytes / 4096 bytes

(>>> Script header accepted\\.\n){4}>>> Created a new GPT disklabel \\(GUID: [0-9A-F-]{36}\\)\\.
/dev/sdk1: Created a new partition 1 of type 'Linux RAID' and of size 1 GiB\\.
/dev/sdk2: Created a new partition 2 of type 'Linux RAID' and of size 1\\.8 TiB\\.
/dev/sdk3: Done\\.

New situation:
Disklabel type: gpt
Disk identifier: [0-9A-F-]{36}

Device      Start        End    Sectors  Size Type
/dev/sdk1    2048    2099199    2097152    1G Linux RAID
/dev/sdk2 2099200 3907028991 3904929792  1\\.8T Linux RAID

The partition table has been altered\\.
Calling ioctl\\(\\) to re-read partition table\\.
Syncing disks\\.
$`));
        expect(attr(host, 'sys/block/sdk/sdk1/size')).toBe('2097152');
        expect(attr(host, 'sys/block/sdk/sdk2/start')).toBe('2099200');
        expect(read(host, 'proc/diskstats')).toMatch(/^ +8 +161 sdk1 /m);
        const source = parseSfdiskDump((await tool(host, 'sfdisk', ['--dump', '/dev/sde'])).stdout);
        const copy = parseSfdiskDump((await tool(host, 'sfdisk', ['--dump', '/dev/sdk'])).stdout);
        expect(copy.partitions).toEqual(source.partitions);
        expect(copy.headers.find(h => h.key === 'label-id')).not.toEqual(source.headers.find(h => h.key === 'label-id'));
    });

    test('refusals: a disk too small for the table, a disk in use', async () => {
        const host = startHost('replace-disk');
        const script = await copyOfSde(host);
        const small = await tool(host, 'sfdisk', ['/dev/sdi'], script);
        expect(small).toMatchObject({
            exitCode: 1,
            stderr: 'The last usable GPT sector is 1953525134, but 3907028991 is requested.\nFailed to add #2 partition: Invalid argument\n',
        });
        expect(small.stdout).toMatch(/\/dev\/sdi1: Created a new partition 1 .*\n\/dev\/sdi2: Leaving\.\n\n$/);
        expect(host.state.disks.find(d => d.name === 'sdi')!.partitions).toEqual([]);
        await expect(tool(host, 'sfdisk', ['/dev/sde'], script)).resolves.toEqual({
            exitCode: 1, stdout: 'Checking that no-one is using this disk right now ... FAILED\n\n',
            stderr: 'This disk is currently in use - repartitioning is probably a bad idea.\nUmount all file systems, and swapoff all swap partitions on this disk.\n' +
                'Use the --no-reread flag to suppress this check.\n\nsfdisk: Use the --force flag to overrule all checks.\n',
        });
    });

    test('a 512-byte table on the 4Kn disk is recalculated in its sectors, the same bytes', async () => {
        const host = startHost('replace-disk');
        const out = await tool(host, 'sfdisk', ['/dev/sdj'], await copyOfSde(host));
        expect(out.stdout).toContain('The script and device sector size differ; the sizes will be recalculated to match the device.\n');
        const dump = parseSfdiskDump((await tool(host, 'sfdisk', ['--dump', '/dev/sdj'])).stdout);
        expect(dump.headers).toContainEqual({ key: 'first-lba', value: '256' });
        expect(dump.partitions[0].fields.slice(0, 2).map(f => f.replace(/ +/g, ''))).toEqual(['start=256', 'size=262144']);
        expect(attr(host, 'sys/block/sdj/sdj1/size')).toBe('2097152');
    });

    test('a partition made again where a wiped table had one finds what the old one left', async () => {
        const host = startHost('replace-disk');
        await tool(host, 'wipefs', ['--all', '/dev/sdf1', '/dev/sdf']);
        await tool(host, 'sfdisk', ['/dev/sdf'], await copyOfSde(host));
        expect(parseWipefs((await tool(host, 'wipefs', ['-n', '-J', '/dev/sdf1'])).stdout)).toEqual([]);
        expect(parseWipefs((await tool(host, 'wipefs', ['-n', '-J', '/dev/sdf2'])).stdout)).toEqual([{ device: 'sdf2', type: 'linux_raid_member', offset: '0x1000' }]);
    });
});

test('block sizes in sysfs: a 4Kn disk, 512e disks, an array the largest of its members\'', () => {
    const host = startHost('replace-disk');
    expect(attr(host, 'sys/block/sdj/queue/logical_block_size')).toBe('4096');
    expect(attr(host, 'sys/block/sda/queue/logical_block_size')).toBe('512');
    expect(attr(host, 'sys/block/sda/queue/physical_block_size')).toBe('4096');
    expect(attr(host, 'sys/block/md0/queue/logical_block_size')).toBe('512');
});

test('util-linux\'s human sizes: one decimal, two on fdisk\'s disk line, ".0" left out', () => {
    expect(humanSize(TB2, { style: 'letter' })).toBe('1.8T');
    expect(humanSize(TB2, { style: 'iec', twoDecimals: true })).toBe('1.82 TiB');
    expect(humanSize(1000204886016, { style: 'letter' })).toBe('931.5G');
    expect(humanSize(2 ** 30, { style: 'iec' })).toBe('1 GiB');
    expect(humanSize(54525952, { style: 'iec' })).toBe('52 MiB');
});

test('the wrapper tells build/blockdev-sim.mjs which tool it is, before the caller\'s arguments', () => {
    const dir = tempRoot();
    const program = join(dir, 'echo.mjs');
    writeFileSync(program, 'console.log(JSON.stringify([process.env.MDSIM_ROOT, ...process.argv.slice(2)]));\n');
    const wrapper = join(dir, 'lsblk');
    writeMdadmWrapper({ path: wrapper, root: dir, program, standsFor: 'lsblk', leadingArgs: ['lsblk'] });
    const output = execFileSync(wrapper, ['--json', 'two words'], { env: {} }).toString();
    expect(JSON.parse(output)).toEqual([dir, 'lsblk', '--json', 'two words']);
});
