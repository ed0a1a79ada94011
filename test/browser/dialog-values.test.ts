// SPDX-License-Identifier: LGPL-2.1-or-later
// What a change dialog writes (issue #18): nothing the user did not change, whatever the display
// rounding, and nothing over a value that changed on the host since the dialog opened (another
// tab, a shell) until the user has seen it and confirmed. The simulated host's files are the truth.
// The system's limits and presets are host settings of the overview (#/), md0's dialogs are on its
// page (#/md0): the tests go from one to the other as a user does.

import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { formatViolations, runAxe, severe } from './harness/cockpitSettings';
import { setupRaidtune } from './harness/env';
import {
    changeDialog, closeLeftoverDialog, dialogButton, emulateDocumentHidden, KERNEL_DONE, openArrayDialog, openDialog,
    showOverview, simValue, waitUntil,
} from './harness/raidtunePage';

const stateDir = mkdtempSync(join(tmpdir(), 'raidtune-state-'));
const env = setupRaidtune({ scenario: 'raid6-recovery', arrayPage: 'md0', config: { stateDir } });

const GLOBAL_MIN = '/proc/sys/dev/raid/speed_limit_min';
const GLOBAL_MAX = '/proc/sys/dev/raid/speed_limit_max';
const MD = '/sys/block/md0/md';
const DISKS = ['sda', 'sdb', 'sdc', 'sdd', 'sde'];
/** Every file a dialog of this page could write on this host. */
const SETTINGS = [
    GLOBAL_MIN, GLOBAL_MAX, `${MD}/sync_speed_min`, `${MD}/sync_speed_max`, `${MD}/stripe_cache_size`, `${MD}/group_thread_cnt`,
    '/sys/block/md0/queue/read_ahead_kb',
    ...DISKS.flatMap(d => [`/sys/block/${d}/device/queue_depth`, `/sys/block/${d}/queue/nr_requests`, `/sys/block/${d}/queue/scheduler`]),
];
const NOTHING_TO_CHANGE = 'Nothing to change: the values are already set.';

const dialog = () => changeDialog(env.page);
const commands = (page: Page = env.page) => changeDialog(page).locator('.raidtune-commands').innerText();

beforeEach(() => closeLeftoverDialog(env.page));

async function simSettings(): Promise<Record<string, string>> {
    return Object.fromEntries(await Promise.all(SETTINGS.map(async path => [path, await simValue(env, path)])));
}

/** The system limits' dialog, from the overview's host settings (they come a moment after the overview). */
async function openGlobalChange(page: Page = env.page): Promise<void> {
    await showOverview(page);
    await openDialog(page.locator('#global-limits').getByRole('button', { name: 'Change…' }));
}

/** The commands the open dialog offers to run (none: it says there is nothing to change), then Cancel. */
async function offeredAndCancel(): Promise<string> {
    const offered = await dialog().locator('.raidtune-commands').count() ? await commands() : '';
    if (!offered) {
        await dialog().getByText(NOTHING_TO_CHANGE).waitFor();
        expect(await dialogButton(env.page, 'Apply').isDisabled()).toBe(true);
    }
    await dialogButton(env.page, 'Cancel').click();
    await dialog().waitFor({ state: 'detached' });
    return offered;
}

test('every change dialog applied as it opened writes nothing and says there is nothing to change', async () => {
    // The kernel's default minimum, shown as 0.98 MiB/s (typed, 1004 KiB/s), and one disk whose queue
    // differs from the first disk's, whose value the disk queue form starts with.
    await env.writeSim(GLOBAL_MIN, '1000');
    await env.writeSim('/sys/block/sdb/queue/nr_requests', '128');
    await env.page.reload();
    await showOverview(env.page);
    const defaultLabel = env.page.locator('#global-limits').getByText('Minimum: 0.98 MiB/s (1000 KiB/s), the kernel default');
    await defaultLabel.waitFor();
    // md0 follows the system minimum: the simulated kernel shows the new one at its next tick.
    await waitUntil('md0 following the new minimum', async () => await simValue(env, `${MD}/sync_speed_min`) === '1000 (system)');
    const before = await simSettings();

    const offered: Record<string, string> = {};
    await openGlobalChange();
    await expect(dialog().getByLabel('Minimum (MiB/s per disk)').inputValue()).resolves.toBe('0.98');
    offered['System limits'] = await offeredAndCancel();
    await openDialog(env.page.locator('#global-limits').getByRole('button', { name: 'Presets…' }));
    await dialog().getByRole('radio', { name: 'Low impact', exact: true }).check(); // the kernel defaults: what the host has
    offered['Low impact preset'] = await offeredAndCancel();
    for (const button of ['Speed limits…', 'Stripe cache…', 'Read-ahead…', 'Worker threads…']) {
        await openArrayDialog(env.page, 'md0', button);
        offered[button] = await offeredAndCancel();
    }
    for (const setting of ['Queue depth (NCQ)', 'Request queue size (nr_requests)', 'I/O scheduler']) {
        await openArrayDialog(env.page, 'md0', 'Disk queues…');
        await dialog().getByRole('radio', { name: setting, exact: true }).check();
        offered[`Disk queues: ${setting}`] = await offeredAndCancel();
    }
    expect(offered).toEqual(Object.fromEntries(Object.keys(offered).map(name => [name, ''])));
    expect(await simSettings()).toEqual(before);
    expect(existsSync(join(stateDir, 'restore.json'))).toBe(false);
    // Back at the overview, the system minimum still reads as the kernel default.
    await showOverview(env.page);
    await defaultLabel.waitFor();
});

