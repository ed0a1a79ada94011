// SPDX-License-Identifier: LGPL-2.1-or-later
// The overview, the page's first place (#/, issue #33): inside Cockpit's shell at 1280x720, without
// scrolling, an admin sees each array's redundancy left, its operation's progress, when it ends,
// what sets its pace and the one change that helps; the arrays in trouble come first, and a RAID 5
// without redundancy is marked danger. Each array's name opens its own page (#/md0).

import type { Page } from 'playwright-core';
import { setupRaidtune, type RaidtuneEnv } from './harness/env';
import {
    arrayCard, changeDialog, dialogButton, KERNEL_DONE, overviewRow, overviewRowTexts, saveScreenshot, shownArrays,
    simMdstat, simValue, waitForRefreshes, waitUntil, withinWindow,
} from './harness/raidtunePage';
import { waitBudget } from '../../tools/cockpit/waitBudget';

/** The page inside the shell, in a window of 1280x720 (a laptop's). */
async function shellAt720(env: RaidtuneEnv, firstRow: string) {
    const shell = await env.shellPage();
    await shell.page.setViewportSize({ width: 1280, height: 720 });
    await overviewRow(shell.frame, firstRow).waitFor();
    return shell;
}

/** "21 h 50 min" as seconds (the duration words of the English page). */
function durationSeconds(text: string): number {
    const unit: Record<string, number> = { d: 86400, h: 3600, min: 60, s: 1 };
    return [...text.matchAll(/(\d+) (d|h|min|s)\b/g)].reduce((sum, [, n, u]) => sum + Number(n) * unit[u], 0);
}

/** Minutes between the shown clock time ("Sat 04:40 PM") and `at`, on a 24-hour dial. */
function clockOffMinutes(shown: string, at: Date): number {
    const m = /(\d{1,2}):(\d{2})\s*([AP]M)?$/.exec(shown);
    if (!m) throw new Error(`no clock time in "${shown}"`);
    const hours = (Number(m[1]) % 12) + (m[3] === 'PM' ? 12 : m[3] === 'AM' ? 0 : Number(m[1]) >= 12 ? 12 : 0);
    const diff = Math.abs(hours * 60 + Number(m[2]) - (at.getHours() * 60 + at.getMinutes()));
    return Math.min(diff, 24 * 60 - diff);
}

const browserNow = (page: Page) => page.evaluate(() => Date.now());

/** The bare page is ready once the overview's table shows. */
const OVERVIEW = 'table.raidtune-overview';

