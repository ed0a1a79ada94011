// SPDX-License-Identifier: LGPL-2.1-or-later
// "Keep after reboot" on the simulated host: the page says what is lost at reboot, writes the
// sysctl.d file and the udev rule (previewed whole) into the configured folders, then tells a live
// change apart from the kept value, and removes both files again. Issue #31: a kept file edited by
// hand while the dialog is open gets "changed since the dialog opened" and is not written over.

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { setupRaidtune } from './harness/env';
import { nextReadRendered, openDialog, settingDetails, simValue, waitForRefreshes } from './harness/raidtunePage';
import { waitBudget } from '../../tools/cockpit/waitBudget';

const temp = mkdtempSync(join(tmpdir(), 'raidtune-persist-'));
const sysctlDir = join(temp, 'sysctl.d');
const udevRulesDir = join(temp, 'rules.d');
const SYSCTL_FILE = join(sysctlDir, '90-raidtune.conf');
const UDEV_FILE = join(udevRulesDir, '64-raidtune.rules');
const modulesLoadDir = join(temp, 'modules-load.d');
const MODULES_FILE = join(modulesLoadDir, 'raidtune.conf');
const env = setupRaidtune({
    scenario: 'raid6-recovery', readySelector: '#keep-after-reboot',
    config: { stateDir: join(temp, 'state'), sysctlDir, udevRulesDir, modulesLoadDir },
});

function dialog(): Locator {
    return env.page.getByRole('dialog');
}

function footerButton(name: string): Locator {
    return dialog().locator('.pf-v6-c-modal-box__footer').getByRole('button', { name, exact: true });
}

function card(): Locator {
    return env.page.locator('#keep-after-reboot');
}

/** The card's table as the user reads it: setting -> [now, after a reboot]. */
async function shownRows(): Promise<Record<string, [string, string]>> {
    const rows = await (await settingDetails(env.page, 'keep-after-reboot')).locator('tbody tr').evaluateAll(trs =>
        trs.map(tr => [...tr.querySelectorAll('td')].map(td => (td as HTMLElement).innerText.trim())));
    return Object.fromEntries(rows.map(([setting, now, after]) => [setting, [now, after]]));
}

beforeEach(async () => {
    if (await dialog().count()) await env.page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
});

test('says which live settings a reboot would lose', async () => {
    await card().getByText('Nothing is kept: md settings are lost at reboot').waitFor();
    // The scenario's speed_limit_min=4000 is not the kernel's default.
    expect(await shownRows()).toEqual({
        'System minimum rebuild speed': ['3.91 MiB/s per disk', 'Not kept: 0.98 MiB/s per disk after a reboot'],
    });
});

test('keeps the live values in a sysctl.d file (md loaded before it applies) and a udev rule matching the array by MD_UUID', async () => {
    // A per-array setting, so the udev rule has something to keep.
    await env.writeSim('/sys/block/md0/md/stripe_cache_size', '4096\n');
    // Only full reads take an array's settings: the first that began after the write shows it.
    await nextReadRendered(env.page, { full: true });
    expect((await shownRows())['Stripe cache size of md0']).toEqual(['4096', 'Not kept: 256 after a reboot']);

    await openDialog(card().getByRole('button', { name: 'Keep after reboot…' }));
    const commands = await dialog().locator('.raidtune-commands').innerText();
    expect(commands).toContain(`cat > ${MODULES_FILE} <<'EOF'\n# Written by raidtune`);
    expect(commands).toContain(`cat > ${SYSCTL_FILE} <<'EOF'\n# Written by raidtune`);
    expect(commands).toContain(`cat > ${UDEV_FILE} <<'EOF'\n# Written by raidtune`);
    expect(existsSync(SYSCTL_FILE) || existsSync(UDEV_FILE) || existsSync(MODULES_FILE)).toBe(false);
    await footerButton('Apply').click();
    await dialog().getByText('Done.', { exact: false }).waitFor();
    await footerButton('Close').click();

    const modules = readFileSync(MODULES_FILE, 'utf8');
    expect(commands).toContain(modules.trimEnd());
    expect(modules.split('\n').filter(l => l && !l.startsWith('#'))).toEqual(['md_mod']);
    const sysctl = readFileSync(SYSCTL_FILE, 'utf8');
    expect(commands).toContain(sysctl.trimEnd()); // written as previewed
    expect(sysctl.split('\n').filter(l => l && !l.startsWith('#'))).toEqual([
        'dev.raid.speed_limit_min = 4000', 'dev.raid.speed_limit_max = 200000',
    ]);
    // sysfs says 8-4-4-4-12, udev's MD_UUID (from mdadm --detail --export) four groups of 8.
    const uuid = (await simValue(env, '/sys/block/md0/md/uuid')).replace(/-/g, '').match(/.{8}/g)!.join(':');
    const udev = readFileSync(UDEV_FILE, 'utf8');
    expect(commands).toContain(udev.trimEnd());
    expect(udev.split('\n').filter(l => l && !l.startsWith('#'))).toEqual([
        `SUBSYSTEM=="block", ACTION=="add|change", KERNEL=="md*", ENV{MD_UUID}=="${uuid}", TEST=="md/stripe_cache_size", ATTR{md/stripe_cache_size}="4096"`,
    ]);

    await card().getByText(`Kept in ${SYSCTL_FILE}, ${UDEV_FILE}, ${MODULES_FILE}.`).waitFor({ timeout: waitBudget(15000) });
    expect(await shownRows()).toEqual({
        'System minimum rebuild speed': ['3.91 MiB/s per disk', 'Kept for reboot'],
        'System maximum rebuild speed': ['195 MiB/s per disk', 'Kept for reboot'],
        'Stripe cache size of md0': ['4096', 'Kept for reboot'],
    });
    expect(await card().getByRole('button', { name: 'Keep after reboot…' }).getAttribute('aria-disabled')).toBe('true');
});

