// SPDX-License-Identifier: LGPL-2.1-or-later
// The simulated mdadm's --add, --add-spare and --replace ... --with on the replace-disk scenario,
// end to end on the host's state and tree: mdadm 4.2's words and exit codes, md filling an empty
// slot, a replacement that rebuilds next to a member still serving (the array never degraded) and
// takes its slot at the end, the partition copy for two RAID1 on partitions.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseWipefs } from '../../../src/md/replace/blockDevices';
import { parseSfdiskDump, replicaScript } from '../../../src/md/replace/partitionCopy';
import type { SimulatedHost } from '../../../sim';
import { mdadm, refused, said, tool } from './blockdevTools';
import { attr, md, read, removeTempRoots, startHost } from './simHelpers';

afterEach(removeTempRoots);

function stanza(host: SimulatedHost, name: string): string {
    return new RegExp(`^${name} :[^]*?(?=^md\\d+ :|^unused)`, 'm').exec(read(host, 'proc/mdstat'))?.[0] ?? '';
}

/** Ticks until no sync runs on the array, calling `each` after every tick; the ticks taken. */
function runSyncs(host: SimulatedHost, name: string, each: () => void = () => {}): number {
    let ticks = 0;
    while (host.state.arrays.find(a => a.name === name)!.sync) {
        host.tick(600);
        each();
        if (++ticks > 200) throw new Error(`${name} never finished syncing`);
    }
    return ticks;
}

describe('mdadm --add', () => {
    test('fills md0\'s empty slot: added, rebuilt, clean; the device carries md0\'s superblock', async () => {
        const host = startHost('replace-disk');
        await expect(mdadm(host, '/dev/md0', '--add', '/dev/sdg')).resolves.toEqual(said('added /dev/sdg'));
        expect(stanza(host, 'md0')).toMatch(/^md0 : active raid5 sdg\[4\] sdc\[2\] sdb\[1\] sda\[0\]\n.*\[4\/3\] \[UUU_\]\n.*recovery = {2}0\.0%/);
        expect(attr(host, md('md0', 'sync_action'))).toBe('recover');
        expect(attr(host, md('md0', 'dev-sdg/slot'))).toBe('3');
        runSyncs(host, 'md0');
        expect(stanza(host, 'md0')).toContain('[4/4] [UUUU]');
        expect(attr(host, md('md0', 'degraded'))).toBe('0');
        expect(attr(host, md('md0', 'dev-sdg/state'))).toBe('in_sync');
        const signatures = JSON.parse((await tool(host, 'wipefs', ['-n', '-J', '/dev/sdg'])).stdout).signatures;
        expect(signatures).toEqual([{ device: 'sdg', offset: '0x1000', type: 'linux_raid_member', uuid: '5d0a3c6e-7f1b-4e2a-9c84-2b61d0f3a917', label: 'mdsim:0' }]);
    });

    test('refusals in mdadm 4.2\'s order and words, exit 1, nothing changed', async () => {
        const host = startHost('replace-disk');
        await expect(mdadm(host, '/dev/md0', '--add', '/dev/sdz')).resolves.toEqual(refused('stat failed for /dev/sdz: No such file or directory'));
        await expect(mdadm(host, '/dev/md0', '--add', '/dev/sde1')).resolves.toEqual(refused('Cannot open /dev/sde1: Device or resource busy'));
        await expect(mdadm(host, '/dev/md0', '--add', '/dev/sda')).resolves.toEqual(refused('Cannot open /dev/sda: Device or resource busy'));
        await expect(mdadm(host, '/dev/md0', '--add', '/dev/sde')).resolves.toEqual(refused('Cannot open /dev/sde: Device or resource busy'));
        await expect(mdadm(host, '/dev/md0', '--add', '/dev/sdi')).resolves.toEqual(refused('/dev/sdi not large enough to join array'));
        await expect(mdadm(host, '/dev/md0', '--add', '/dev/sdj')).resolves.toEqual(refused('add new device failed for /dev/sdj as 4: Invalid argument'));
        await expect(mdadm(host, '/dev/md0', '--add', '/dev/sdg', '/dev/sdi')).resolves.toEqual(refused('added /dev/sdg', '/dev/sdi not large enough to join array'));
        expect(host.state.arrays[0].members.map(m => m.name)).toEqual(['sda', 'sdb', 'sdc', 'sdg']);
    });

    test('a device before any operation is added too', async () => {
        const host = startHost('replace-disk');
        await expect(mdadm(host, '/dev/md0', '/dev/sdg')).resolves.toEqual(said('added /dev/sdg'));
    });

    test('partitions: sde\'s table copied onto sdk, each partition into its RAID1; md2 waits for md1 (same disks)', async () => {
        const host = startHost('replace-disk');
        const table = parseSfdiskDump((await tool(host, 'sfdisk', ['--dump', '/dev/sde'])).stdout);
        expect((await tool(host, 'sfdisk', ['/dev/sdk'], replicaScript(table))).exitCode).toBe(0);
        await expect(mdadm(host, '/dev/md1', '--add', '/dev/sdk1')).resolves.toEqual(said('added /dev/sdk1'));
        await expect(mdadm(host, '/dev/md2', '--add', '/dev/sdk2')).resolves.toEqual(said('added /dev/sdk2'));
        expect(stanza(host, 'md1')).toContain('recovery =');
        expect(stanza(host, 'md2')).toContain('resync=DELAYED');
        runSyncs(host, 'md1');
        runSyncs(host, 'md2');
        for (const array of ['md1', 'md2']) expect(stanza(host, array)).toContain('[2/2] [UU]');
        expect(parseWipefs((await tool(host, 'wipefs', ['-n', '-J', '/dev/sdk2'])).stdout)).toEqual([{ device: 'sdk2', type: 'linux_raid_member', offset: '0x1000' }]);
    });
});

