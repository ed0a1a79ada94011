// SPDX-License-Identifier: LGPL-2.1-or-later
// Accessibility: axe-core finds no serious or critical violation on any scenario's pages (the
// overview with its host settings, and each array's own page), light and dark, bare and in the
// shell; everything interactive is reachable with Tab, in reading order, with a visible name; the
// progress bar has a text equivalent; the keyboard opens an array's page and goes back. All axe
// findings (every impact) are written to test-results/a11y/<scenario>-<style>-<page>.json for people to read.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Frame, Page } from 'playwright-core';
import { setupRaidtune } from './harness/env';
import {
    arrayCard, emulateDocumentHidden, overviewRowTexts, refreshesSettled, showArrayPage, showOverview, shownArrays,
} from './harness/raidtunePage';
import { chooseStyle, formatViolations, runAxe, severe, type AxeViolation } from './harness/cockpitSettings';

type Surface = Page | Frame;

// The UI's variants: a running rebuild (progress), failed members, no arrays, a waiting resync
// (explanation alert), 128 arrays. A11Y_SCENARIOS=a,b,c runs others.
const SCENARIOS = (process.env.A11Y_SCENARIOS ?? 'raid6-recovery,degraded-failed,empty,shared-disks,many-arrays').split(',');

function record(scenario: string, where: string, violations: AxeViolation[]) {
    mkdirSync('test-results/a11y', { recursive: true });
    writeFileSync(`test-results/a11y/${scenario}-${where}.json`, JSON.stringify(violations, null, 2) + '\n');
}

async function expectNoSevereViolations(surface: Surface, scenario: string, where: string) {
    const violations = await runAxe(surface);
    record(scenario, where, violations);
    const bad = severe(violations);
    if (bad.length) throw new Error(`axe on ${scenario} (${where}):\n${formatViolations(bad)}`);
}

/** The overview, once its host settings are there too (they come a moment after it). */
async function overviewComplete(surface: Surface): Promise<void> {
    await showOverview(surface);
    await surface.locator('#global-limits').waitFor();
}

/** The arrays the overview lists (a host's healthy ones beyond a few stay folded): the pages to check. */
async function listedArrays(surface: Surface): Promise<string[]> {
    await overviewComplete(surface);
    return (await overviewRowTexts(surface)).map(row => row.name);
}

/** Axe on the overview, then on the array pages `pages` picks from the listed arrays. */
async function expectPagesWithoutSevereViolations(surface: Surface, scenario: string, style: string,
    pages: (names: string[]) => string[]) {
    const names = await listedArrays(surface);
    await expectNoSevereViolations(surface, scenario, `${style}-overview`);
    for (const name of pages(names)) {
        await showArrayPage(surface, name);
        await expectNoSevereViolations(surface, scenario, `${style}-${name}`);
    }
}

/** What Tab visits from the top of the document, in order: tag, name, position. */
async function tabOrder(page: Page, surface: Surface, limit = 400) {
    await surface.evaluate(() => {
        // From where a document just opened starts: blurring alone is not that once the page changed
        // in place (the overview's link that opened an array's page is gone), as Chromium then starts
        // the next Tab from the removed element's spot. Focusing the body moves that spot to the top.
        const body = document.body;
        body.tabIndex = -1;
        body.focus();
        body.blur();
        body.removeAttribute('tabindex');
        window.scrollTo(0, 0);
    });
    const visited: { key: string; name: string; top: number; left: number; inView: boolean }[] = [];
    for (let i = 0; i < limit; i++) {
        await page.keyboard.press('Tab');
        const focused = await surface.evaluate(() => {
            const el = document.activeElement as HTMLElement | null;
            if (!el || el === document.body) return null;
            const r = el.getBoundingClientRect();
            return {
                key: el.dataset.raidtuneTabKey ?? '',
                name: (el.getAttribute('aria-label') || el.textContent || '').trim(),
                top: r.top + window.scrollY,
                left: r.left,
                inView: r.bottom > 0 && r.top < window.innerHeight && r.width > 0 && r.height > 0,
            };
        });
        if (!focused || (visited.length && focused.key === visited[0].key)) break;
        visited.push(focused);
    }
    return visited;
}