describe('raid6-recovery', () => {
    const env = setupRaidtune({ scenario: 'raid6-recovery', readySelector: OVERVIEW });

    test('md0\'s row shows, without scrolling, the redundancy left, the rebuild\'s progress and its end', async () => {
        const shell = await shellAt720(env, 'md0');
        // The page's own estimate needs 10 s of samples; until then the kernel's stands in.
        await waitForRefreshes(shell.frame, 6);
        const row = overviewRow(shell.frame, 'md0');
        expect(await withinWindow(shell.page, row)).toBe(true);

        const [shown] = await overviewRowTexts(shell.frame);
        const truth = (await simMdstat(env)).get('md0')!.sync!;
        expect(shown).toMatchObject({
            name: 'md0', severity: 'degraded', mark: 'warning',
            redundancy: 'Survives 1 more failure', redundancyLabel: 'warning',
        });
        const percent = Number(/^Rebuild (\d+\.\d)%$/.exec(shown.operation)?.[1]);
        expect(percent).toBeCloseTo(truth.percent!, 0);
        // "about 21 h 50 min, Sat 04:40 PM": the clock time is now plus the duration.
        const estimate = /^about (\d+ h \d+ min), (.+)$/.exec(shown.estimate);
        expect(estimate).not.toBeNull();
        const end = new Date(await browserNow(shell.page) + durationSeconds(estimate![1]) * 1000);
        expect(clockOffMinutes(estimate![2], end)).toBeLessThanOrEqual(2);
        // The kernel's own figure is in a tooltip (in the page's frame, where the pointer is).
        await row.locator('.raidtune-overview-estimate').hover();
        await shell.frame.getByRole('tooltip').getByText(/^Kernel estimate: \d+ h \d+ min$/).waitFor();
        await saveScreenshot(shell.page, 'overview-raid6-recovery-1280x720');
    });

    test('the row says what sets the pace, and its primary action is the card\'s fix: md0\'s stripe cache goes up', async () => {
        const shell = await shellAt720(env, 'md0');
        const row = overviewRow(shell.frame, 'md0');
        const action = row.locator('.raidtune-overview-action');
        // The diagnosis' verdict needs 10 s of samples. md0's hard disks serve other I/O: the stripe
        // cache is the first lever there (make bench-rebuild, seek-raid6-load), ahead of the minimum.
        await action.waitFor({ timeout: waitBudget(60000) });
        expect(await row.locator('.raidtune-overview-pace-words').innerText()).toBe('The stripe cache holds it back');
        expect(await action.innerText()).toBe('Speed up rebuild…');
        expect(await withinWindow(shell.page, action)).toBe(true);

        await action.click();
        const commands = await changeDialog(shell.frame).locator('.raidtune-commands').innerText();
        expect(commands).toBe('echo 4096 > /sys/block/md0/md/stripe_cache_size');
        await dialogButton(shell.frame, 'Apply').click();
        await changeDialog(shell.frame).getByText(KERNEL_DONE).waitFor();
        await dialogButton(shell.frame, 'Close').click();
        expect(await simValue(env, '/sys/block/md0/md/stripe_cache_size')).toBe('4096');
        // Now the rebuild runs above the minimum, and no larger cache or minimum is offered.
        await waitUntil('the row offers no further change', async () => await action.count() === 0, 60000);
    });

    test('the name opens the array\'s own page, and its way back returns to the overview', async () => {
        const shell = await shellAt720(env, 'md0');
        await overviewRow(shell.frame, 'md0').locator('a.raidtune-overview-link').click();
        await shell.frame.waitForFunction(() => window.location.hash === '#/md0');
        const title = arrayCard(shell.frame, 'md0').locator('h2');
        await title.waitFor();
        expect(await withinWindow(shell.page, title)).toBe(true);
        // Only md0's card, with the way back above it; the shell's address names the page.
        expect(await shownArrays(shell.frame)).toEqual(['md0']);
        expect(await shell.frame.locator('#raidtune-overview').count()).toBe(0);
        await shell.page.waitForFunction(() => window.location.hash === '#/md0');
        await shell.frame.locator('.raidtune-breadcrumb').getByRole('link', { name: 'RAID tuning', exact: true }).click();
        await overviewRow(shell.frame, 'md0').waitFor();
        expect(await shownArrays(shell.frame)).toEqual([]);
    });
});

describe('slow-rebuilds', () => {
    const env = setupRaidtune({ scenario: 'slow-rebuilds', readySelector: OVERVIEW });

    test('the rebuilds without redundancy come first, marked danger', async () => {
        const shell = await shellAt720(env, 'md0');
        await saveScreenshot(shell.page, 'overview-slow-rebuilds-1280x720');
        const rows = await overviewRowTexts(shell.frame);
        expect(rows.map(r => [r.name, r.severity, r.mark])).toEqual([
            ['md0', 'at-risk', 'danger'], ['md1', 'at-risk', 'danger'], ['md2', 'at-risk', 'danger'],
            ['md3', 'syncing', 'none'], ['md4', 'syncing', 'none'], ['md5', 'syncing', 'none'], ['md6', 'syncing', 'none'],
        ]);
        expect(rows[2]).toMatchObject({ redundancy: 'None left: one more failure loses md2', redundancyLabel: 'danger' });
        expect(rows[3]).toMatchObject({ redundancy: 'Survives 2 more failures', redundancyLabel: null });
        // A frozen or waiting resync has no end to tell: it says why.
        expect(rows[4].estimate).toBe('Paused (frozen)');
        expect(rows[6].estimate).toBe('Waiting for another array on the same disks');
        for (const name of ['md0', 'md1', 'md2']) expect(await withinWindow(shell.page, overviewRow(shell.frame, name))).toBe(true);
    });
});

describe('degraded-failed', () => {
    const env = setupRaidtune({ scenario: 'degraded-failed', readySelector: OVERVIEW });

    test('the RAID 5 without redundancy and the RAID 1 that does not run are marked danger', async () => {
        const shell = await shellAt720(env, 'md0');
        expect(await overviewRowTexts(shell.frame)).toEqual([
            expect.objectContaining({ name: 'md0', mark: 'danger', redundancyLabel: 'danger',
                redundancy: 'None left: one more failure loses md0', operation: '', estimate: '' }),
            expect.objectContaining({ name: 'md1', mark: 'danger', redundancyLabel: 'danger', redundancy: 'Not running' }),
        ]);
        expect(await withinWindow(shell.page, overviewRow(shell.frame, 'md1'))).toBe(true);
    });
});