describe('mdadm --add-spare, then --replace OLD --with NEW', () => {
    /** md0 made whole with sdg, then sdk a spare. */
    async function healthyWithSpare(): Promise<SimulatedHost> {
        const host = startHost('replace-disk');
        await mdadm(host, '/dev/md0', '--add', '/dev/sdg');
        runSyncs(host, 'md0');
        await expect(mdadm(host, '/dev/md0', '--add-spare', '/dev/sdk')).resolves.toEqual(said('added /dev/sdk'));
        return host;
    }

    test('--add-spare on an array missing nothing: a spare, nothing rebuilds', async () => {
        const host = await healthyWithSpare();
        expect(stanza(host, 'md0')).toMatch(/^md0 : active raid5 sdk\[5\]\(S\) sdg\[4\] /);
        expect(attr(host, md('md0', 'sync_action'))).toBe('idle');
        expect(attr(host, md('md0', 'dev-sdk/state'))).toBe('spare');
    });

    test('the replacement rebuilds next to sda, never degraded; at the end sda is faulty and sdk holds its slot', async () => {
        const host = await healthyWithSpare();
        await expect(mdadm(host, '/dev/md0', '--replace', '/dev/sda', '--with', '/dev/sdk')).resolves.toEqual(
            said('Marked /dev/sda (device 0 in /dev/md0) for replacement', 'Marked /dev/sdk in /dev/md0 as replacement for device 0'));
        expect(stanza(host, 'md0')).toMatch(/^md0 : active raid5 sdk\[5\]\(R\) sdg\[4\] sdc\[2\] sdb\[1\] sda\[0\]\n.*\[4\/4\] \[UUUU\]\n.*recovery =/);
        expect(attr(host, md('md0', 'sync_action'))).toBe('recover');
        expect(attr(host, md('md0', 'dev-sdk/state'))).toBe('spare,replacement');
        expect(attr(host, md('md0', 'dev-sdk/slot'))).toBe('0');
        expect(attr(host, md('md0', 'dev-sda/state'))).toBe('in_sync,want_replacement');
        const ticks = runSyncs(host, 'md0', () => expect(attr(host, md('md0', 'degraded'))).toBe('0'));
        expect(ticks).toBeGreaterThan(5);
        expect(attr(host, md('md0', 'dev-sda/state'))).toBe('faulty,want_replacement');
        expect(attr(host, md('md0', 'dev-sda/slot'))).toBe('none');
        expect(attr(host, md('md0', 'dev-sdk/state'))).toBe('in_sync');
        expect(attr(host, md('md0', 'dev-sdk/slot'))).toBe('0');
        expect(stanza(host, 'md0')).toMatch(/^md0 : active raid5 sdk\[5\] sdg\[4\] sdc\[2\] sdb\[1\] sda\[0\]\(F\)\n.*\[4\/4\] \[UUUU\]\n/);
        await expect(mdadm(host, '/dev/md0', '--fail', '/dev/sda', '--remove', '/dev/sda')).resolves.toEqual(
            said('set /dev/sda faulty in /dev/md0', 'hot removed /dev/sda from /dev/md0'));
    });

    test('refusals: not a member, not active, no --replace before --with, a working member as the replacement', async () => {
        const host = await healthyWithSpare();
        await expect(mdadm(host, '/dev/md0', '--replace', '/dev/sdh', '--with', '/dev/sdk')).resolves.toEqual(refused('/dev/sdh not found in /dev/md0 so cannot --replace it'));
        await expect(mdadm(host, '/dev/md0', '--replace', '/dev/sdk')).resolves.toEqual(refused('/dev/sdk is not active and so cannot be replaced.'));
        await expect(mdadm(host, '/dev/md0', '--with', '/dev/sdk')).resolves.toEqual(refused('No matching --replace device for --with /dev/sdk'));
        await expect(mdadm(host, '/dev/md0', '--replace', '/dev/sda', '--with', '/dev/sdb')).resolves.toEqual(
            refused('Marked /dev/sda (device 0 in /dev/md0) for replacement', '/dev/sdb is active and cannot be a replacement'));
        await expect(mdadm(host, '/dev/md0', '--replace', '/dev/sdb', '--with', '/dev/sdh')).resolves.toEqual(
            refused('Marked /dev/sdb (device 1 in /dev/md0) for replacement', '/dev/sdh not found in /dev/md0 so cannot make it preferred replacement'));
    });

    test('--replace alone: md makes the spare the marked member\'s replacement', async () => {
        const host = await healthyWithSpare();
        await expect(mdadm(host, '/dev/md0', '--replace', '/dev/sdb')).resolves.toEqual(said('Marked /dev/sdb (device 1 in /dev/md0) for replacement'));
        expect(attr(host, md('md0', 'dev-sdk/state'))).toBe('spare,replacement');
        expect(attr(host, md('md0', 'dev-sdk/slot'))).toBe('1');
    });
});

describe('mdadm --stop', () => {
    test('the array goes from mdstat and sysfs; its members keep their superblocks and are free; an add to it then finds no array', async () => {
        const host = startHost('replace-disk');
        await expect(mdadm(host, '--stop', '/dev/md1')).resolves.toEqual(said('stopped /dev/md1'));
        expect(read(host, '/proc/mdstat')).not.toContain('md1 :');
        expect(existsSync(join(host.root, 'sys/block/md1'))).toBe(false);
        const signatures = JSON.parse((await tool(host, 'wipefs', ['-n', '-J', '/dev/sde1'])).stdout).signatures;
        expect(signatures.map((s: { type: string }) => s.type)).toEqual(['linux_raid_member']);
        await expect(mdadm(host, '/dev/md1', '--add', '/dev/sdk1')).resolves.toEqual(refused('error opening /dev/md1: No such file or directory'));
        await expect(mdadm(host, '-S', '/dev/md1')).resolves.toEqual(refused('error opening /dev/md1: No such file or directory'));
    });
});