/** Every element that should be reachable by keyboard, in document order; each gets a key. */
async function focusableElements(surface: Surface) {
    return surface.evaluate(() => {
        const selector = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
        return [...document.querySelectorAll<HTMLElement>(selector)]
            .filter(el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
            .map((el, i) => {
                el.dataset.raidtuneTabKey = String(i);
                return { key: String(i), name: (el.getAttribute('aria-label') || el.textContent || '').trim() };
            });
    });
}

/** Tab visits every interactive element (or the first `stops`), each once, in reading order. */
async function expectKeyboardReachable(page: Page, surface: Surface, stops?: number) {
    // The walk checks order, not refresh: with refreshes paused (the page stops them while hidden)
    // no element appears or goes mid-walk, such as a diagnosis fix button on a syncing array.
    await pauseRefreshes(surface);
    try {
        return await keyboardReachable(page, surface, stops);
    } finally {
        await emulateDocumentHidden(surface, false);
    }
}

async function pauseRefreshes(surface: Surface) {
    await emulateDocumentHidden(surface, true);
    // A refresh already under way still renders (under load its read can take seconds).
    await refreshesSettled(surface);
    await surface.evaluate(() => window.scrollTo(0, 0));
}

async function keyboardReachable(page: Page, surface: Surface, stops?: number) {
    const all = await focusableElements(surface);
    const expected = stops === undefined ? all : all.slice(0, stops);
    const visited = await tabOrder(page, surface, stops ?? all.length + 5);
    // Document order = reading order (top to bottom), checked on the positions below.
    expect(visited.map(v => v.key)).toEqual(expected.map(e => e.key));
    for (const v of visited) {
        expect(v.name).not.toBe('');
        expect(v.inView).toBe(true); // focusing scrolls it into view: nothing hidden off-screen
    }
    for (let i = 1; i < visited.length; i++) {
        const [a, b] = [visited[i - 1], visited[i]];
        // Below the previous one, or on the same line to its right.
        expect(b.top > a.top + 8 || (Math.abs(b.top - a.top) <= 24 && b.left > a.left)).toBe(true);
    }
    return visited;
}

// 128 arrays of 16 disks: one axe run on the overview took ~18 s when it held every card, and Tab
// had ~700 stops. The big host is checked once (light, bare page): its overview and the first
// listed array's page, Tab followed through their first 60 stops; its pages are the same
// components the other scenarios check, every array's page, in every theme and in the shell.
const BIG = new Set(['many-arrays']);

describe.each(SCENARIOS)('%s', scenario => {
    const env = setupRaidtune({ scenario, readySelector: '#global-limits, .pf-v6-c-empty-state' });
    const big = BIG.has(scenario);
    const timeout = big ? 120000 : undefined;

    /** The array pages a check covers: every listed array's, the big host's first. */
    const pages = (names: string[]) => (big ? names.slice(0, 1) : names);

    test('axe: no serious or critical violations on the overview and each array\'s page, light and dark', async () => {
        await expectPagesWithoutSevereViolations(env.page, scenario, 'light', pages);
        if (big) return;
        const dark = await env.openPage();
        await chooseStyle(dark.page, 'dark');
        await dark.page.reload();
        await dark.page.waitForSelector('html.pf-v6-theme-dark #global-limits');
        await expectPagesWithoutSevereViolations(dark.page, scenario, 'dark', pages);
    }, timeout);

    if (!big) {
        test('axe in the shell: no serious or critical violations in the plugin frame, on each page', async () => {
            const shell = await env.shellPage();
            await expectPagesWithoutSevereViolations(shell.frame, scenario, 'shell', pages);
        });
    }

    test('keyboard: Tab reaches every interactive element once, in reading order, on each page', async () => {
        const names = await listedArrays(env.page);
        const links = await env.page.locator('a.raidtune-overview-link').count();
        expect(links).toBe(names.length);
        const overview = await expectKeyboardReachable(env.page, env.page, big ? 60 : undefined);
        // At least each listed array's name (a link to its own page) and the limits' "Change…".
        expect(overview.length).toBeGreaterThanOrEqual(big ? 60 : links + 1);
        for (const name of pages(names)) {
            await showArrayPage(env.page, name);
            const visited = await expectKeyboardReachable(env.page, env.page, big ? 60 : undefined);
            // The way back comes first: the breadcrumb's link to the overview.
            expect([name, visited[0]?.name]).toEqual([name, 'RAID tuning']);
        }
    }, timeout);

    if (scenario === 'raid6-recovery') {
        test('the progress bar has a name, a value and a text equivalent that axe accepts', async () => {
            await showArrayPage(env.page, 'md0');
            const bar = env.page.locator('#array-md0 .raidtune-sync [role="progressbar"]');
            await expect(bar.getAttribute('aria-valuenow')).resolves.toMatch(/^\d+(\.\d+)?$/);
            await expect(bar.getAttribute('aria-label')).resolves.toBe('Rebuild progress');
            // The text equivalent next to it: percent, done, speed and estimates in words.
            const facts = await env.page.locator('#array-md0 .raidtune-sync').innerText();
            expect(facts).toMatch(/\d+\.\d%/);
            expect(facts).toMatch(/Done: .* of .* per disk/);
            const violations = await runAxe(env.page);
            expect(violations.filter(v => v.id.startsWith('aria-progressbar') || v.nodes.some(n => n.target.join(' ').includes('progress'))))
                .toEqual([]);
        });

        test('the checks can fail: axe reports a nameless button and an image without text, Tab order a lost element', async () => {
            const page = (await env.openPage()).page;
            await page.waitForSelector('#global-limits');
            await page.evaluate(() => {
                const limits = document.getElementById('global-limits')!;
                const button = document.createElement('button');
                limits.prepend(button);
                const img = document.createElement('img');
                img.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
                limits.prepend(img);
            });
            const ids = severe(await runAxe(page)).map(v => v.id);
            expect(ids).toEqual(expect.arrayContaining(['button-name', 'image-alt']));
            // A focusable element that Tab cannot keep (it drops focus): the order check fails.
            await page.evaluate(() => {
                document.querySelector('#global-limits button')!.remove();
                const link = document.createElement('a');
                link.href = '#';
                link.textContent = 'unreachable';
                link.addEventListener('focus', () => link.blur());
                document.getElementById('global-limits')!.prepend(link);
            });
            await expect(expectKeyboardReachable(page, page)).rejects.toThrow();
        });
    }

    if (big) {
        test('Enter on an array\'s name in the overview opens its page; Enter on the way back opens the overview', async () => {
            await showOverview(env.page);
            const links = env.page.locator('a.raidtune-overview-link');
            const names = await links.allTextContents();
            expect(names.length).toBeGreaterThan(2);
            await links.nth(2).focus();
            await env.page.keyboard.press('Enter');
            const name = names[2];
            await env.page.waitForFunction(n => window.location.hash === `#/${n}`, name);
            // Its page: its card alone, and no overview.
            await arrayCard(env.page, name).locator('h2').waitFor();
            expect(await shownArrays(env.page)).toEqual([name]);
            expect(await env.page.locator('#raidtune-overview').count()).toBe(0);
            // The focus on the new page's heading, as after opening another document: the next Tab
            // reaches the way back, the breadcrumb's link, before the card's actions.
            const focused = () => env.page.evaluate(() => {
                const el = document.activeElement as HTMLElement | null;
                return el ? `${el.tagName} ${el.textContent?.trim()}` : null;
            });
            await env.page.waitForFunction(() => document.activeElement?.tagName === 'H1');
            expect(await focused()).toBe(`H1 RAID tuning: ${name}`);
            await env.page.keyboard.press('Tab');
            expect(await focused()).toBe('A RAID tuning');
            await env.page.keyboard.press('Enter');
            await env.page.waitForFunction(() => window.location.hash === '#/');
            await env.page.locator('#raidtune-overview').waitFor();
            expect(await shownArrays(env.page)).toEqual([]);
            await env.page.waitForFunction(() => document.activeElement?.tagName === 'H1');
            expect(await focused()).toBe('H1 RAID tuning');
        });
    }
});
