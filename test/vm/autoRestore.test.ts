// SPDX-License-Identifier: LGPL-2.1-or-later
// The automatic restore on a real kernel: armed from the page, the waiter runs in the guest (no
// systemd there: the `setsid -f` fallback), sits through a restart of the resync (sync_action
// reads idle for a moment, then md restarts it), and writes the originals back once the resync has
// really finished; raidtune's record goes with it.
import { applyAndWait, dialog, DONE, DONE_NOT_KERNEL, footerButton, previewedCommands } from './harness/dialog';
import { openDialog, overviewRow } from '../browser/harness/raidtunePage';
import { VM_JOURNAL, VM_STATE_DIR } from './harness/vmConfig';
import { setupVm } from './harness/vmEnv';

const vm = setupVm();

const guestValue = async (path: string) => (await vm.guest.runOk(`cat ${path}`)).trim();
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

async function waitForGuest(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await probe())) {
        if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
        await sleep(1000);
    }
}

test('the waiter ignores a restart and restores the originals when the resync has finished', async () => {
    // Slow limits BEFORE --create, so the resync outlasts the arming (256 MiB at ~2 MB/s: minutes).
    await vm.guest.runOk(`
echo 1000 > /proc/sys/dev/raid/speed_limit_min
echo 1500 > /proc/sys/dev/raid/speed_limit_max
mdadm --create /dev/md0 --run --level=1 --raid-devices=2 /dev/vda /dev/vdb`);
    const { page } = await vm.openPage();
    await overviewRow(page, 'md0').getByRole('progressbar').waitFor({ timeout: 60000 });

    // A change through the page records the originals (1000, 1500)...
    await openDialog(page.locator('#global-limits').getByRole('button', { name: 'Change…' }));
    await dialog(page).getByLabel('Minimum (MiB/s per disk)').fill('1');
    await dialog(page).getByLabel('Maximum (MiB/s per disk)').fill('2');
    expect(await applyAndWait(page)).toEqual([DONE]);
    await footerButton(page, 'Close').click();

    // ...which the waiter is handed when armed.
    await openDialog(page.locator('.raidtune-restore').getByRole('button', { name: 'Restore automatically when the sync of md0 finishes…' }));
    const commands = await previewedCommands(page);
    expect(commands).toContain(`${VM_STATE_DIR}/auto-restore/md0.armed <<'EOF'`);
    expect(commands).toContain('setsid -f sh -c ');
    expect(commands!.endsWith(`raidtune-restore md0 /sys /proc ${VM_STATE_DIR} 5 3 360`)).toBe(true);
    expect(await applyAndWait(page, 'Arm')).toEqual([DONE_NOT_KERNEL]);
    await footerButton(page, 'Close').click();
    await page.getByText('Armed: restores 2 settings when the sync of md0 finishes').waitFor();
    await waitForGuest('the waiter\'s first samples', async () =>
        (await vm.guest.run(`[ -s ${VM_STATE_DIR}/auto-restore/md0.history ]`)).code === 0, 30000);

    // A restart: idle for a moment, then md resumes the resync. The waiter must not fire on it: it
    // fires after 3 idle polls in a row, and writes a history line on each poll that sees the sync
    // run, so 3 more lines after the restart mean 3 polls that saw it running again (not a wait of
    // a fixed time, which a loaded machine's slower polls could outlast).
    const historyLines = async () => Number((await vm.guest.runOk(`wc -l < ${VM_STATE_DIR}/auto-restore/md0.history`)).trim());
    const before = await historyLines();
    await vm.guest.runOk('echo idle > /sys/block/md0/md/sync_action');
    await waitForGuest('3 polls of the waiter after the restart', async () => await historyLines() >= before + 3, 90000);
    expect(await guestValue('/sys/block/md0/md/sync_action')).toBe('resync');
    expect(await guestValue('/proc/sys/dev/raid/speed_limit_max')).toBe('2048');
    expect((await vm.guest.run(`[ -e ${VM_STATE_DIR}/auto-restore/md0.armed ]`)).code).toBe(0);

    // Let the resync run at the disks' speed; the waiter restores once it has finished.
    await vm.guest.runOk('echo 500000 > /proc/sys/dev/raid/speed_limit_max; echo 400000 > /proc/sys/dev/raid/speed_limit_min');
    await waitForGuest('the originals back', async () =>
        await guestValue('/proc/sys/dev/raid/speed_limit_min') === '1000' &&
        await guestValue('/proc/sys/dev/raid/speed_limit_max') === '1500', 240000);
    expect(await guestValue('/sys/block/md0/md/sync_action')).toBe('idle');
    expect((await vm.guest.run(`[ -e ${VM_JOURNAL} ] || [ -e ${VM_STATE_DIR}/auto-restore/md0.armed ]`)).code).toBe(1);
    await page.locator('.raidtune-restore').waitFor({ state: 'detached', timeout: 30000 });
}, 420000);