test('only the value the user changed is written, exactly as typed', async () => {
    await openGlobalChange();
    await dialog().getByLabel('Maximum (MiB/s per disk)').fill('300');
    await expect(commands()).resolves.toBe('echo 307200 > /proc/sys/dev/raid/speed_limit_max');
    await dialogButton(env.page, 'Apply').click();
    await dialog().getByText(KERNEL_DONE).waitFor();
    await dialogButton(env.page, 'Close').click();
    expect(await simValue(env, GLOBAL_MIN)).toBe('1000');
    expect(await simValue(env, GLOBAL_MAX)).toBe('307200');

    // An own minimum for md0: its maximum keeps following the system limit, unwritten.
    await openArrayDialog(env.page, 'md0', 'Speed limits…');
    await dialog().locator('#md0-min-own').check();
    await dialog().locator('#md0-min-value').fill('50');
    await expect(commands()).resolves.toBe('echo 51200 > /sys/block/md0/md/sync_speed_min');
    await dialogButton(env.page, 'Apply').click();
    await dialog().getByText(KERNEL_DONE).waitFor();
    await dialogButton(env.page, 'Close').click();
    // The simulated kernel shows the written word until its next tick, then its own form.
    await waitUntil('md0\'s own minimum', async () => await simValue(env, `${MD}/sync_speed_min`) === '51200 (local)');
    expect(await simValue(env, `${MD}/sync_speed_max`)).toBe('307200 (system)');
});

test('a value another tab changed after the dialog opened is shown, and written over only when confirmed', async () => {
    await openGlobalChange();
    await expect(dialog().getByLabel('Minimum (MiB/s per disk)').inputValue()).resolves.toBe('0.98');

    // This tab is in the background while the user works in the other: it does not refresh, so
    // it has not seen the originals the other tab records either.
    await emulateDocumentHidden(env.page, true);
    const other = (await env.openPage()).page;
    await other.locator('#global-limits').waitFor();
    await openGlobalChange(other);
    await changeDialog(other).getByLabel('Minimum (MiB/s per disk)').fill('70');
    await dialogButton(other, 'Apply').click();
    await changeDialog(other).getByText(KERNEL_DONE).waitFor();
    expect(await simValue(env, GLOBAL_MIN)).toBe('71680');

    // The first tab's dialog still shows what it opened with; the user types 80 there.
    await expect(dialog().getByLabel('Minimum (MiB/s per disk)').inputValue()).resolves.toBe('0.98');
    await dialog().getByLabel('Minimum (MiB/s per disk)').fill('80');
    await dialogButton(env.page, 'Apply').click();
    const changed = dialog().locator('.raidtune-changed-since-opened');
    await changed.waitFor();
    await expect(changed.locator('li').allInnerTexts()).resolves.toEqual([
        'system minimum rebuild speed: was 0.98 MiB/s (1000 KiB/s) when the dialog opened, is 70 MiB/s (71680 KiB/s) now.',
    ]);
    expect(await simValue(env, GLOBAL_MIN)).toBe('71680'); // nothing written yet
    expect(formatViolations(severe(await runAxe(env.page)))).toBe('');

    await dialogButton(env.page, 'Apply anyway').click();
    await dialog().getByText(KERNEL_DONE).waitFor();
    await dialogButton(env.page, 'Close').click();
    expect(await simValue(env, GLOBAL_MIN)).toBe('81920');
    // The record of originals still holds what the host had before raidtune's first change,
    // which the other tab recorded.
    const journal = JSON.parse(readFileSync(join(stateDir, 'restore.json'), 'utf8'));
    expect(journal.entries.find((e: { path: string }) => e.path === GLOBAL_MIN)?.original).toBe('1000');
    await emulateDocumentHidden(env.page, false);
});

test('the same check in an array\'s dialog: a change from a shell is kept when the user cancels', async () => {
    await openArrayDialog(env.page, 'md0', 'Stripe cache…');
    const opened = await simValue(env, `${MD}/stripe_cache_size`);
    await env.writeSim(`${MD}/stripe_cache_size`, '1024'); // as `echo 1024 > .../stripe_cache_size` would
    await dialog().getByLabel('Entries (17 to 32768)').fill('2048');
    await dialogButton(env.page, 'Apply').click();
    await dialog().locator('.raidtune-changed-since-opened').waitFor();
    await expect(dialog().locator('.raidtune-changed-since-opened li').allInnerTexts()).resolves.toEqual([
        `stripe cache size of md0: was ${opened} when the dialog opened, is 1024 now.`,
    ]);
    await dialogButton(env.page, 'Cancel').click();
    await dialog().waitFor({ state: 'detached' });
    expect(await simValue(env, `${MD}/stripe_cache_size`)).toBe('1024');
});
