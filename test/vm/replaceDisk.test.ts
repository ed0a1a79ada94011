// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #34 on the real kernel and mdadm, through the page: a RAID 5 whose member failed and was
// removed gets a disk from Add a disk…, which lists the 4Kn disk (vdi) as refused with its reason,
// and the disks with signatures (the removed member's superblock, a filesystem) as offered only
// once their wipe is chosen; the one chosen is wiped, md rebuilds onto it and mdadm --detail then
// reads clean. Two RAID 1 arrays on the partitions of two disks (an MBR table, then a GPT one), one
// disk gone: a blank disk gets the other's partition layout with identifiers of its own and each of
// its partitions joins its array; when an add is refused after the table was copied, the dialog
// says what ran and what did not, and its undo wipes the copied table. A member with read errors is
// replaced while it serves: md/degraded reads 0 throughout, and the old member ends faulty.
import type { Page } from 'playwright-core';
import { arrayCard, openDialog, waitUntil } from '../browser/harness/raidtunePage';
import { applyAndWait, dialog, footerButton, previewedCommands } from './harness/dialog';
import { createSlowly, mdCreate, partitionCommands, waitForCard } from './harness/scenarios';
import { DEFAULT_SPEED_LIMIT_MAX, setupVm } from './harness/vmEnv';

const vm = setupVm();

test('RAID 5, a member failed and removed: a disk with a filesystem offered once its wipe is chosen, wiped, added, rebuilt, clean; the 4Kn disk refused with its reason', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid5', ['vda', 'vdb', 'vdc'], '--assume-clean'));
    // vdd: a disk someone used before, with a filesystem on it.
    await vm.guest.runOk('mdadm /dev/md0 --fail /dev/vdc --remove /dev/vdc 2>&1\n/usr/sbin/mkfs.ext4 -q /dev/vdd');
    expect((await vm.guest.runOk('cat /sys/block/vdi/queue/logical_block_size')).trim()).toBe('4096');

    const { page } = await vm.openPage();
    await waitForCard(page, 'md0', false);
    const alert = arrayCard(page, 'md0').locator('.raidtune-health-alert');
    await openDialog(alert.getByRole('button', { name: 'Add a disk…' }));
    await dialog(page).locator('.raidtune-replace-candidate').first().waitFor();

    const offered = await dialog(page).getByRole('radio').evaluateAll(radios => radios.map(r => (r as HTMLInputElement).labels?.[0]?.textContent));
    // vdc still carries md0's superblock, vdd a filesystem: offered only once the admin chooses to wipe them.
    expect(offered).toEqual(['/dev/vde', '/dev/vdf', '/dev/vdg', '/dev/vdh']);
    await dialog(page).getByRole('button', { name: /^Not usable/ }).click();
    await expect(dialog(page).locator('.raidtune-replace-refused li[data-device="vdi"]').innerText()).resolves
        .toMatch(/^\/dev\/vdi \(256 MiB\): Its logical block size is 4096 bytes, larger than the 512 bytes of md0/);
    await expect(dialog(page).locator('.raidtune-replace-refused li[data-device="vda"]').innerText()).resolves
        .toContain('It holds a member of md0 now.');
    await dialog(page).locator('#replace-wipe').check();
    await dialog(page).getByRole('radio', { name: '/dev/vdc' }).check();
    expect(await previewedCommands(page)).toBe('wipefs --all /dev/vdc\nmdadm /dev/md0 --add /dev/vdc');

    await dialog(page).getByRole('radio', { name: '/dev/vdd' }).check();
    await expect(dialog(page).locator('.raidtune-replace-candidate', { hasText: '/dev/vdd' }).innerText()).resolves
        .toContain('Signatures on it: ext4 on vdd. Chosen, it is wiped first.');
    expect(await previewedCommands(page)).toBe('wipefs --all /dev/vdd\nmdadm /dev/md0 --add /dev/vdd');
    // Nothing ran before the confirmation.
    expect(await vm.guest.runOk('cat /proc/mdstat')).not.toContain('vdd');
    expect(await vm.guest.runOk('/usr/sbin/wipefs --no-act /dev/vdd')).toContain('ext4');
    const outcome = await applyAndWait(page, 'Add');
    expect(outcome[0]).toMatch(/^Done\./);
    await footerButton(page, 'Close').click();

    await rebuildToTheEnd(['md0']);
    const detail = await vm.guest.runOk('mdadm --detail /dev/md0');
    expect(detail).toMatch(/^\s*State : clean\s*$/m);
    expect(detail).toMatch(/active sync\s+\/dev\/vdd$/m);
    expect((await vm.guest.runOk('cat /sys/block/md0/md/degraded')).trim()).toBe('0');
    // The filesystem is gone; md's superblock is what is on it now.
    const left = await vm.guest.runOk('/usr/sbin/wipefs --no-act /dev/vdd');
    expect(left).toContain('linux_raid_member');
    expect(left).not.toContain('ext4');
}, 240000);

