// SPDX-License-Identifier: LGPL-2.1-or-later
// Changing settings through the page, on the simulated host: preview, confirm, write through tee,
// read back, record the originals, restore them; and bad input that writes nothing. The system's
// limits are a host setting of the overview (#/), an array's own settings are on its page (#/md0).

import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupRaidtune } from './harness/env';
import {
    applyAndClose, arrayAction, arrayActionLabels, arrayCard, arrayMenu, changeDialog, closeLeftoverDialog,
    dialogButton, KERNEL_DONE, openArrayDialog, openDialog, showArrayPage, showOverview, simValue, waitUntil,
} from './harness/raidtunePage';
import { BAD_TEXT_VALUES } from '../shared/badValues';
import { formatKiB } from '../../src/md/format';
import { waitBudget } from '../../tools/cockpit/waitBudget';

const stateDir = mkdtempSync(join(tmpdir(), 'raidtune-state-'));
const env = setupRaidtune({ scenario: 'raid6-recovery', arrayPage: 'md0', config: { stateDir } });

const dialog = () => changeDialog(env.page);
const footerButton = (name: string) => dialogButton(env.page, name);

beforeEach(() => closeLeftoverDialog(env.page));

/** The system limits' dialog, from the overview's host settings (they come a moment after the overview). */
async function openGlobalChange() {
    await showOverview(env.page);
    await openDialog(env.page.locator('#global-limits').getByRole('button', { name: 'Change…' }));
}

test('raising the system limits: preview, apply, read back, restore', async () => {
    await openGlobalChange();
    await dialog().getByLabel('Minimum (MiB/s per disk)').fill('50');
    await dialog().getByLabel('Maximum (MiB/s per disk)').fill('300');
    const commands = dialog().locator('.raidtune-commands');
    await expect(commands.innerText()).resolves.toBe(
        'echo 51200 > /proc/sys/dev/raid/speed_limit_min\necho 307200 > /proc/sys/dev/raid/speed_limit_max');
    // Nothing is written before the user confirms.
    expect(await simValue(env, '/proc/sys/dev/raid/speed_limit_min')).toBe('4000');

    await footerButton('Apply').click();
    await dialog().getByText(KERNEL_DONE).waitFor();
    expect(await simValue(env, '/proc/sys/dev/raid/speed_limit_min')).toBe('51200');
    expect(await simValue(env, '/proc/sys/dev/raid/speed_limit_max')).toBe('307200');
    // The originals were recorded on the host before the first change.
    const journal = JSON.parse(readFileSync(join(stateDir, 'restore.json'), 'utf8'));
    expect(journal.entries.map((e: { path: string; original: string }) => [e.path, e.original])).toEqual([
        ['/proc/sys/dev/raid/speed_limit_min', '4000'], ['/proc/sys/dev/raid/speed_limit_max', '200000'],
    ]);
    await footerButton('Close').click();

    // The page offers the way back, even after a reload.
    await env.page.reload();
    const banner = env.page.locator('.raidtune-restore');
    await banner.getByText('raidtune changed 2 settings on this host.').waitFor();
    await banner.getByRole('button', { name: 'Restore previous settings' }).click();
    await expect(dialog().locator('.raidtune-commands').innerText()).resolves.toBe(
        'echo 200000 > /proc/sys/dev/raid/speed_limit_max\necho 4000 > /proc/sys/dev/raid/speed_limit_min\n' +
        `rm -f ${stateDir}/restore.json`);
    await footerButton('Restore').click();
    await dialog().getByText(KERNEL_DONE).waitFor();
    expect(await simValue(env, '/proc/sys/dev/raid/speed_limit_min')).toBe('4000');
    expect(await simValue(env, '/proc/sys/dev/raid/speed_limit_max')).toBe('200000');
    expect(existsSync(join(stateDir, 'restore.json'))).toBe(false);
    await footerButton('Close').click();
    await banner.waitFor({ state: 'detached' });
});

test('bad values get a message next to the field and nothing is written', async () => {
    await openGlobalChange();
    const min = dialog().getByLabel('Minimum (MiB/s per disk)');
    const apply = footerButton('Apply');
    for (const bad of BAD_TEXT_VALUES) {
        await min.fill(bad);
        await min.blur();
        await expect(dialog().locator('.pf-v6-c-helper-text__item.pf-m-error').first().innerText()).resolves.toMatch(/\w/);
        expect(await apply.isDisabled()).toBe(true);
        await expect(dialog().locator('.raidtune-commands').count()).resolves.toBe(0);
    }
    // Minimum above maximum: the kernel would take it; raidtune does not.
    await min.fill('500');
    await dialog().getByLabel('Maximum (MiB/s per disk)').fill('100');
    await dialog().getByText('The minimum must not be above the maximum.').waitFor();
    await footerButton('Cancel').click();
    expect(await simValue(env, '/proc/sys/dev/raid/speed_limit_min')).toBe('4000');
    expect(await simValue(env, '/proc/sys/dev/raid/speed_limit_max')).toBe('200000');
    expect(existsSync(join(stateDir, 'restore.json'))).toBe(false);
});

