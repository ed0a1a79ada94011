// SPDX-License-Identifier: LGPL-2.1-or-later
// The write-intent bitmap through the page, on the simulated host with the simulated mdadm
// (sim/mdadm/): remove raid1-healthy's bitmap, add it back with 128 MiB chunks, the exact mdadm
// commands in the preview, the page showing the result; while a sync is paused the button says
// why, and the simulated mdadm refuses like mdadm 4.2 does.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { simulatedTool } from '../../tools/cockpit';
import { setupRaidtune } from './harness/env';
import { applyAndClose, arrayAction, arrayActionLabels, arrayCard, cardFacts, openArrayDialog, simMdstat, simValue } from './harness/raidtunePage';
import { waitBudget } from '../../tools/cockpit/waitBudget';

// The simulated host's config runs the simulated mdadm (simulatedHostConfig).
const env = setupRaidtune({ scenario: 'raid1-healthy', arrayPage: 'md0' });

const card = () => arrayCard(env.page, 'md0');
const dialog = () => env.page.getByRole('dialog');

/** The card's "Bitmap" fact, once it reads `expected` (the page refreshes after a change). */
async function waitForBitmapFact(expected: string) {
    const deadline = Date.now() + 20000;
    let shown = (await cardFacts(env.page, 'md0')).Bitmap;
    while (shown !== expected && Date.now() < deadline) {
        await env.page.waitForTimeout(200);
        shown = (await cardFacts(env.page, 'md0')).Bitmap;
    }
    expect(shown).toBe(expected);
}

test('remove the bitmap: preview, apply, and the host and the page show none', async () => {
    expect((await cardFacts(env.page, 'md0')).Bitmap).toBe('Internal, 64 MiB chunks');
    await (await arrayAction(env.page, 'md0', 'Remove bitmap…')).click();
    await dialog().getByText('full resync of the whole array', { exact: false }).waitFor();
    await expect(dialog().locator('.raidtune-commands').innerText()).resolves.toBe('mdadm --grow /dev/md0 --bitmap=none');
    await applyAndClose(env.page, 'Remove bitmap');

    expect(await simValue(env, '/sys/block/md0/md/bitmap/location')).toBe('none');
    expect(await simValue(env, '/sys/block/md0/md/consistency_policy')).toBe('resync');
    expect((await simMdstat(env)).get('md0')?.bitmap).toBeNull();
    await waitForBitmapFact('None');
});

test('add it back with 128 MiB chunks: the recommended size is marked, the command has the chunk', async () => {
    await openArrayDialog(env.page, 'md0', 'Add bitmap…');
    // 4 TB members: 64 MiB recommended (src/md/tuning/bitmap.ts), the write penalty measured next to it.
    await expect(dialog().getByRole('radio', { name: '64 MiB (recommended)' }).isChecked()).resolves.toBe(true);
    await expect(dialog().locator('.raidtune-bitmap-penalty tbody').innerText()).resolves.toMatch(/4 MiB\s+27% slower/);
    await expect(dialog().locator('.raidtune-commands').innerText()).resolves
        .toBe('mdadm --grow /dev/md0 --bitmap=internal --bitmap-chunk=64M');
    await dialog().getByRole('radio', { name: '128 MiB' }).check();
    await expect(dialog().locator('.raidtune-commands').innerText()).resolves
        .toBe('mdadm --grow /dev/md0 --bitmap=internal --bitmap-chunk=128M');
    await applyAndClose(env.page, 'Add bitmap');

    expect(await simValue(env, '/sys/block/md0/md/bitmap/location')).toBe('+8');
    expect(await simValue(env, '/sys/block/md0/md/bitmap/chunksize')).toBe(String(128 * 2 ** 20));
    expect(await simValue(env, '/sys/block/md0/md/consistency_policy')).toBe('bitmap');
    expect((await simMdstat(env)).get('md0')?.bitmap?.chunkKiB).toBe(131072);
    await waitForBitmapFact('Internal, 128 MiB chunks');
});

test('while a sync is paused the bitmap is not offered, and mdadm refuses as the real one does', async () => {
    await env.writeSim('/sys/block/md0/md/sync_action', 'frozen');
    await card().getByRole('button', { name: 'Resume', exact: true }).waitFor({ timeout: waitBudget(20000) });
    const paused = await arrayActionLabels(env.page, 'md0');
    expect(paused.buttons).toEqual(['Resume', 'Speed limits…']);
    expect(paused.menu).not.toContain('Remove bitmap…');

    // The same refusal from the simulated mdadm, as a stale page would meet it (checked on Linux 6.1).
    const refused = await promisify(execFile)(simulatedTool(env.sim, 'mdadm'), ['--grow', '/dev/md0', '--bitmap=none']).catch((error: { code: number; stderr: string }) => error);
    expect(refused).toEqual(expect.objectContaining({ code: 1, stderr: 'mdadm: failed to remove internal bitmap.\n' }));
    expect(await simValue(env, '/sys/block/md0/md/bitmap/location')).toBe('+8');

    await env.writeSim('/sys/block/md0/md/sync_action', 'idle');
    await card().getByRole('button', { name: 'Resume', exact: true }).waitFor({ state: 'detached', timeout: waitBudget(20000) });
    expect(await (await arrayAction(env.page, 'md0', 'Remove bitmap…')).getAttribute('aria-disabled')).not.toBe('true');
    await env.page.keyboard.press('Escape');
});
