// SPDX-License-Identifier: LGPL-2.1-or-later
// sync_io_depth on the simulated newer kernel (scenario newer-kernel-rebuild): shown next to the limits
// (system and per array), changed through the limit dialogs with a preview, refused when bad
// with nothing written, undone through the journal, kept after reboot, and named by the
// diagnosis where md_do_sync applies it. The 6.1-like hosts show nothing of it (tuning.test.ts).
// The system's depth and what is kept after reboot are host settings, below the overview; an
// array's depth is on its page: the tests go between the two as a user does.

import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupRaidtune } from './harness/env';
import {
    changeDialog, closeLeftoverDialog, dialogButton, FILES_DONE, KERNEL_DONE, nextReadRendered, openArrayDialog,
    openDialog, settingDetails, showArrayPage, showOverview, simValue, syncFact, waitUntil,
} from './harness/raidtunePage';
import { BAD_TEXT_VALUES } from '../shared/badValues';
import { waitBudget } from '../../tools/cockpit/waitBudget';

const temp = mkdtempSync(join(tmpdir(), 'raidtune-depth-'));
const stateDir = join(temp, 'state');
const sysctlDir = join(temp, 'sysctl.d');
const udevRulesDir = join(temp, 'rules.d');
const modulesLoadDir = join(temp, 'modules-load.d');
const env = setupRaidtune({
    scenario: 'newer-kernel-rebuild', readySelector: '#global-limits', config: { stateDir, sysctlDir, udevRulesDir, modulesLoadDir },
});

const dialog = () => changeDialog(env.page);
const footerButton = (name: string) => dialogButton(env.page, name);
const GLOBAL = '/proc/sys/dev/raid/sync_io_depth';
const commands = () => dialog().locator('.raidtune-commands').innerText();

beforeEach(() => closeLeftoverDialog(env.page));

/** A host settings card below the overview (they come a moment after it). */
async function hostCard(id: string) {
    await showOverview(env.page);
    const card = env.page.locator(id);
    await card.waitFor();
    return card;
}

async function openGlobalChange() {
    await openDialog((await hostCard('#global-limits')).getByRole('button', { name: 'Change…' }));
}

/**
 * Applies the open dialog, closes it, and waits for the page to show what it wrote: a dialog opened
 * on the read before (a loaded machine, gate32) takes the old value as what it replaces and, at
 * Apply, finds the new one "changed since the dialog opened".
 */
async function applied(outcome: string | RegExp = KERNEL_DONE) {
    await footerButton('Apply').click();
    await dialog().getByText(outcome).waitFor();
    await footerButton('Close').click();
    await nextReadRendered(env.page, { full: true });
}

test('shown: the system depth next to the limits, an array\'s with its sync', async () => {
    await expect((await hostCard('#global-sync-io-depth')).innerText()).resolves.toBe('Sync I/O depth: 32, the kernel default');
    expect(await syncFact(env.page, 'md0', 'Sync I/O depth')).toBe('32, from the system setting');
});

test('the system depth: preview, nothing before Apply, written and read back, then restored from the journal', async () => {
    await openGlobalChange();
    await dialog().getByLabel('Sync I/O depth').fill('64');
    await expect(commands()).resolves.toBe(`echo 64 > ${GLOBAL}`);
    expect(await simValue(env, GLOBAL)).toBe('32');
    await applied();
    expect(await simValue(env, GLOBAL)).toBe('64');
    expect(await simValue(env, '/sys/block/md0/md/sync_io_depth')).toBe('64 (system)');
    await (await hostCard('#global-sync-io-depth')).getByText('Sync I/O depth: 64').waitFor();

    const banner = env.page.locator('.raidtune-restore');
    await banner.getByRole('button', { name: 'Restore previous settings' }).click();
    await expect(commands()).resolves.toBe(`echo 32 > ${GLOBAL}\nrm -f ${stateDir}/restore.json`);
    await footerButton('Restore').click();
    await dialog().getByText(KERNEL_DONE).waitFor();
    await footerButton('Close').click();
    expect(await simValue(env, GLOBAL)).toBe('32');
});

test('bad depths get a message next to the field and nothing is written', async () => {
    await openGlobalChange();
    const field = dialog().getByLabel('Sync I/O depth');
    for (const bad of ['0', '16777216', ...BAD_TEXT_VALUES]) {
        await field.fill(bad);
        await field.blur();
        await expect(dialog().locator('.pf-v6-c-helper-text__item.pf-m-error').first().innerText()).resolves.toMatch(/\w/);
        expect(await footerButton('Apply').isDisabled()).toBe(true);
        await expect(dialog().locator('.raidtune-commands').count()).resolves.toBe(0);
    }
    await footerButton('Cancel').click();
    expect(await simValue(env, GLOBAL)).toBe('32');
    expect(existsSync(join(stateDir, 'restore.json'))).toBe(false);
});