test('"system" typed as an array\'s own limit is refused next to the field; the choice stays "own"', async () => {
    await openArrayDialog(env.page, 'md0', 'Speed limits…');
    await dialog().getByRole('radio', { name: 'Own limit for this array' }).first().check();
    const min = dialog().getByLabel('Minimum (MiB/s per disk)');
    await min.fill('system');
    await min.blur();
    await expect(dialog().locator('.pf-v6-c-helper-text__item.pf-m-error').first().innerText()).resolves.toMatch(/\w/);
    // The field is still there with what was typed, under the choice the user made.
    await expect(min.inputValue()).resolves.toBe('system');
    expect(await dialog().getByRole('radio', { name: 'Own limit for this array' }).first().isChecked()).toBe(true);
    expect(await footerButton('Apply').isDisabled()).toBe(true);
    await expect(dialog().locator('.raidtune-commands').count()).resolves.toBe(0);
    await footerButton('Cancel').click();
    expect(await simValue(env, '/sys/block/md0/md/sync_speed_min')).toBe('4000 (system)');
});

test('an own maximum below the system minimum the array follows is said at the maximum, not only by a grey Apply (#31)', async () => {
    expect(await simValue(env, '/sys/block/md0/md/sync_speed_min')).toBe('4000 (system)');
    await openArrayDialog(env.page, 'md0', 'Speed limits…');
    await dialog().getByRole('radio', { name: 'Own limit for this array' }).nth(1).check();
    await dialog().getByLabel('Maximum (MiB/s per disk)').fill('1');
    await dialog().getByLabel('Maximum (MiB/s per disk)').blur();
    await dialog().locator('.pf-v6-c-helper-text__item.pf-m-error')
        .getByText('The maximum must not be below the system minimum this array follows (4000 KiB/s).').waitFor();
    expect(await footerButton('Apply').isDisabled()).toBe(true);
    await footerButton('Cancel').click();
    expect(await simValue(env, '/sys/block/md0/md/sync_speed_max')).toBe('200000 (system)');
});

test('a 6.1-like host (no sync_io_depth files) shows nothing of the sync I/O depth', async () => {
    // Neither among the host settings (once they are there) nor on the array's page.
    await showOverview(env.page);
    await env.page.locator('#global-limits').waitFor();
    await expect(env.page.locator('#global-sync-io-depth').count()).resolves.toBe(0);
    await expect(env.page.getByText('Sync I/O depth').count()).resolves.toBe(0);
    await showArrayPage(env.page, 'md0');
    await expect(env.page.getByText('Sync I/O depth').count()).resolves.toBe(0);
    await openGlobalChange();
    await expect(dialog().getByText('Sync I/O depth').count()).resolves.toBe(0);
    await footerButton('Cancel').click();
    await openArrayDialog(env.page, 'md0', 'Speed limits…');
    await expect(dialog().getByText('Sync I/O depth').count()).resolves.toBe(0);
    await footerButton('Cancel').click();
});

test('stripe cache with its memory cost, applied and read back', async () => {
    await openArrayDialog(env.page, 'md0', 'Stripe cache…');
    const field = dialog().getByLabel('Entries (17 to 32768)');
    await field.fill('4096');
    // 4 KiB pages x 5 disks x 4096 entries = 80 MiB
    await expect(dialog().locator('.raidtune-stripe-cost').innerText()).resolves.toMatch(/^Memory: 80\.0 MiB = page size 4 KiB × 5 disks × 4096 entries/);
    await footerButton('Apply').click();
    await dialog().getByText(KERNEL_DONE).waitFor();
    expect(await simValue(env, '/sys/block/md0/md/stripe_cache_size')).toBe('4096');
    await footerButton('Close').click();
});

test('the restore banner counts the settings that differ now, not every one a change tried (#31)', async () => {
    const journalPaths = () => (JSON.parse(readFileSync(join(stateDir, 'restore.json'), 'utf8')) as { entries: { path: string; original: string }[] }).entries;
    const stripe = '/sys/block/md0/md/stripe_cache_size';
    // The stripe cache changed (the test before), then set back to what it was: recorded, yet no change.
    const original = journalPaths().find(e => e.path === stripe)!.original;
    await openArrayDialog(env.page, 'md0', 'Stripe cache…');
    await dialog().getByLabel('Entries (17 to 32768)').fill(original);
    await applyAndClose(env.page, 'Apply');
    expect(await simValue(env, stripe)).toBe(original);
    // The read-ahead changed, and stays so.
    const readAhead = Number(await simValue(env, '/sys/block/md0/queue/read_ahead_kb')) * 2;
    await openArrayDialog(env.page, 'md0', 'Read-ahead…');
    await dialog().locator('#md0-read-ahead').fill(String(readAhead));
    await applyAndClose(env.page, 'Apply');
    expect(journalPaths().map(e => e.path)).toEqual([stripe, '/sys/block/md0/queue/read_ahead_kb']);

    const banner = env.page.locator('.raidtune-restore');
    await banner.getByText('raidtune changed 1 setting on this host.').waitFor();
    expect(await banner.locator('p').first().innerText()).toBe('read-ahead of md0');
});

