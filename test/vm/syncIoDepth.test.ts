// SPDX-License-Identifier: LGPL-2.1-or-later
// sync_io_depth against the guest's own kernel, whichever it is: where the kernel lacks the files
// (Debian 12's 6.1) the page shows nothing of it, in the card or the limit dialogs; where it has
// them (6.16 and later: `make check-vm KERNEL=7`), the page shows the kernel's values and a change
// through the page lands in sysfs and /proc/sys, read back from the guest.
import type { Page } from 'playwright-core';
import { arrayAction, openDialog, showArrayPage, showOverview, syncFact } from '../browser/harness/raidtunePage';
import { applyAndWait, dialog, DONE, footerButton, previewedCommands } from './harness/dialog';
import { createSlowly, mdCreate, waitForCard } from './harness/scenarios';
import { setupVm } from './harness/vmEnv';

const vm = setupVm();

const GLOBAL = '/proc/sys/dev/raid/sync_io_depth';
const ARRAY = '/sys/block/md0/md/sync_io_depth';

/** The guest's value, or null where the file does not exist. */
async function guestValue(path: string): Promise<string | null> {
    const out = await vm.guest.runOk(`if [ -e ${path} ]; then cat ${path}; else echo '<absent>'; fi`);
    return out.trim() === '<absent>' ? null : out.trim();
}

/** The system's limits on the overview, md0's on its own page: the dialog of either. */
async function openLimits(page: Page, where: 'global' | 'md0'): Promise<void> {
    if (where === 'global') await showOverview(page);
    const button = where === 'global'
        ? page.locator('#global-limits').getByRole('button', { name: 'Change…' })
        : await arrayAction(page, 'md0', 'Speed limits…');
    await openDialog(button);
}

/** The overview's system limits card, once it is there (it comes a moment after the overview). */
async function globalLimits(page: Page) {
    await showOverview(page);
    const card = page.locator('#global-limits');
    await card.waitFor();
    return card;
}

test('the page shows the kernel\'s sync_io_depth, or nothing of it where the kernel has none; a change lands in the kernel', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid1', ['vda', 'vdb']));
    const { page } = await vm.openPage();
    await waitForCard(page, 'md0', true);
    const global = await guestValue(GLOBAL);
    const array = await guestValue(ARRAY);

    if (global === null) {
        // A kernel without it (older than 6.16: so a newer guest whose files went missing fails
        // here rather than passing as an old one): not a word of it, and no field for it.
        const [major, minor] = (await vm.guest.runOk('uname -r')).split('.').map(Number);
        expect(major * 1000 + minor).toBeLessThan(6016);
        expect(array).toBeNull();
        await expect((await globalLimits(page)).locator('#global-sync-io-depth').count()).resolves.toBe(0);
        await expect(page.getByText('Sync I/O depth').count()).resolves.toBe(0);
        await expect((await showArrayPage(page, 'md0')).getByText('Sync I/O depth').count()).resolves.toBe(0);
        for (const where of ['global', 'md0'] as const) {
            await openLimits(page, where);
            await expect(dialog(page).getByText('Sync I/O depth').count()).resolves.toBe(0);
            await footerButton(page, 'Cancel').click();
            await dialog(page).waitFor({ state: 'detached' });
        }
        return;
    }

    // The kernel's own values, as the page shows them.
    const shownGlobal = await (await globalLimits(page)).locator('#global-sync-io-depth').innerText();
    expect(shownGlobal.replace(', the kernel default', '')).toBe(`Sync I/O depth: ${global}`);
    const [value, source] = /^(-?\d+) \((local|system)\)$/.exec(array!)!.slice(1);
    expect(await syncFact(page, 'md0', 'Sync I/O depth')).toBe(`${value}, ${source === 'local' ? 'set for this array' : 'from the system setting'}`);

    // The array's own depth through the page, read back from the guest's sysfs.
    await openLimits(page, 'md0');
    await dialog(page).getByRole('radiogroup', { name: 'Sync I/O depth' }).getByRole('radio', { name: 'Own limit for this array' }).check();
    await dialog(page).getByLabel('Sync I/O depth of this array').fill('8');
    expect(await previewedCommands(page)).toBe(`echo 8 > ${ARRAY}`);
    expect(await applyAndWait(page)).toEqual([DONE]);
    expect(await guestValue(ARRAY)).toBe('8 (local)');
    await footerButton(page, 'Close').click();

    // The system depth; the array keeps its own.
    const wanted = String(Number(global) === 48 ? 40 : 48);
    await openLimits(page, 'global');
    await dialog(page).getByLabel('Sync I/O depth').fill(wanted);
    expect(await previewedCommands(page)).toBe(`echo ${wanted} > ${GLOBAL}`);
    expect(await applyAndWait(page)).toEqual([DONE]);
    expect(await guestValue(GLOBAL)).toBe(wanted);
    expect(await guestValue(ARRAY)).toBe('8 (local)');
    await footerButton(page, 'Close').click();
    await (await globalLimits(page)).locator('#global-sync-io-depth').getByText(`Sync I/O depth: ${wanted}`).waitFor({ timeout: 30000 });

    // 0 is refused by raidtune (the sysctl would take it), with nothing written.
    await openLimits(page, 'global');
    await dialog(page).getByLabel('Sync I/O depth').fill('0');
    await dialog(page).getByLabel('Sync I/O depth').blur();
    await dialog(page).locator('.pf-v6-c-helper-text__item.pf-m-error').first().waitFor();
    expect(await footerButton(page, 'Apply').isDisabled()).toBe(true);
    await footerButton(page, 'Cancel').click();
    expect(await guestValue(GLOBAL)).toBe(wanted);
});
