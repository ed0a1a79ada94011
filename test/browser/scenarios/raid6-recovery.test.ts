// SPDX-License-Identifier: LGPL-2.1-or-later
// The seed's 22-hour rebuild: a 5 x 2 TB RAID6 recovering onto a replaced disk, held at the
// minimum speed by other I/O. The page must show what the (simulated) kernel holds, live.

import { setupRaidtune } from '../harness/env';
import {
    arrayCard, memberRoles, saveScreenshot, showArrayPage, showOverview, shownPercent, simMdstat, syncFact,
    waitForRefreshes,
} from '../harness/raidtunePage';
import { waitBudget } from '../../../tools/cockpit/waitBudget';

const env = setupRaidtune({ scenario: 'raid6-recovery', arrayPage: 'md0' });

test('shows the degraded RAID6 and who is being rebuilt', async () => {
    const card = arrayCard(env.page, 'md0');
    await expect(card.locator('h2').innerText()).resolves.toBe('/dev/md0');
    const text = await card.innerText();
    expect(text).toContain('RAID 6');
    expect(text).toContain('Degraded');
    // It survives one more failure: a warning's colour, not danger's.
    await expect(card.locator('.raidtune-health').getAttribute('class')).resolves.toMatch(/pf-m-orange/);
    expect(text).toContain('4 of 5 working');
    expect(text).toContain('64 KiB'); // chunk
    expect(await memberRoles(env.page, 'md0')).toEqual({
        sda1: 'Active, slot 0', sdb1: 'Active, slot 1', sdc1: 'Active, slot 2', sdd1: 'Active, slot 3',
        sde1: expect.stringMatching(/^Rebuilding into slot 4 \(8\d\.\d%\)$/),
    });
});

test('shows the recovery progress the kernel reports, with both estimates', async () => {
    const truth = (await simMdstat(env)).get('md0')!.sync!;
    expect(truth.action).toBe('recovery');
    expect(await shownPercent(env.page, 'md0')).toBeCloseTo(truth.percent!, 0);
    expect(await arrayCard(env.page, 'md0').innerText()).toContain('Rebuild');

    // ~4 MiB/s against 1.8 TiB per disk: the kernel says many hours.
    expect(await syncFact(env.page, 'md0', 'Speed')).toMatch(/^[34]\.\d+ MiB\/s \(\d+ KiB\/s\)$/);
    expect(await syncFact(env.page, 'md0', 'Kernel estimate')).toMatch(/^\d+ h \d+ min$/);
    expect(await syncFact(env.page, 'md0', 'Done')).toMatch(/ of 1\.82 TiB per disk$/);

    // raidtune's own estimate needs samples over 10 s: it says so, then gives an averaged figure.
    expect(await syncFact(env.page, 'md0', 'Average-speed estimate')).toBe('measuring…');
    await waitForRefreshes(env.page, 6);
    expect(await syncFact(env.page, 'md0', 'Average-speed estimate')).toMatch(/^\d+ h \d+ min \(at the average speed of the last \d+ s\)$/);
    await saveScreenshot(env.page, 'raid6-recovery');
});

test('shows the limits that hold it back, and follows a change made on the host', async () => {
    // The system's limits are the overview's host settings; the array's page says which applies.
    await showOverview(env.page);
    const limits = env.page.locator('#global-limits');
    await expect(limits.innerText()).resolves.toContain('Minimum: 3.91 MiB/s (4000 KiB/s)');
    await expect(limits.innerText()).resolves.toContain('Maximum: 195 MiB/s (200000 KiB/s), the kernel default');
    expect(await syncFact(env.page, 'md0', 'Minimum speed')).toBe('3.91 MiB/s (4000 KiB/s), from the system limit');

    // What the admins' guides do by hand: raise the minimum so other I/O no longer starves the rebuild.
    await env.writeSim('/proc/sys/dev/raid/speed_limit_min', '50000\n');
    await showOverview(env.page);
    await env.page.waitForFunction(
        () => document.querySelector('#global-limits')?.textContent?.includes('48.8 MiB/s (50000 KiB/s)'), null, { timeout: waitBudget(15000) });
    await showArrayPage(env.page, 'md0');
    await env.page.waitForFunction(() => {
        const fact = [...document.querySelectorAll('#array-md0 .raidtune-sync-fact')].find(f => f.textContent?.startsWith('Speed:'));
        const kiBs = Number(fact?.textContent?.match(/\((\d+) KiB\/s\)/)?.[1]);
        // The kernel's speed= averages ~30 s: tripled within 20 s shows the new minimum applies.
        return kiBs > 12000;
    }, null, { timeout: waitBudget(20000) });
});

test('refreshes in place: same elements, same scroll position', async () => {
    await showArrayPage(env.page, 'md0');
    await env.page.evaluate(() => { (document.querySelector('#array-md0') as HTMLElement & { marker?: number }).marker = 42; });
    await waitForRefreshes(env.page, 2);
    const marker = await env.page.evaluate(() => (document.querySelector('#array-md0') as HTMLElement & { marker?: number }).marker);
    expect(marker).toBe(42);
});

test('works inside the Cockpit shell too', async () => {
    const shell = await env.shellPage('md0');
    await arrayCard(shell.frame, 'md0').waitFor();
    expect(await arrayCard(shell.frame, 'md0').innerText()).toContain('Degraded');
});
