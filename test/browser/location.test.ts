// SPDX-License-Identifier: LGPL-2.1-or-later
// Cockpit integration: addresses (#/md3 selects an array, clicking a name changes the address,
// Back and Forward work, bare and in the shell, where the shell's own URL follows), the link to
// Cockpit's Storage page only where cockpit-storaged is installed, and the menu entry.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { cockpitUnderTest } from '../../tools/cockpit';
import { customScenario } from './harness/customScenario';
import { setupRaidtune } from './harness/env';
import { cardInView, nextReadRendered } from './harness/raidtunePage';

type Surface = Page | Frame;

/** The selected (outlined) cards, and whether the card is scrolled into view. */
function selection(surface: Surface) {
    return surface.evaluate(() => ({
        hash: window.location.hash,
        selected: [...document.querySelectorAll('section.raidtune-selected')].map(s => s.id.replace(/^array-/, '')),
        current: [...document.querySelectorAll('a[aria-current="location"]')].map(a => a.textContent),
    }));
}

function inView(surface: Surface, name: string) {
    return surface.evaluate(n => {
        const r = document.getElementById(`array-${n}`)!.getBoundingClientRect();
        return r.top >= -1 && r.top < window.innerHeight / 2;
    }, name);
}

async function waitForSelected(surface: Surface, name: string | null) {
    await surface.waitForFunction(n => {
        const selected = [...document.querySelectorAll('section.raidtune-selected')].map(s => s.id.replace(/^array-/, ''));
        return n === null ? selected.length === 0 : selected.length === 1 && selected[0] === n;
    }, name);
}

// Enough arrays that md40's card is far below the first screen. Not the 128 arrays of 2,048 disks
// of many-arrays: each of this file's eight pages took about 10 s of Chromium's CPU there, and
// the addresses are the same on a shorter page.
const ADDRESSES = {
    name: 'addresses',
    description: '48 idle RAID1 arrays of two SATA disks each.',
    generate: [{ count: 48, members: 2, disk: { kind: 'sata', sizeBytes: 2000398934016 }, array: { level: 'raid1' } }],
};

describe('addresses of arrays', () => {
    const env = setupRaidtune({ scenario: customScenario('addresses', ADDRESSES).file, arrayPage: 'md0' });

    test('#/md40 on opening outlines md40 and scrolls to it', async () => {
        const page = (await env.openPage(`/cockpit/@localhost/raidtune/index.html#/md40`)).page;
        await page.waitForSelector('#array-md40');
        await waitForSelected(page, 'md40');
        expect(await selection(page)).toEqual({ hash: '#/md40', selected: ['md40'], current: ['/dev/md40'] });
        expect(await inView(page, 'md40')).toBe(true);
        expect(await inView(page, 'md0')).toBe(false);
    });

    test('clicking a name changes the address; Back and Forward move between selections', async () => {
        const page = (await env.openPage(`/cockpit/@localhost/raidtune/index.html#/md40`)).page;
        await waitForSelected(page, 'md40');
        await page.locator('#array-md41 a.raidtune-array-link').click();
        await waitForSelected(page, 'md41');
        expect((await selection(page)).hash).toBe('#/md41');
        await page.goBack();
        await waitForSelected(page, 'md40');
        expect(await inView(page, 'md40')).toBe(true);
        await page.goForward();
        await waitForSelected(page, 'md41');
        // A refresh does not scroll the page back to the selection once the user scrolled away.
        await page.evaluate(() => window.scrollTo(0, 0));
        await nextReadRendered(page);
        expect(await page.evaluate(() => window.scrollY)).toBe(0);
    });

    test('an address that names no array selects nothing', async () => {
        const page = (await env.openPage(`/cockpit/@localhost/raidtune/index.html#/md999`)).page;
        await page.waitForSelector('#array-md0');
        expect((await selection(page)).selected).toEqual([]);
    });

    test('an address that climbs above the root, or has a broken escape, names nothing; clicking a name still works', async () => {
        for (const address of ['#/md0/../../etc/passwd', '#/%E0%A4%A']) {
            const page = (await env.openPage(`/cockpit/@localhost/raidtune/index.html${address}`)).page;
            await page.waitForSelector('#array-md41');
            expect((await selection(page)).selected).toEqual([]);
            await page.locator('#array-md41 a.raidtune-array-link').click();
            await waitForSelected(page, 'md41');
            expect((await selection(page)).hash).toBe('#/md41');
            // The env fails the test on any uncaught error or console error these pages recorded.
        }
    });

    test('in the shell, the shell\'s address follows and its Back works; no Storage link without storaged', async () => {
        const shell = await env.openPage('/raidtune#/md7');
        const frame = await shell.waitForFrame(env.cockpit.shellFrameName);
        await frame.waitForSelector('#array-md7');
        await waitForSelected(frame, 'md7');
        await frame.locator('#array-md9 a.raidtune-array-link').click();
        await waitForSelected(frame, 'md9');
        await shell.page.waitForURL(/\/raidtune#\/md9$/);
        await shell.page.goBack();
        await waitForSelected(frame, 'md7');
        await shell.page.waitForURL(/\/raidtune#\/md7$/);
        // Without Cockpit's Storage page (cockpit-storaged) there is no link to it.
        expect(await frame.locator('.raidtune-storage-link').count()).toBe(0);
    });
});

describe('with Cockpit\'s Storage page installed', () => {
    // A stand-in for cockpit-storaged's "storage" package: its manifest is what the link checks.
    const storage = mkdtempSync(join(tmpdir(), 'raidtune-fake-storage-'));
    writeFileSync(join(storage, 'manifest.json'), JSON.stringify({ menu: { index: { label: 'Storage', order: 30 } } }));
    writeFileSync(join(storage, 'index.html'), '<!DOCTYPE html><html lang="en"><head><title>Storage</title></head><body><h1 id="storage">Storage stand-in</h1></body></html>\n');
    afterAll(() => rmSync(storage, { recursive: true, force: true }));
    const env = setupRaidtune({ scenario: 'raid6-recovery', arrayPage: 'md0', extraPackages: { storage } });

    test('in the shell each array links to it, and the link opens it', async () => {
        const shell = await env.shellPage();
        // Laid out first: right after the frame loads, the card may not be yet (content-visibility).
        const link = (await cardInView(shell.frame, 'md0')).locator('.raidtune-storage-link');
        await expect(link.innerText()).resolves.toBe('Storage');
        await expect(link.getAttribute('aria-label')).resolves.toBe('Open /dev/md0 in the Storage page');
        await link.click();
        await shell.page.waitForURL(/\/storage$/);
        const storageFrame = await shell.waitForFrame('cockpit1:localhost/storage');
        await storageFrame.waitForSelector('#storage');
    });

    test('the page opened alone has no such link (cockpit.jump() only navigates in the shell)', async () => {
        await env.page.waitForSelector('#array-md0');
        expect(await env.page.locator('.raidtune-storage-link').count()).toBe(0);
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
            await shell.frame.waitForSelector('#array-md0');
        }
    });
});
