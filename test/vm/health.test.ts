// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #18 item 6 on the real kernel and mdadm: a member failed with mdadm is named in its array's
// alert with the next commands, and the removal run from the page takes it out of the array in the
// kernel (mdadm --detail and sysfs in the guest); the alert then asks only for a new disk. The
// removal's shell script refuses where that name is a working member (vdb added back), and removes
// it where it failed again.
import { arrayCard, openDialog, waitUntil } from '../browser/harness/raidtunePage';
import { applyAndWait, footerButton, previewedCommands, shownScript } from './harness/dialog';
import { createSlowly, mdCreate, waitForCard } from './harness/scenarios';
import { setupVm } from './harness/vmEnv';

const vm = setupVm();

test('a member failed with mdadm: the alert names it, and removing it from the page takes it out in the kernel', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid1', ['vda', 'vdb', 'vdc'], '--assume-clean'));
    await vm.guest.runOk('mdadm /dev/md0 --fail /dev/vdb 2>&1');
    expect((await vm.guest.runOk('cat /sys/block/md0/md/dev-vdb/state')).trim()).toMatch(/^faulty/);

    const { page } = await vm.openPage();
    await waitForCard(page, 'md0', false);
    const alert = arrayCard(page, 'md0').locator('.raidtune-health-alert');
    await alert.waitFor();
    // Two of three mirrors work: one more may fail, so a warning, not danger.
    expect(await alert.getAttribute('class')).toContain('pf-m-warning');
    await expect(alert.locator('.raidtune-health-redundancy').innerText()).resolves.toBe('It survives 1 more failed disk.');
    await expect(alert.locator('.raidtune-health-failed').innerText()).resolves.toMatch(/^vdb failed \(disk vdb[,)]/);
    await expect(alert.locator('.raidtune-health-commands pre').innerText()).resolves
        .toBe('mdadm /dev/md0 --fail /dev/vdb --remove /dev/vdb\nmdadm /dev/md0 --add /dev/sdX');

    await openDialog(alert.getByRole('button', { name: 'Remove vdb…' }));
    expect(await previewedCommands(page)).toBe('mdadm /dev/md0 --fail /dev/vdb --remove /dev/vdb');
    const script = await shownScript(page);
    // Nothing ran before the confirmation.
    expect(await vm.guest.runOk('mdadm --detail /dev/md0')).toContain('/dev/vdb');
    const outcome = await applyAndWait(page, 'Remove');
    expect(outcome[0]).toMatch(/^Done\./);
    await footerButton(page, 'Close').click();

    const detail = await vm.guest.runOk('mdadm --detail /dev/md0');
    expect(detail).not.toContain('/dev/vdb');
    expect(detail).toMatch(/State : clean, degraded/);
    expect((await vm.guest.runOk('test -e /sys/block/md0/md/dev-vdb && echo present || echo absent')).trim()).toBe('absent');
    await waitUntil('md0\'s alert without the failed member', async () =>
        (await alert.locator('.raidtune-health-failed').count()) === 0);
    await expect(alert.locator('.raidtune-health-commands pre').innerText()).resolves.toBe('mdadm /dev/md0 --add /dev/sdX');

    // vdb back in md0: it rebuilds as a spare, and the script must not fail a working member.
    await vm.guest.runOk(`mdadm /dev/md0 --add /dev/vdb 2>&1\ncat > /tmp/remove.sh <<'RAIDTUNE_EOF'\n${script}\nRAIDTUNE_EOF`);
    const state = (await vm.guest.runOk('cat /sys/block/md0/md/dev-vdb/state')).trim();
    expect(state).not.toMatch(/faulty/);
    const uuid = (await vm.guest.runOk('cat /sys/block/md0/md/uuid')).trim();
    const refused = await vm.guest.run('sh /tmp/remove.sh');
    expect(refused.code).toBe(1);
    expect(refused.out).toContain(`raidtune: vdb of md array ${uuid} has not failed on this host (${state}): it is not removed`);
    expect(await vm.guest.runOk('mdadm --detail /dev/md0')).toContain('/dev/vdb');

    // Failed while it rebuilds: md lets it go once the interrupted recovery has stopped (6.1 refuses
    // the removal with EBUSY until then), as it has long stopped for a disk that failed on its own.
    await vm.guest.runOk(['mdadm /dev/md0 --fail /dev/vdb 2>&1',
        'for i in $(seq 100); do [ "$(cat /sys/block/md0/md/sync_action)" = idle ] && break; sleep 0.1; done',
        '[ "$(cat /sys/block/md0/md/sync_action)" = idle ]'].join('\n'));
    expect(await vm.guest.runOk('sh /tmp/remove.sh 2>&1')).toContain('changed: mdadm /dev/md0 --fail /dev/vdb --remove /dev/vdb');
    expect(await vm.guest.runOk('mdadm --detail /dev/md0')).not.toContain('/dev/vdb');
    expect(await vm.guest.runOk('sh /tmp/remove.sh 2>&1')).toContain('unchanged: vdb removed');
});
