// SPDX-License-Identifier: LGPL-2.1-or-later
// Speeds in the kernel's own family (issue #33): MiB/s beside binary sizes, a round figure typed is
// a round value written (50 MiB/s = 51200 KiB/s), the page and a dialog show the same figure, and
// a field left as filled stands for the kernel's exact value, never for its rounding (the
// scenario's minimum of 4000 KiB/s shows as 3.91 MiB/s, which typed would be 4004). The system
// limits are on the overview, an array's own on its page: the tests go between the two.

import { setupRaidtune } from './harness/env';
import {
    changeDialog, closeLeftoverDialog, dialogButton, KERNEL_DONE, openArrayDialog, openDialog, showOverview, simValue,
    syncFact, waitUntil,
} from './harness/raidtunePage';

const env = setupRaidtune({ scenario: 'raid6-recovery', readySelector: '#global-limits' });

const GLOBAL_MIN = '/proc/sys/dev/raid/speed_limit_min';
const MD0_MIN = '/sys/block/md0/md/sync_speed_min';

const dialog = () => changeDialog(env.page);
const commands = () => dialog().locator('.raidtune-commands');
const helper = (field: string) => dialog().locator(`#${field}-help`).innerText();

beforeEach(() => closeLeftoverDialog(env.page));

/** The system limits card, below the overview (it comes a moment after it). */
async function globalLimits() {
    await showOverview(env.page);
    const card = env.page.locator('#global-limits');
    await card.waitFor();
    return card;
}

async function openGlobalChange() {
    await openDialog((await globalLimits()).getByRole('button', { name: 'Change…' }));
}

test('the page and the system limits dialog show one figure; left as opened, the dialog writes nothing', async () => {
    const limits = await (await globalLimits()).innerText();
    expect(limits).toContain('Minimum: 3.91 MiB/s (4000 KiB/s)');
    expect(limits).toContain('Maximum: 195 MiB/s (200000 KiB/s), the kernel default');

    await openGlobalChange();
    await expect(dialog().getByLabel('Minimum (MiB/s per disk)').inputValue()).resolves.toBe('3.91');
    await expect(dialog().getByLabel('Maximum (MiB/s per disk)').inputValue()).resolves.toBe('195');
    // What the untouched fields stand for: the kernel's values, not 4004 and 199680.
    await expect(helper('global-min')).resolves.toBe('MiB/s per disk = 4000 KiB/s. Kernel default: 0.98 MiB/s (1000 KiB/s).');
    await expect(helper('global-max')).resolves.toBe('MiB/s per disk = 200000 KiB/s. Kernel default: 195 MiB/s (200000 KiB/s).');
    await dialog().getByText('Nothing to change: the values are already set.').waitFor();
    expect(await dialogButton(env.page, 'Apply').isDisabled()).toBe(true);
    await expect(commands().count()).resolves.toBe(0);
    await dialogButton(env.page, 'Cancel').click();
    expect(await simValue(env, GLOBAL_MIN)).toBe('4000');
});

test('an array\'s own limit chosen and left as filled writes the kernel\'s exact value', async () => {
    await openArrayDialog(env.page, 'md0', 'Speed limits…');
    await dialog().locator('#md0-min-own').check();
    await expect(dialog().locator('#md0-min-value').inputValue()).resolves.toBe('3.91');
    await expect(helper('md0-min-value')).resolves.toBe('MiB/s per disk = 4000 KiB/s.');
    await expect(commands().innerText()).resolves.toBe(`echo 4000 > ${MD0_MIN}`);
    await dialogButton(env.page, 'Apply').click();
    await dialog().getByText(KERNEL_DONE).waitFor();
    await dialogButton(env.page, 'Close').click();
    await waitUntil('md0\'s own minimum', async () => await simValue(env, MD0_MIN) === '4000 (local)');
    await waitUntil('the page showing it', async () =>
        await syncFact(env.page, 'md0', 'Minimum speed') === '3.91 MiB/s (4000 KiB/s), set for this array');
});

test('50 MiB/s typed is 51200 KiB/s: previewed, written, held by the kernel, and shown back as 50 MiB/s', async () => {
    await openGlobalChange();
    await dialog().getByLabel('Minimum (MiB/s per disk)').fill('50');
    await expect(helper('global-min')).resolves.toBe('MiB/s per disk = 51200 KiB/s. Kernel default: 0.98 MiB/s (1000 KiB/s).');
    // The maximum, untouched, is not written.
    await expect(commands().innerText()).resolves.toBe(`echo 51200 > ${GLOBAL_MIN}`);
    await dialogButton(env.page, 'Apply').click();
    await dialog().getByText(KERNEL_DONE).waitFor();
    await dialogButton(env.page, 'Close').click();
    expect(await simValue(env, GLOBAL_MIN)).toBe('51200');
    await (await globalLimits()).getByText('Minimum: 50 MiB/s (51200 KiB/s)').waitFor();
});

test('the presets are round figures: 10 and 50 MiB/s minimums, a 2000 MiB/s maximum', async () => {
    await openDialog((await globalLimits()).getByRole('button', { name: 'Presets…' }));
    const text = await dialog().innerText();
    expect(text).toContain('below 10 MiB/s per disk');
    expect(text).toContain('below 50 MiB/s per disk');
    expect(text).toContain('a maximum of 2000 MiB/s');
    await dialog().getByLabel('Balanced').check();
    await expect(commands().innerText()).resolves.toMatch(new RegExp(`^echo 10240 > ${GLOBAL_MIN}$`, 'm'));
    await dialogButton(env.page, 'Cancel').click();
    expect(await simValue(env, GLOBAL_MIN)).toBe('51200');
});
