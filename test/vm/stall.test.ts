// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #15 on the real kernel: a check started with sync_max just above its start (as mdcheck
// starts one for its window) really stops there in md; after two minutes without progress the page
// shows it stalled with the reason, and the plan it offers (echo max > sync_max) lets it go on.
import { arrayCard, openDialog, waitUntil } from '../browser/harness/raidtunePage';
import { applyAndWait, dialog, DONE, footerButton, previewedCommands } from './harness/dialog';
import { createSlowly, guestMdstat, mdCreate, waitForCard, waitForProgress } from './harness/scenarios';
import { setupVm } from './harness/vmEnv';

const vm = setupVm();
/** 2048 sectors: 1 MiB per disk. */
const SYNC_MAX = 2048;
/** Two minutes of standing still (src/md/stall.ts), the page's 2 s refresh and an emulated guest. */
const STALL_SHOWN_MS = 200000;

test('a check held at sync_max is shown stalled with the reason; raising sync_max lets it go on', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid1', ['vda', 'vdb'], '--assume-clean'));
    // md refuses to lower sync_max while a sync runs (EBUSY): it is set first, then the check starts.
    await vm.guest.runOk(`echo ${SYNC_MAX} > /sys/block/md0/md/sync_max\necho check > /sys/block/md0/md/sync_action`);
    const held = await waitUntil('md0 held at sync_max in the guest', async () => {
        const array = await guestMdstat(vm.guest, 'md0');
        return array.progress && array.progress.done * 2 >= SYNC_MAX ? array : null;
    }, 60000, 500);
    expect(held.progress).toMatchObject({ action: 'check', done: SYNC_MAX / 2 });

    const { page } = await vm.openPage();
    await waitForCard(page, 'md0', true);
    const alert = arrayCard(page, 'md0').locator('.raidtune-stall');
    await alert.waitFor({ timeout: STALL_SHOWN_MS });
    await expect(alert.getByRole('heading').innerText()).resolves.toMatch(/No progress for 2 min \d+ s/);
    await alert.getByText(`It reached sync_max = ${SYNC_MAX}: md waits there until sync_max is raised.`, { exact: true }).waitFor();
    // Still where it was: md waits, it is not merely slow.
    expect((await guestMdstat(vm.guest, 'md0')).progress).toMatchObject({ action: 'check', done: SYNC_MAX / 2 });

    await openDialog(alert.getByRole('button', { name: 'Raise sync_max to "max"…' }));
    expect(await previewedCommands(page)).toBe('echo max > /sys/block/md0/md/sync_max');
    expect(await applyAndWait(page)).toEqual([DONE]);
    await footerButton(page, 'Close').click();
    await dialog(page).waitFor({ state: 'detached' });
    expect((await vm.guest.runOk('cat /sys/block/md0/md/sync_max')).trim()).toBe('max');
    await waitForProgress(vm.guest, 'md0', SYNC_MAX / 2);
    await alert.waitFor({ state: 'detached', timeout: 30000 });
}, STALL_SHOWN_MS + 120000);