/** Waits in the guest until no array syncs, at full speed. */
async function rebuildToTheEnd(arrays: string[]): Promise<void> {
    await vm.guest.runOk([`echo ${DEFAULT_SPEED_LIMIT_MAX} > /proc/sys/dev/raid/speed_limit_min`,
        ...arrays.map(a => `mdadm --wait /dev/${a} || true`)].join('\n'), { timeoutMs: 120000 });
}

/** md1 and md2, RAID 1 on partitions 1 and 2 of vda and vdb, vdb failed and removed from both. */
function twoArraysOnePartitionedDiskGone(label: 'dos' | 'gpt' = 'dos'): Promise<string> {
    return createSlowly(vm.guest, [
        partitionCommands(['vda', 'vdb'], 64, label),
        mdCreate('md1', 'raid1', ['vda1', 'vdb1'], '--assume-clean --metadata=1.2'),
        mdCreate('md2', 'raid1', ['vda2', 'vdb2'], '--assume-clean --metadata=1.2'),
        'mdadm /dev/md1 --fail /dev/vdb1 --remove /dev/vdb1 2>&1',
        'mdadm /dev/md2 --fail /dev/vdb2 --remove /dev/vdb2 2>&1',
    ].join('\n'));
}

/** md2's Add a disk… dialog, its candidates read. */
async function openAddDisk(page: Page): Promise<void> {
    await waitForCard(page, 'md2', false);
    await openDialog(arrayCard(page, 'md2').locator('.raidtune-health-alert').getByRole('button', { name: 'Add a disk…' }));
    await dialog(page).locator('.raidtune-replace-candidate').first().waitFor();
}

/** The partition lines of an sfdisk dump, each without its name and its GPT partition GUID. */
function layout(dump: string): string[] {
    return dump.split('\n').filter(l => l.includes('start='))
        .map(l => l.replace(/^\S+\s*:\s*/, '').replace(/,\s*uuid=[^,]*/i, ''));
}

/** Each GPT partition's number and uuid= in an sfdisk dump (none on a dos table). */
function partitionUuids(dump: string): Map<string, string> {
    return new Map([...dump.matchAll(/^\S+?(\d+)\s*:\s*start=.*\buuid=([0-9A-Fa-f-]+)/gm)].map(m => [m[1], m[2]]));
}

test.each(['dos', 'gpt'] as const)('RAID 1 on partitions of a %s table, a disk gone from both arrays: a blank disk gets the same partitions under identifiers of its own (the disk\'s; GPT: each partition\'s), each joins its array', async label => {
    await twoArraysOnePartitionedDiskGone(label);
    const sourceTable = await vm.guest.runOk('/usr/sbin/sfdisk --dump /dev/vda');
    expect(sourceTable).toMatch(new RegExp(`^label: ${label}$`, 'm'));

    const { page } = await vm.openPage();
    await openAddDisk(page);
    await expect(dialog(page).locator('.raidtune-replace-needs').innerText()).resolves.toMatch(/^The members are partitions: a whole disk/);
    const commands = await previewedCommands(page);
    expect(commands).toMatch(new RegExp(`^sfdisk /dev/vdc <<'EOF'\nlabel: ${label}\n`));
    expect(commands).toMatch(/\nEOF\nmdadm \/dev\/md1 --add \/dev\/vdc1\nmdadm \/dev\/md2 --add \/dev\/vdc2$/);
    // The source's own identifiers stay behind: sfdisk gives the new disk its own. Its last usable
    // sector too: the new disk's own end decides it.
    expect(commands).not.toMatch(/label-id|device:|uuid=|last-lba/);

    const outcome = await applyAndWait(page, 'Add');
    expect(outcome[0]).toMatch(/^Done\./);
    await footerButton(page, 'Close').click();
    await rebuildToTheEnd(['md1', 'md2']);

    const copied = await vm.guest.runOk('/usr/sbin/sfdisk --dump /dev/vdc');
    expect(layout(copied)).toHaveLength(2);
    expect(layout(copied)).toEqual(layout(sourceTable));
    expect(copied.match(/^label-id: (.*)$/m)?.[1]).not.toBe(sourceTable.match(/^label-id: (.*)$/m)?.[1]);
    if (label === 'gpt') {
        // Two partitions with one GUID confuse udev's by-partuuid links and the firmware.
        const sourceUuids = partitionUuids(sourceTable);
        const copiedUuids = partitionUuids(copied);
        expect([...sourceUuids.keys()]).toEqual(['1', '2']);
        expect([...copiedUuids.keys()]).toEqual(['1', '2']);
        for (const [number, uuid] of copiedUuids)
            expect(uuid).not.toBe(sourceUuids.get(number));
    }
    for (const [array, member] of [['md1', 'vdc1'], ['md2', 'vdc2']]) {
        const detail = await vm.guest.runOk(`mdadm --detail /dev/${array}`);
        expect(detail).toMatch(/^\s*State : clean\s*$/m);
        expect(detail).toMatch(new RegExp(`active sync\\s+/dev/${member}$`, 'm'));
    }
}, 240000);

