// SPDX-License-Identifier: LGPL-2.1-or-later
// Light and dark, as Cockpit's "Style" setting says (localStorage "shell:style": auto | dark |
// light), on the bare page and inside the 287 shell (PatternFly 4, which only toggles its own
// pf-theme-dark): the plugin puts pf-v6-theme-dark on its own <html> and its cards turn dark; a
// change in the shell reaches the open frame at once. Checked on md0's page (its card), where the
// README's screenshots are taken: the RAID6 rebuilding, with its chart.
import type { Page } from 'playwright-core';
import { setupRaidtune } from './harness/env';
import { chooseStyle, luminance, type Surface } from './harness/cockpitSettings';
import { saveScreenshot, syncFact, waitForRefreshes } from './harness/raidtunePage';
import { waitBudget } from '../../tools/cockpit/waitBudget';

const env = setupRaidtune({ scenario: 'raid6-recovery', arrayPage: 'md0' });
/** md0's page, opened alone. */
const MD0_PAGE = '/cockpit/@localhost/raidtune/index.html#/md0';

/** Another document of the same browser context and origin, as the shell is to its frames. */
async function sibling(page: Page): Promise<Page> {
    const other = await page.context().newPage();
    await other.goto(page.url());
    return other;
}

async function theme(surface: Surface) {
    return surface.evaluate(() => ({
        dark: document.documentElement.classList.contains('pf-v6-theme-dark'),
        card: getComputedStyle(document.querySelector('#array-md0')!).backgroundColor,
        text: getComputedStyle(document.querySelector('#array-md0 h2')!).color,
    }));
}

async function expectDark(surface: Surface) {
    await surface.waitForFunction(() => document.documentElement.classList.contains('pf-v6-theme-dark'));
    const t = await theme(surface);
    expect(luminance(t.card)).toBeLessThan(0.1);
    expect(luminance(t.text)).toBeGreaterThan(0.3);
}

async function expectLight(surface: Surface) {
    await surface.waitForFunction(() => !document.documentElement.classList.contains('pf-v6-theme-dark'));
    const t = await theme(surface);
    expect(luminance(t.card)).toBeGreaterThan(0.8);
    expect(luminance(t.text)).toBeLessThan(0.3);
}

test('the bare page: light by default, dark when the style is dark, light again when it is light', async () => {
    await expectLight(env.page);
    const other = await sibling(env.page); // another document of the origin, like the shell
    await chooseStyle(other, 'dark');
    await expectDark(env.page); // the open page follows the storage event, without a reload
    await chooseStyle(other, 'light');
    await expectLight(env.page);
    await other.close();
    await env.page.reload();
    await env.page.waitForSelector('#array-md0');
    await expectLight(env.page);
});

test('"auto" follows the system preference', async () => {
    const page = (await env.openPage(MD0_PAGE)).page;
    await chooseStyle(page, 'auto');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await page.waitForSelector('#array-md0');
    await expectDark(page);
    await page.emulateMedia({ colorScheme: 'light' });
    await expectLight(page);
});

test('inside the shell: the frame turns dark with the shell, and back', async () => {
    const shell = await env.shellPage('md0');
    await shell.frame.waitForSelector('#array-md0');
    await expectLight(shell.frame);
    await chooseStyle(shell.page, 'dark'); // what the shell's Style menu stores
    await expectDark(shell.frame);
    await shell.page.reload(); // a fresh shell with the dark style saved
    const frame = await shell.waitForFrame(env.cockpit.shellFrameName);
    await frame.waitForSelector('#array-md0');
    await expectDark(frame);
    await chooseStyle(shell.page, 'light');
    await expectLight(frame);
});

test('screenshots for the README: light and dark', async () => {
    const page = (await env.openPage(MD0_PAGE)).page;
    await page.setViewportSize({ width: 1100, height: 800 });
    await chooseStyle(page, 'light');
    await page.reload();
    await page.waitForSelector('#array-md0');
    // Until raidtune's own estimate shows (it averages at least 10 s of samples).
    await waitForRefreshes(page, 6);
    expect(await syncFact(page, 'md0', 'Average-speed estimate')).toMatch(/at the average speed of the last/);
    await saveScreenshot(page, 'raidtune-light');
    const other = await sibling(page);
    await chooseStyle(other, 'dark');
    await expectDark(page);
    await saveScreenshot(page, 'raidtune-dark');
}, waitBudget(90000));