test('an array\'s own depth: back to the system setting, an own value, a refused one', async () => {
    await openArrayDialog(env.page, 'md1', 'Speed limits…');
    const group = dialog().getByRole('radiogroup', { name: 'Sync I/O depth' });
    expect(await group.getByRole('radio', { name: 'Own limit for this array' }).isChecked()).toBe(true);
    await expect(dialog().getByLabel('Sync I/O depth of this array').inputValue()).resolves.toBe('4');
    await dialog().getByLabel('Sync I/O depth of this array').fill('0');
    await dialog().getByLabel('Sync I/O depth of this array').blur();
    await expect(dialog().locator('.pf-v6-c-helper-text__item.pf-m-error').first().innerText()).resolves.toMatch(/^Use a whole number from 1 to 16777215\./);
    expect(await footerButton('Apply').isDisabled()).toBe(true);
    await group.getByRole('radio', { name: 'Follow the system setting (32, the kernel default)' }).check();
    await expect(commands()).resolves.toBe('echo system > /sys/block/md1/md/sync_io_depth');
    await applied();
    expect(await simValue(env, '/sys/block/md1/md/sync_io_depth')).toBe('32 (system)');

    await openArrayDialog(env.page, 'md1', 'Speed limits…');
    await dialog().getByRole('radiogroup', { name: 'Sync I/O depth' }).getByRole('radio', { name: 'Own limit for this array' }).check();
    await dialog().getByLabel('Sync I/O depth of this array').fill('8');
    await expect(commands()).resolves.toBe('echo 8 > /sys/block/md1/md/sync_io_depth');
    await applied();
    expect(await simValue(env, '/sys/block/md1/md/sync_io_depth')).toBe('8 (local)');
});

test('kept after reboot: the sysctl and the array\'s rule', async () => {
    await env.writeSim(GLOBAL, '48\n');
    await env.writeSim('/sys/block/md1/md/sync_io_depth', '6\n');
    const card = await settingDetails(env.page, 'keep-after-reboot');
    await waitUntil('the simulated kernel took md1\'s own depth', async () =>
        await simValue(env, '/sys/block/md1/md/sync_io_depth') === '6 (local)', 10000);
    // An array's depth is taken by full reads only: the first that began after the writes shows both.
    await nextReadRendered(env.page, { full: true });
    const now = async (setting: string) =>
        (await card.locator('tbody tr', { hasText: setting }).locator('td').nth(1).innerText()).trim();
    expect(await now('Sync I/O depth of md1')).toBe('6');
    expect(await now('System sync I/O depth')).toBe('48');
    await openDialog(card.getByRole('button', { name: 'Keep after reboot…' }));
    await applied(FILES_DONE);
    const sysctl = readFileSync(join(sysctlDir, '90-raidtune.conf'), 'utf8');
    expect(sysctl.split('\n').filter(l => l && !l.startsWith('#'))).toContain('dev.raid.sync_io_depth = 48');
    const udev = readFileSync(join(udevRulesDir, '64-raidtune.rules'), 'utf8');
    expect(udev).toMatch(/ENV\{MD_UUID\}=="[0-9a-f:]+", TEST=="md\/sync_io_depth", ATTR\{md\/sync_io_depth\}="6"/);
    await card.getByText('Kept in', { exact: false }).waitFor({ timeout: waitBudget(15000) });
});

test('the diagnosis never suggests a larger depth (none made a measured rebuild faster): no finding, no what-if row', async () => {
    // md0 rebuilds under other I/O between its limits, where md applies the depth: the diagnosis
    // gives its verdict and the what-if table its rows, none of them about the depth.
    const section = (await showArrayPage(env.page, 'md0')).locator('.raidtune-diagnosis');
    await section.getByRole('table', { name: /^What if/ }).waitFor({ timeout: waitBudget(40000) });
    await expect(section.locator('[data-finding]').evaluateAll(items => items.map(li => li.getAttribute('data-finding'))))
        .resolves.not.toContain('sync-io-depth');
    const rows = await section.locator('tbody tr[data-change]').evaluateAll(trs => trs.map(tr => tr.getAttribute('data-change')));
    expect(rows[0]).toBe('now');
    expect(rows).not.toContain('sync-io-depth');
    await expect(section.getByText(/sync I\/O depth/i).count()).resolves.toBe(0);
    // The admin still sets md0's own depth in its limits dialog.
    await openArrayDialog(env.page, 'md0', 'Speed limits…');
    await dialog().getByRole('radiogroup', { name: 'Sync I/O depth' }).getByRole('radio', { name: 'Own limit for this array' }).check();
    await dialog().getByLabel('Sync I/O depth of this array').fill('256');
    await expect(commands()).resolves.toBe('echo 256 > /sys/block/md0/md/sync_io_depth');
    await applied();
    expect(await simValue(env, '/sys/block/md0/md/sync_io_depth')).toBe('256 (local)');
});

test('the Low impact preset puts the kernel\'s depth back; the dialog says why the others leave it', async () => {
    await (await hostCard('#global-limits')).getByRole('button', { name: 'Presets…' }).click();
    await dialog().locator('#raidtune-preset-depth').getByText('Balanced and Fast rebuild leave it as it is', { exact: false }).waitFor();
    await dialog().getByRole('radio', { name: 'Fast rebuild' }).check();
    await expect(commands()).resolves.not.toContain('sync_io_depth');
    await dialog().getByRole('radio', { name: 'Low impact' }).check();
    // Earlier tests left md0 at its own 256 and md1 at 6.
    const text = await commands();
    expect(text).toContain('echo system > /sys/block/md0/md/sync_io_depth');
    expect(text).toContain('echo system > /sys/block/md1/md/sync_io_depth');
    await applied();
    expect(await simValue(env, '/sys/block/md0/md/sync_io_depth')).toBe(`${await simValue(env, GLOBAL)} (system)`);
    expect(await simValue(env, GLOBAL)).toBe('32');
});
