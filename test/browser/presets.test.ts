// SPDX-License-Identifier: LGPL-2.1-or-later
// Presets on the simulated 22-hour rebuild: the dialog explains the three, previews the exact
// writes of the chosen one, applies them (the simulated kernel then rebuilds faster), and
// "Restore previous settings" puts everything back. The presets are a host setting: the overview's
// system limits card offers them.

import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupRaidtune } from './harness/env';
import {
    changeDialog, closeLeftoverDialog, dialogButton, KERNEL_DONE, openDialog, simMdstat, simValue, waitUntil,
} from './harness/raidtunePage';

const temp = mkdtempSync(join(tmpdir(), 'raidtune-presets-'));
const stateDir = join(temp, 'state');
const env = setupRaidtune({
    scenario: 'raid6-recovery', readySelector: '#global-limits',
    config: { stateDir, sysctlDir: join(temp, 'sysctl.d'), udevRulesDir: join(temp, 'rules.d') },
});

const dialog = () => changeDialog(env.page);
const footerButton = (name: string) => dialogButton(env.page, name);

beforeEach(() => closeLeftoverDialog(env.page));

/** KiB per disk the simulated recovery moves per second, measured on its /proc/mdstat over `seconds`. */
async function rebuildKiBs(seconds = 3): Promise<number> {
    const done = async () => (await simMdstat(env)).get('md0')!.sync!.done!;
    const [t0, d0] = [Date.now(), await done()];
    await new Promise(resolve => setTimeout(resolve, seconds * 1000));
    return (await done() - d0) / ((Date.now() - t0) / 1000);
}

const SIM_FILES = ['/proc/sys/dev/raid/speed_limit_min', '/proc/sys/dev/raid/speed_limit_max', '/sys/block/md0/md/stripe_cache_size'];

async function simValues(): Promise<string[]> {
    return Promise.all(SIM_FILES.map(path => simValue(env, path)));
}

test('the dialog explains each preset in one line and writes nothing until one is chosen', async () => {
    await openDialog(env.page.locator('#global-limits').getByRole('button', { name: 'Presets…' }));
    const radios = dialog().getByRole('radio');
    await expect(radios.count()).resolves.toBe(3);
    await expect(dialog().getByLabel('Low impact').isChecked()).resolves.toBe(false);
    const text = await dialog().innerText();
    // Round MiB/s; the kernel's defaults are not, and keep the KiB/s they are known by.
    expect(text).toContain('The kernel defaults: a rebuild gives way to other I/O while above 0.98 MiB/s (1000 KiB/s) per disk ' +
        'and runs at most 195 MiB/s (200000 KiB/s);');
    expect(text).toContain('A rebuild stops giving way to other I/O below 10 MiB/s per disk and runs at most 195 MiB/s (200000 KiB/s);');
    expect(text).toContain('A rebuild stops giving way to other I/O below 50 MiB/s per disk, which then gets slower; a maximum of 2000 MiB/s lifts');
    expect(await footerButton('Apply').isDisabled()).toBe(true);
    await expect(dialog().locator('.raidtune-commands').count()).resolves.toBe(0);

    // Low impact here: back to the kernel's 1000 KiB/s minimum; the rest is at its default already.
    await dialog().getByLabel('Low impact').check();
    await expect(dialog().locator('.raidtune-commands').innerText()).resolves.toBe('echo 1000 > /proc/sys/dev/raid/speed_limit_min');
    await footerButton('Cancel').click();
    expect(await simValues()).toEqual(['4000', '200000', '256']);
});

test('"Fast rebuild" on the 22-hour rebuild: preview, apply, the rebuild speeds up; restore undoes it', async () => {
    const before = await rebuildKiBs();
    expect(before).toBeLessThan(6000); // held near speed_limit_min=4000 by the backup clients' I/O

    await openDialog(env.page.locator('#global-limits').getByRole('button', { name: 'Presets…' }));
    await dialog().getByLabel('Fast rebuild').check();
    // 5 disks x 4 KiB x 8192 entries = 160 MiB, well inside 10% of the 6 GiB available.
    await expect(dialog().locator('.raidtune-commands').innerText()).resolves.toBe([
        'echo 51200 > /proc/sys/dev/raid/speed_limit_min',
        'echo 2048000 > /proc/sys/dev/raid/speed_limit_max',
        'echo 8192 > /sys/block/md0/md/stripe_cache_size',
    ].join('\n'));
    expect(await simValues()).toEqual(['4000', '200000', '256']);

    await footerButton('Apply').click();
    await dialog().getByText(KERNEL_DONE).waitFor();
    expect(await simValues()).toEqual(['51200', '2048000', '8192']);
    await footerButton('Close').click();

    // The simulated kernel honours the new minimum against the competing I/O.
    const after = await waitUntil('the rebuild speeding up', async () => {
        const kiBs = await rebuildKiBs(2);
        return kiBs > 40000 && kiBs;
    });
    expect(after).toBeGreaterThan(before * 8);

    // The originals were recorded first: the page offers them back.
    const journal = JSON.parse(readFileSync(join(stateDir, 'restore.json'), 'utf8'));
    expect(journal.entries.map((e: { path: string; original: string }) => [e.path, e.original])).toEqual([
        ['/proc/sys/dev/raid/speed_limit_min', '4000'], ['/proc/sys/dev/raid/speed_limit_max', '200000'],
        ['/sys/block/md0/md/stripe_cache_size', '256'],
    ]);
    const banner = env.page.locator('.raidtune-restore');
    await banner.getByText('raidtune changed 3 settings on this host.').waitFor();
    await banner.getByRole('button', { name: 'Restore previous settings' }).click();
    await expect(dialog().locator('.raidtune-commands').innerText()).resolves.toBe([
        'echo 256 > /sys/block/md0/md/stripe_cache_size',
        'echo 200000 > /proc/sys/dev/raid/speed_limit_max',
        'echo 4000 > /proc/sys/dev/raid/speed_limit_min',
        `rm -f ${stateDir}/restore.json`,
    ].join('\n'));
    await footerButton('Restore').click();
    await dialog().getByText(KERNEL_DONE).waitFor();
    expect(await simValues()).toEqual(['4000', '200000', '256']);
    expect(existsSync(join(stateDir, 'restore.json'))).toBe(false);
    await footerButton('Close').click();
    await banner.waitFor({ state: 'detached' });
    await waitUntil('the rebuild back at the minimum', async () => (await rebuildKiBs(2)) < 6000);
});