test('a live change shows as differing from the value kept for reboot', async () => {
    await env.writeSim('/proc/sys/dev/raid/speed_limit_min', '9000\n');
    await nextReadRendered(env.page);
    expect((await shownRows())['System minimum rebuild speed']).toEqual(
        ['8.79 MiB/s per disk', 'Differs from the value kept for reboot: 3.91 MiB/s per disk']);
    expect((await shownRows())['Stripe cache size of md0']).toEqual(['4096', 'Kept for reboot']);
});

test('a kept file edited by hand while the dialog is open: Apply says so and writes nothing; Apply anyway changes the limit\'s line alone', async () => {
    await openDialog(card().getByRole('button', { name: 'Keep after reboot…' }));
    expect(await dialog().locator('.raidtune-commands').innerText()).toBe(
        `# edit ${SYSCTL_FILE}, every other line kept as it is:\n#   dev.raid.speed_limit_min becomes: dev.raid.speed_limit_min = 9000`);
    const kept = readFileSync(SYSCTL_FILE, 'utf8');
    const edited = `${kept}# an admin's own line\n`;
    writeFileSync(SYSCTL_FILE, edited);
    await footerButton('Apply').click();
    await dialog().locator('.raidtune-changed-since-opened')
        .getByText('system rebuild speed limits kept for reboot: the file changed since the dialog opened.', { exact: false }).waitFor();
    expect(readFileSync(SYSCTL_FILE, 'utf8')).toBe(edited);
    await footerButton('Apply anyway').click();
    await dialog().getByText('Done.', { exact: false }).waitFor();
    await footerButton('Close').click();
    expect(readFileSync(SYSCTL_FILE, 'utf8')).toBe(edited.replace('dev.raid.speed_limit_min = 4000', 'dev.raid.speed_limit_min = 9000'));
    // The next dialog opens on the file as the page reads it again.
    await waitForRefreshes(env.page, 2);
});

test('"Stop keeping" removes the files', async () => {
    await openDialog(card().getByRole('button', { name: 'Stop keeping…' }));
    await expect(dialog().locator('.raidtune-commands').innerText()).resolves.toBe(`rm -f ${MODULES_FILE}\nrm -f ${SYSCTL_FILE}\nrm -f ${UDEV_FILE}`);
    await footerButton('Apply').click();
    await dialog().getByText('Done.', { exact: false }).waitFor();
    await footerButton('Close').click();
    expect(existsSync(SYSCTL_FILE) || existsSync(UDEV_FILE) || existsSync(MODULES_FILE)).toBe(false);
    await card().getByText('Nothing is kept: md settings are lost at reboot').waitFor({ timeout: waitBudget(15000) });
    await card().getByRole('button', { name: 'Stop keeping…' }).waitFor({ state: 'detached' });
    expect((await shownRows())['Stripe cache size of md0']).toEqual(['4096', 'Not kept: 256 after a reboot']);
});
