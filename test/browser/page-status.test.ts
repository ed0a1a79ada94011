// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #15: Cockpit's menu entry for raidtune carries an error icon while an array is not running
// or failed (degraded-failed: md1 is inactive, md0 a degraded RAID5), with the first such array
// named in its tooltip, as the shell shows a page's status (the "notify" control message). A
// healthy host carries none (alerts.test.ts, raid1-healthy).

import { setupRaidtune } from './harness/env';

const env = setupRaidtune({ scenario: 'degraded-failed', openBarePage: false });

test('the menu entry shows the error icon and says which array is not running', async () => {
    // The page as the menu entry opens it: the overview.
    const shell = await env.shellPage();
    await shell.frame.waitForSelector('table.raidtune-overview tr[data-array="md1"]');
    // The shell names the icon after the entry's label and the status type.
    const icon = shell.page.locator('#raid-tuning-error.nav-item-status');
    await icon.waitFor();
    expect(await shell.page.locator('.nav-item-status').count()).toBe(1);
    await icon.hover();
    await shell.page.getByRole('tooltip').getByText('md1 is not running', { exact: true }).waitFor();
});
