// SPDX-License-Identifier: LGPL-2.1-or-later
// Cockpit integration: addresses (#/ is the overview, #/md3 that array's own page; the overview's
// links and the breadcrumb change the address, Back and Forward move between the pages, bare and
// in the shell, where the shell's own URL follows), the link to Cockpit's Storage page only where
// cockpit-storaged is installed, and the menu entry.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { cockpitUnderTest } from '../../tools/cockpit';
import { customScenario } from './harness/customScenario';
import { setupRaidtune } from './harness/env';
import { nextReadRendered, shownArrays } from './harness/raidtunePage';

type Surface = Page | Frame;

const BARE = '/cockpit/@localhost/raidtune/index.html';

/** Where the page is: its address, the array cards it shows, and whether the overview shows. */
function place(surface: Surface) {
    return surface.evaluate(() => ({
        hash: window.location.hash,
        cards: [...document.querySelectorAll('section[id^="array-"]')].map(s => s.id.replace(/^array-/, '')),
        overview: document.querySelector('#raidtune-overview') !== null,
        noSuchArray: [...document.querySelectorAll('.raidtune-no-such-array .pf-v6-c-alert__title')]
            .map(t => (t as HTMLElement).innerText.replace(/^Warning alert:\s*/, '').trim()),
    }));
}

/** Resolves once the array's page shows (its card's title). */
async function arrayPageShown(surface: Surface, name: string) {
    await surface.locator(`#array-${name} h2`).waitFor();
}

/** Resolves once the overview shows (its table). */
async function overviewShown(surface: Surface) {
    await surface.locator('table.raidtune-overview').waitFor();
}

/** The array's link in the overview, as a user reaches it: the healthy idle arrays are folded first. */
async function overviewLink(surface: Surface, name: string) {
    const link = surface.locator(`table.raidtune-overview tr[data-array="${name}"] a.raidtune-overview-link`);
    if (await link.count() === 0) await surface.locator('.raidtune-overview-healthy').getByRole('button', { name: 'Show them' }).click();
    return link;
}

async function clickOverviewLink(surface: Surface, name: string) {
    await (await overviewLink(surface, name)).click();
}

/** The array page's way back: the breadcrumb's "RAID tuning". */
function breadcrumbLink(surface: Surface) {
    return surface.locator('.raidtune-breadcrumb').getByRole('link', { name: 'RAID tuning', exact: true });
}

// More healthy idle arrays than the overview lists (4): their links are behind "Show them". Two-digit
// names, so that an address is more than one character after "md".
const ADDRESSES = {
    name: 'addresses',
    description: '12 idle RAID1 arrays of two SATA disks each.',
    generate: [{ count: 12, members: 2, disk: { kind: 'sata', sizeBytes: 2000398934016 }, array: { level: 'raid1' } }],
};

