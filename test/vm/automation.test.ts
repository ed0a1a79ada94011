// SPDX-License-Identifier: LGPL-2.1-or-later
// The automation script on the real kernel: the shell script the "Fast rebuild" dialog shows,
// run in the guest (busybox sh) after the same array was assembled again as md9, leaves the sysfs
// values that the page's Apply left on md0; a second run changes nothing.
import { arrayCard, openDialog } from '../browser/harness/raidtunePage';
import { applyAndWait, dialog, DONE, footerButton } from './harness/dialog';
import { createSlowly, mdCreate, waitForCard } from './harness/scenarios';
import { setupVm } from './harness/vmEnv';

const vm = setupVm();

const GLOBAL = ['/proc/sys/dev/raid/speed_limit_min', '/proc/sys/dev/raid/speed_limit_max'];
const arrayFiles = (md: string) => [`/sys/block/${md}/md/stripe_cache_size`, `/sys/block/${md}/md/sync_speed_min`];

async function guestValues(paths: string[]): Promise<string[]> {
    return (await vm.guest.runOk(paths.map(p => `cat ${p}`).join('\n'))).trim().split('\n');
}

test('the shell script of a preset reaches what Apply reached, on the array found by its UUID; twice changes nothing', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid5', ['vda', 'vdb', 'vdc'], '--assume-clean'));
    const before = await guestValues(GLOBAL);
    const { page } = await vm.openPage();
    await waitForCard(page, 'md0', false);
    await arrayCard(page, 'md0').waitFor();
    await openDialog(page.locator('#global-limits').getByRole('button', { name: 'Presets…' }));
    await dialog(page).getByLabel('Fast rebuild').check();
    await dialog(page).getByRole('button', { name: 'Shell script' }).click();
    const script = await dialog(page).locator('#raidtune-shell-script-code').innerText();
    expect(await applyAndWait(page)).toEqual([DONE]);
    await footerButton(page, 'Close').click();
    const applied = await guestValues([...GLOBAL, ...arrayFiles('md0')]);
    expect(applied.slice(0, 2)).not.toEqual(before);

    // The same array under another name, with the kernel's values back as before the change.
    await vm.guest.runOk([
        'mdadm --stop /dev/md0 && mdadm --assemble /dev/md9 /dev/vda /dev/vdb /dev/vdc 2>&1',
        ...GLOBAL.map((p, i) => `echo ${before[i]} > ${p}`),
    ].join('\n'));
    expect(await guestValues([...GLOBAL, ...arrayFiles('md9')])).not.toEqual(applied);
    expect(script).not.toContain('RAIDTUNE_EOF');
    await vm.guest.runOk(`cat > /tmp/raidtune-automation.sh <<'RAIDTUNE_EOF'\n${script}\nRAIDTUNE_EOF`);

    const first = await vm.guest.runOk('sh /tmp/raidtune-automation.sh 2>&1');
    expect(first).toContain('changed: md9/md/stripe_cache_size');
    expect(await guestValues([...GLOBAL, ...arrayFiles('md9')])).toEqual(applied);
    const second = await vm.guest.runOk('sh /tmp/raidtune-automation.sh 2>&1');
    expect(second).not.toMatch(/^changed:/m);
    expect(second).toContain('finished: 0 changed');
});
