// SPDX-License-Identifier: LGPL-2.1-or-later
// md loaded, no arrays: the page says so and shows how to create one; no array cards.

import { setupRaidtune } from '../harness/env';
import { shownArrays, simMdstat, simValue, warningAlerts } from '../harness/raidtunePage';

const env = setupRaidtune({ scenario: 'empty', readySelector: '.pf-v6-c-empty-state' });

test('shows the empty state with the mdadm --create hint, and no array cards', async () => {
    // The kernel: md loaded (personalities listed), no arrays.
    expect(await simValue(env, '/proc/mdstat')).toMatch(/^Personalities : \[linear\]/);
    expect((await simMdstat(env)).size).toBe(0);

    const empty = env.page.locator('.pf-v6-c-empty-state');
    expect(await empty.locator('.pf-v6-c-empty-state__title').innerText()).toBe('No md RAID arrays');
    const body = await empty.innerText();
    expect(body).toContain('This machine has no Linux software RAID arrays.');
    expect(await empty.locator('pre').innerText()).toBe('mdadm --create /dev/md0 --level=1 --raid-devices=2 /dev/sdX /dev/sdY');
    expect(body).not.toContain('driver is not loaded');

    expect(await shownArrays(env.page)).toEqual([]);
    expect(await env.page.locator('.raidtune-sync, .raidtune-members').count()).toBe(0);
    expect(await warningAlerts(env.page)).toEqual([]);
    // The global limits still show: they apply to any array created later.
    expect(await env.page.locator('#global-limits').innerText())
        .toContain(`Minimum: 0.98 MiB/s (${await simValue(env, '/proc/sys/dev/raid/speed_limit_min')} KiB/s)`);
});