describe('addresses of arrays', () => {
    const env = setupRaidtune({ scenario: customScenario('addresses', ADDRESSES).file, readySelector: 'table.raidtune-overview' });

    test('#/md10 on opening shows md10\'s page: its card alone, with the way back to the overview', async () => {
        const page = (await env.openPage(`${BARE}#/md10`)).page;
        await arrayPageShown(page, 'md10');
        expect(await place(page)).toEqual({ hash: '#/md10', cards: ['md10'], overview: false, noSuchArray: [] });
        await expect(page.locator('#array-md10 h2').innerText()).resolves.toBe('/dev/md10');
        await expect(breadcrumbLink(page).getAttribute('href')).resolves.toBe('#/');
        // No host settings on an array's page; its sync history names this array alone.
        await page.locator('#sync-history .raidtune-history-array').first().waitFor();
        expect(await page.locator('#sync-history .raidtune-history-array').evaluateAll(els =>
            els.map(e => e.getAttribute('data-array')))).toEqual(['md10']);
        for (const card of ['#global-limits', '#keep-after-reboot', '#monitor-alerts', '#check-schedule'])
            expect(await page.locator(card).count()).toBe(0);
    });

    test('the overview\'s link opens the array\'s page at its top; Back and Forward move between the two; the breadcrumb returns', async () => {
        const page = (await env.openPage()).page;
        // A short window: the overview, with every array listed, and an array's page are taller than it.
        await page.setViewportSize({ width: 1280, height: 400 });
        await overviewShown(page);
        const link = await overviewLink(page, 'md11');
        await link.scrollIntoViewIfNeeded();
        expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
        await link.click();
        await arrayPageShown(page, 'md11');
        expect(await place(page)).toEqual({ hash: '#/md11', cards: ['md11'], overview: false, noSuchArray: [] });
        // Another page starts at its top, as a link to another document would.
        expect(await page.evaluate(() => window.scrollY)).toBe(0);

        await page.goBack();
        await overviewShown(page);
        expect(await place(page)).toEqual({ hash: '', cards: [], overview: true, noSuchArray: [] });
        await page.goForward();
        await arrayPageShown(page, 'md11');
        expect((await place(page)).hash).toBe('#/md11');

        // A refresh leaves the page where the user scrolled it.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const scrolled = await page.evaluate(() => window.scrollY);
        expect(scrolled).toBeGreaterThan(0);
        await nextReadRendered(page);
        expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);

        await breadcrumbLink(page).click();
        await overviewShown(page);
        expect(await place(page)).toEqual({ hash: '#/', cards: [], overview: true, noSuchArray: [] });
        expect(await page.evaluate(() => window.scrollY)).toBe(0);
        await page.goBack();
        await arrayPageShown(page, 'md11');
        expect((await place(page)).hash).toBe('#/md11');
    });

    test('an address that names no array shows the overview, saying there is no such array', async () => {
        const page = (await env.openPage(`${BARE}#/md999`)).page;
        await overviewShown(page);
        expect(await place(page)).toEqual({
            hash: '#/md999', cards: [], overview: true, noSuchArray: ['There is no array md999 on this host.'],
        });
        // An array's page does not say it.
        await clickOverviewLink(page, 'md11');
        await arrayPageShown(page, 'md11');
        expect((await place(page)).noSuchArray).toEqual([]);
    });

    test('an address that climbs above the root, or has a broken escape, names nothing: the overview, no alert; links still work', async () => {
        for (const address of ['#/md0/../../etc/passwd', '#/%E0%A4%A']) {
            const page = (await env.openPage(`${BARE}${address}`)).page;
            await overviewShown(page);
            expect(await place(page)).toEqual({ hash: address, cards: [], overview: true, noSuchArray: [] });
            await clickOverviewLink(page, 'md11');
            await arrayPageShown(page, 'md11');
            expect(await shownArrays(page)).toEqual(['md11']);
            expect((await place(page)).hash).toBe('#/md11');
            // The env fails the test on any uncaught error or console error these pages recorded.
        }
    });

    test('in the shell, the shell\'s address follows and its Back works; no Storage link without storaged', async () => {
        const shell = await env.openPage('/raidtune#/md7');
        const frame = await shell.waitForFrame(env.cockpit.shellFrameName);
        await arrayPageShown(frame, 'md7');
        // Without Cockpit's Storage page (cockpit-storaged) there is no link to it.
        expect(await frame.locator('.raidtune-storage-link').count()).toBe(0);
        await breadcrumbLink(frame).click();
        await overviewShown(frame);
        // The shell writes the overview's address, #/, as its page's own: /raidtune.
        await shell.page.waitForURL(/\/raidtune$/);
        await clickOverviewLink(frame, 'md9');
        await arrayPageShown(frame, 'md9');
        await shell.page.waitForURL(/\/raidtune#\/md9$/);
        await shell.page.goBack();
        await overviewShown(frame);
        await shell.page.waitForURL(/\/raidtune$/);
        await shell.page.goBack();
        await arrayPageShown(frame, 'md7');
        await shell.page.waitForURL(/\/raidtune#\/md7$/);
        expect(await shownArrays(frame)).toEqual(['md7']);
    });
});

describe('with Cockpit\'s Storage page installed', () => {
    // A stand-in for cockpit-storaged's "storage" package: its manifest is what the link checks.
    const storage = mkdtempSync(join(tmpdir(), 'raidtune-fake-storage-'));
    writeFileSync(join(storage, 'manifest.json'), JSON.stringify({ menu: { index: { label: 'Storage', order: 30 } } }));
    writeFileSync(join(storage, 'index.html'), '<!DOCTYPE html><html lang="en"><head><title>Storage</title></head><body><h1 id="storage">Storage stand-in</h1></body></html>\n');
    afterAll(() => rmSync(storage, { recursive: true, force: true }));
    const env = setupRaidtune({ scenario: 'raid6-recovery', arrayPage: 'md0', extraPackages: { storage } });

    test('in the shell each array\'s page links to it, and the link opens it', async () => {
        const shell = await env.shellPage('md0');
        const link = shell.frame.locator('#array-md0 .raidtune-storage-link');
        await expect(link.innerText()).resolves.toBe('Storage');
        await expect(link.getAttribute('aria-label')).resolves.toBe('Open /dev/md0 in the Storage page');
        await link.click();
        await shell.page.waitForURL(/\/storage$/);
        const storageFrame = await shell.waitForFrame('cockpit1:localhost/storage');
        await storageFrame.waitForSelector('#storage');
    });

    test('each member\'s disk links to its own place there (its SMART data): #/sda for sda1', async () => {
        const shell = await env.shellPage('md0');
        const link = shell.frame.locator('#array-md0 tr[data-member="sda1"] .raidtune-member-storage');
        await expect(link.getAttribute('aria-label')).resolves.toBe('Open disk sda in the Storage page');
        await link.click();
        await shell.page.waitForURL(/\/storage#\/sda$/);
        const storageFrame = await shell.waitForFrame('cockpit1:localhost/storage');
        await storageFrame.waitForSelector('#storage');
    });

    test('the page opened alone has no such link (cockpit.jump() only navigates in the shell)', async () => {
        await env.page.waitForSelector('#array-md0');
        expect(await env.page.locator('.raidtune-storage-link').count()).toBe(0);
        expect(await env.page.locator('.raidtune-member-storage').count()).toBe(0);
    });

    test('the menu lists the page with the simulated host; the manifest carries requires and conditions', async () => {
        const shell = await env.shellPage();
        await shell.page.getByRole('link', { name: 'RAID tuning', exact: true }).waitFor();
        const manifest = await shell.page.evaluate(() => fetch('/cockpit/@localhost/manifests.json').then(r => r.json()));
        // The harness points the condition at the simulated host (see simulatedHostConditions).
        expect(manifest.raidtune.conditions).toEqual([{ 'path-exists': `${env.sim.procRoot}/mdstat` }]);
        expect(manifest.raidtune.requires).toEqual({ cockpit: '215' });
    });
});

describe('a condition that is not met', () => {
    const { pythonBridge } = cockpitUnderTest();
    const env = setupRaidtune({
        scenario: 'raid1-healthy', openBarePage: false,
        manifest: { conditions: [{ 'path-exists': '/nonexistent/raidtune-condition' }] },
    });

    // Each bridge's own behaviour: the C bridge (287) ignores `conditions`; the Python bridge (RHEL
    // 9.3+, 10, Fedora) hides the package, so a host without md shows no RAID page at all.
    test(pythonBridge ? 'hides the page on the Python bridge: no menu entry, its address answers 404'
        : 'still lists the page on 287: its C bridge ignores "conditions"', async () => {
        const menuEntry = (page: Page) => page.getByRole('link', { name: 'RAID tuning', exact: true });
        if (pythonBridge) {
            const shell = await env.openPage('/');
            await shell.page.getByRole('link', { name: 'Overview', exact: true }).waitFor();
            expect(await menuEntry(shell.page).count()).toBe(0);
            expect((await shell.page.request.get(env.cockpit.barePageUrl)).status()).toBe(404);
        } else {
            const shell = await env.shellPage();
            await menuEntry(shell.page).waitFor();
            await shell.frame.waitForSelector('table.raidtune-overview tr[data-array="md0"]');
        }
    });
});
