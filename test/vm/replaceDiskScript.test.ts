// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #34's automation export on the real kernel and mdadm: the shell script the Add a disk… and
// Replace dialogs show, run in the guest (busybox sh) instead of Apply, finds the new disk by the
// serial it reports (virtio disks have no WWID), puts it in the array as Apply would, and a second
// run changes nothing: once md took it, and once md finished copying a replaced member onto it.
import type { Page } from 'playwright-core';
import { arrayCard, openDialog, waitUntil } from '../browser/harness/raidtunePage';
import { dialog, footerButton, shownScript } from './harness/dialog';
import { createSlowly, mdCreate, waitForCard } from './harness/scenarios';
import { DEFAULT_SPEED_LIMIT_MAX, setupVm } from './harness/vmEnv';

const vm = setupVm();

/** Runs `script` with the guest's sh as root would, the admin's PATH; its output (stderr too). */
async function runInGuest(script: string): Promise<string> {
    expect(script).not.toContain('RAIDTUNE_EOF');
    await vm.guest.runOk(`cat > /tmp/raidtune-replace.sh <<'RAIDTUNE_EOF'\n${script}\nRAIDTUNE_EOF`);
    return vm.guest.runOk('PATH=/usr/sbin:/usr/bin:/sbin:/bin sh /tmp/raidtune-replace.sh 2>&1');
}

/** The dialog opened from md0's alert with `button`, vdd chosen: its script, and the dialog closed unapplied. */
async function scriptFor(page: Page, button: string): Promise<string> {
    await waitForCard(page, 'md0', false);
    await openDialog(arrayCard(page, 'md0').locator('.raidtune-health-alert').getByRole('button', { name: button }));
    await dialog(page).getByRole('radio', { name: '/dev/vdd' }).check();
    const script = await shownScript(page);
    await footerButton(page, 'Cancel').click();
    await dialog(page).waitFor({ state: 'detached' });
    return script;
}

test('RAID 5 missing a member: the script finds vdd by its serial and adds it; md rebuilds onto it; a second run changes nothing', async () => {
    await createSlowly(vm.guest, [
        mdCreate('md0', 'raid5', ['vda', 'vdb', 'vdc'], '--assume-clean'),
        'mdadm /dev/md0 --fail /dev/vdc --remove /dev/vdc 2>&1',
    ].join('\n'));
    const { page } = await vm.openPage();
    const script = await scriptFor(page, 'Add a disk…');
    const serial = (await vm.guest.runOk('cat /sys/block/vdd/serial')).trim();
    expect(script).toContain(`new_1=$(disk_by_id "$root" serial '${serial}')  # vdd where this was made`);
    expect(await vm.guest.runOk('cat /proc/mdstat')).not.toContain('vdd');

    const first = await runInGuest(script);
    expect(first).toMatch(/^changed: mdadm \/dev\/md0 --add \/dev\/vdd$/m);
    expect(first).toContain('finished: 1 changed');
    await vm.guest.runOk(`echo ${DEFAULT_SPEED_LIMIT_MAX} > /proc/sys/dev/raid/speed_limit_min; mdadm --wait /dev/md0 || true`);
    const detail = await vm.guest.runOk('mdadm --detail /dev/md0');
    expect(detail).toMatch(/^\s*State : clean\s*$/m);
    expect(detail).toMatch(/active sync\s+\/dev\/vdd$/m);

    const second = await runInGuest(script);
    expect(second).toContain('unchanged: vdd is a member of md0');
    expect(second).toContain('finished: 0 changed');
}, 240000);

test('a member with read errors: the script adds vdd as a spare and md copies vdb onto it; run again during and after the copy, it changes nothing', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid5', ['vda', 'vdb', 'vdc'], '--assume-clean'));
    await vm.guest.runOk('echo 7 > /sys/block/md0/md/dev-vdb/errors');
    const { page } = await vm.openPage();
    const script = await scriptFor(page, 'Replace vdb…');
    expect(script).toContain('old_2=$(member_disk "$root" "$md_1" slot 1 member)  # vdb where this was made');

    // Slow enough to run the script again while md copies.
    await vm.guest.runOk('echo 1000 > /sys/block/md0/md/sync_speed_max');
    const first = await runInGuest(script);
    expect(first).toMatch(/^changed: mdadm \/dev\/md0 --add-spare \/dev\/vdd$/m);
    expect(first).toMatch(/^changed: mdadm \/dev\/md0 --replace \/dev\/vdb --with \/dev\/vdd$/m);
    const during = await runInGuest(script);
    expect(await vm.guest.runOk('cat /sys/block/md0/md/dev-vdb/state')).toMatch(/want_replacement/);
    expect(during).toContain('unchanged: vdb of md0 is being replaced');
    expect(during).toContain('finished: 0 changed');

    await vm.guest.runOk('echo system > /sys/block/md0/md/sync_speed_max');
    await vm.guest.runOk(`echo ${DEFAULT_SPEED_LIMIT_MAX} > /proc/sys/dev/raid/speed_limit_min`);
    await waitUntil('vdb faulty at the end of the copy', async () =>
        /faulty/.test(await vm.guest.runOk('cat /sys/block/md0/md/dev-vdb/state')), 120000, 200);
    expect(await vm.guest.runOk('cat /sys/block/md0/md/degraded')).toBe('0\n');
    const after = await runInGuest(script);
    expect(after).toContain('finished: 0 changed');
    expect(await vm.guest.runOk('mdadm --detail /dev/md0')).toMatch(/active sync\s+\/dev\/vdd$/m);
}, 240000);