test('a smaller stripe cache says how much memory it gives back, not "0 KiB more than now" (#31)', async () => {
    const now = Number(await simValue(env, '/sys/block/md0/md/stripe_cache_size'));
    await openArrayDialog(env.page, 'md0', 'Stripe cache…');
    await dialog().getByLabel('Entries (17 to 32768)').fill(String(now / 2));
    // 4 KiB pages x 5 disks x half the entries: 10 KiB x the entries less.
    const cost = dialog().locator('.raidtune-stripe-cost');
    await cost.getByText(`× ${now / 2} entries;`, { exact: false }).waitFor();
    expect(await cost.innerText()).toContain(`entries; ${formatKiB(now * 10)} less than now, `);
    await footerButton('Cancel').click();
});

test('md0\'s actions by weight: the limits and the pause at hand, the rest in its menu', async () => {
    const { buttons, menu } = await arrayActionLabels(env.page, 'md0');
    // A RAID 6 rebuilding: nothing md would refuse now is offered (no bitmap change, no check).
    expect(buttons).toEqual(['Speed limits…', 'Pause']);
    expect(menu).toEqual(['Stripe cache…', 'Read-ahead…', 'Worker threads…', 'Disk queues…', 'Restart sync']);
    const item = await arrayAction(env.page, 'md0', 'Restart sync');
    const bar = arrayCard(env.page, 'md0').locator('.raidtune-array-actions');
    // Shown once PatternFly's popper has faded it in (its opacity goes from 0 to 1 after placing it).
    await arrayMenu(env.page, 'md0').evaluate(menu => new Promise<void>(resolve => {
        const opaque = (el: Element | null): boolean => !el || (getComputedStyle(el).opacity === '1' && opaque(el.parentElement));
        const shown = () => (opaque(menu) ? resolve() : requestAnimationFrame(shown));
        shown();
    }));
    const [barBox, menuBox] = [await bar.boundingBox(), await arrayMenu(env.page, 'md0').boundingBox()];
    await env.page.screenshot({
        path: 'test-results/screenshots/array-actions-menu.png',
        clip: {
            x: barBox!.x, y: barBox!.y,
            width: menuBox!.x + menuBox!.width - barBox!.x + 8, height: menuBox!.y + menuBox!.height - barBox!.y + 8,
        },
    });
    // A restart says what it does: the progress is kept, and limits never need it.
    await item.click();
    await dialog().getByText('md interrupts the sync of md0 and starts it again at once from where it stopped: the progress is kept. A change of speed limits needs no restart: md applies it within seconds.').waitFor();
    expect(await dialog().locator('.raidtune-commands').innerText()).toBe('echo idle > /sys/block/md0/md/sync_action');
    await footerButton('Cancel').click();
    await dialog().waitFor({ state: 'detached' });
    expect(await simValue(env, '/sys/block/md0/md/sync_action')).toBe('recover');
});

test('pause and resume the recovery', async () => {
    const card = await showArrayPage(env.page, 'md0');
    await card.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect(dialog().locator('.raidtune-commands').innerText()).resolves.toBe('echo frozen > /sys/block/md0/md/sync_action');
    // What a pause does to a rebuild, before Apply: the progress stays, the redundancy waits.
    await dialog().getByText('md holds the rebuild of md0 where it is and keeps its progress. Until it is resumed, the array stays without the redundancy the rebuild restores.').waitFor();
    await footerButton('Apply').click();
    await dialog().getByText('Done.', { exact: false }).waitFor();
    await footerButton('Close').click();
    expect(await simValue(env, '/sys/block/md0/md/sync_action')).toBe('frozen');
    await card.getByText('Paused (frozen)', { exact: false }).waitFor({ timeout: waitBudget(10000) });

    await card.getByRole('button', { name: 'Resume', exact: true }).click();
    await footerButton('Apply').click();
    await dialog().getByText('Done.', { exact: false }).waitFor();
    await footerButton('Close').click();
    await card.getByText('Speed:', { exact: true }).waitFor({ timeout: waitBudget(20000) });
    // Like the kernel, the host restarts the interrupted recovery by itself (at its next tick).
    await waitUntil('the host restarts the recovery', async () =>
        await simValue(env, '/sys/block/md0/md/sync_action') === 'recover', 5000, 100);
});
