// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #15: a check held at md/sync_max (as mdcheck leaves one at the end of its window) makes no
// progress. Once it has stood still for two minutes the card says for how long and why, Cockpit's
// menu entry carries a warning icon naming the array, and the offered plan (echo max > sync_max)
// lets the check go on. The simulated host runs 60 times faster than real time, so its minutes
// pass in seconds while the page refreshes every 2 s.

import { STALLED_SYNC, STALLED_SYNC_ARGS, HELD_AT_KIB } from './fixtures/stalledSync';
import { customScenario } from './harness/customScenario';
import { setupRaidtune } from './harness/env';
import {
    arrayCard, closeLeftoverDialog, dialogButton, KERNEL_DONE, openDialog, simMdstat, simValue,
} from './harness/raidtunePage';

const env = setupRaidtune({
    scenario: customScenario('stalled-sync', STALLED_SYNC).file, simArgs: STALLED_SYNC_ARGS, arrayPage: 'md0',
});
const stallAlert = () => arrayCard(env.page, 'md0').locator('.raidtune-stall');

beforeEach(() => closeLeftoverDialog(env.page));

test('the card says how long the check has stood still and why; the menu entry warns', async () => {
    await stallAlert().waitFor();
    await expect(stallAlert().getByRole('heading').innerText()).resolves.toMatch(/No progress for \d+ (min|h)/);
    await stallAlert().getByText('It reached sync_max = 16777216: md waits there until sync_max is raised.', { exact: true }).waitFor();

    const shell = await env.shellPage('md0');
    await shell.frame.waitForSelector('#array-md0 .raidtune-stall');
    const icon = shell.page.locator('#raid-tuning-warning.nav-item-status');
    await icon.waitFor();
    await icon.hover();
    await shell.page.getByRole('tooltip').getByText(/^The sync of md0 has made no progress for \d+ min$/).waitFor();
});

test('the offered plan raises sync_max to "max" and the check goes on', async () => {
    const dialog = await openDialog(stallAlert().getByRole('button', { name: 'Raise sync_max to "max"…' }));
    await expect(dialog.locator('.raidtune-commands').innerText()).resolves.toBe('echo max > /sys/block/md0/md/sync_max');
    await dialogButton(env.page, 'Apply').click();
    await dialog.getByText(KERNEL_DONE).waitFor();
    await dialogButton(env.page, 'Close').click();
    await expect(simValue(env, '/sys/block/md0/md/sync_max')).resolves.toBe('max');
    await stallAlert().waitFor({ state: 'detached' });
    const done = (await simMdstat(env)).get('md0')!.sync!.done!;
    expect(done).toBeGreaterThan(HELD_AT_KIB);
});