test('cut short: md1 stopped after the dialog opened, the table is copied and md1\'s add refused; the dialog says what ran and what did not; undo wipes the table', async () => {
    await twoArraysOnePartitionedDiskGone();
    const { page } = await vm.openPage();
    await openAddDisk(page);
    await vm.guest.runOk('mdadm --stop /dev/md1 2>&1');

    const outcome = await applyAndWait(page, 'Add');
    expect(outcome[0]).toMatch(/^Changing the members of \/dev\/md1 failed: /);
    await expect(dialog(page).locator('.raidtune-cut-short-done').innerText()).resolves.toMatch(/^sfdisk \/dev\/vdc <<'EOF'\n[^]*\nEOF$/);
    await expect(dialog(page).locator('.raidtune-cut-short-left').innerText()).resolves.toBe('mdadm /dev/md2 --add /dev/vdc2');
    expect(await vm.guest.runOk('cat /proc/partitions')).toMatch(/ vdc1\n/);
    expect(await vm.guest.runOk('cat /proc/mdstat')).not.toContain('vdc');

    await footerButton(page, 'Undo the 1 change already made').click();
    await dialog(page).getByText('The changes made before the failure were undone.').waitFor();
    await waitUntil('vdc without partitions', async () => !/ vdc\d/.test(await vm.guest.runOk('cat /proc/partitions')));
    expect((await vm.guest.runOk('/usr/sbin/wipefs --no-act /dev/vdc')).trim()).toBe('');
}, 240000);

/** Samples md0's degraded count every 50 ms in the guest, from now until `stopSampling`. */
async function startSamplingDegraded(): Promise<void> {
    await vm.guest.runOk(`rm -f /tmp/degraded.log /tmp/stop-sampling
/usr/bin/setsid -f sh -c 'while [ ! -e /tmp/stop-sampling ]; do cat /sys/block/md0/md/degraded >> /tmp/degraded.log; sleep 0.05; done' >/dev/null 2>&1`);
}

async function stopSampling(): Promise<string[]> {
    const log = await vm.guest.runOk('touch /tmp/stop-sampling; sleep 0.2; cat /tmp/degraded.log');
    return log.trim().split('\n');
}

test('a member with read errors replaced from the page: md copies it onto the new disk, degraded reads 0 at every sample, the old member ends faulty and is removed', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid5', ['vda', 'vdb', 'vdc'], '--assume-clean'));
    // md counts the read errors it corrected in dev-*/errors, which root may set.
    await vm.guest.runOk('echo 7 > /sys/block/md0/md/dev-vdb/errors');

    const { page } = await vm.openPage();
    await waitForCard(page, 'md0', false);
    const alert = arrayCard(page, 'md0').locator('.raidtune-health-alert');
    await openDialog(alert.getByRole('button', { name: 'Replace vdb…' }));
    await dialog(page).locator('.raidtune-replace-candidate').first().waitFor();
    expect(await previewedCommands(page)).toBe('mdadm /dev/md0 --add-spare /dev/vdd\nmdadm /dev/md0 --replace /dev/vdb --with /dev/vdd');

    await startSamplingDegraded();
    await vm.guest.runOk(`echo ${DEFAULT_SPEED_LIMIT_MAX} > /proc/sys/dev/raid/speed_limit_min`);
    const outcome = await applyAndWait(page, 'Replace');
    expect(outcome[0]).toMatch(/^Done\./);
    await footerButton(page, 'Close').click();
    await waitUntil('vdb faulty at the end of the copy', async () =>
        /faulty/.test(await vm.guest.runOk('cat /sys/block/md0/md/dev-vdb/state')), 120000, 200);
    const samples = await stopSampling();
    expect(samples.length).toBeGreaterThan(3);
    expect([...new Set(samples)]).toEqual(['0']);
    await vm.guest.runOk('mdadm --wait /dev/md0 || true');
    expect(await vm.guest.runOk('mdadm --detail /dev/md0')).toMatch(/active sync\s+\/dev\/vdd$/m);

    // The page then offers to remove the old member, as for any failed one.
    await openDialog(alert.getByRole('button', { name: 'Remove vdb…' }));
    expect(await previewedCommands(page)).toBe('mdadm /dev/md0 --fail /dev/vdb --remove /dev/vdb');
    expect((await applyAndWait(page, 'Remove'))[0]).toMatch(/^Done\./);
    const detail = await vm.guest.runOk('mdadm --detail /dev/md0');
    expect(detail).not.toContain('/dev/vdb');
    expect(detail).toMatch(/^\s*State : clean\s*$/m);
}, 240000);
