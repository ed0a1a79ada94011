// What the browser tests read off raidtune's page, and the simulated host's truth to compare with.

import { readFile } from 'node:fs/promises';
import type { Frame, Locator, Page } from 'playwright-core';
import { parseMdstat, type MdstatArray } from '../../../src/md/mdstat';
import type { RaidtuneEnv } from './env';

export type Surface = Page | Frame;

export function arrayCard(surface: Surface, name: string): Locator {
    return surface.locator(`#array-${name}`);
}

/** The percent the array's progress bar shows, as a number. */
export async function shownPercent(surface: Surface, name: string): Promise<number> {
    const text = await arrayCard(surface, name).locator('.pf-v6-c-progress__status .pf-v6-c-progress__measure').innerText();
    return Number(text.replace('%', ''));
}

/** The text of one "Name: value" fact in an array's sync section. */
export async function syncFact(surface: Surface, array: string, name: string): Promise<string> {
    const fact = arrayCard(surface, array).locator('.raidtune-sync-fact', { hasText: new RegExp(`^${name}:`) });
    return (await fact.innerText()).replace(`${name}:`, '').trim();
}

/** Roles column of the members table, keyed by device. */
export async function memberRoles(surface: Surface, name: string): Promise<Record<string, string>> {
    const rows = arrayCard(surface, name).locator('tbody tr[data-member]');
    const roles: Record<string, string> = {};
    for (const row of await rows.all()) {
        roles[(await row.getAttribute('data-member'))!] = (await row.locator('td').nth(1).innerText()).trim();
    }
    return roles;
}

/** The simulated host's /proc/mdstat, parsed: the truth the page must match. */
export async function simMdstat(env: RaidtuneEnv): Promise<Map<string, MdstatArray>> {
    const parsed = parseMdstat(await readFile(env.simPath('/proc/mdstat'), 'utf8'));
    return new Map(parsed.arrays.map(a => [a.name, a]));
}

export async function simValue(env: RaidtuneEnv, path: string): Promise<string> {
    return (await readFile(env.simPath(path), 'utf8')).trim();
}

/** Number of the last refresh the page rendered (src/ui/app/refreshTiming.ts); 0 before the first. */
export function renderedRefreshes(surface: Surface): Promise<number> {
    return surface.evaluate(() => {
        const entries = performance.getEntriesByName('raidtune:render') as PerformanceMeasure[];
        return entries.length ? (entries[entries.length - 1].detail as { seq: number }).seq : 0;
    });
}

/** Resolves after the page has rendered `count` more refreshes. */
export async function waitForRefreshes(surface: Surface, count: number, timeoutMs = 30000): Promise<void> {
    const target = (await renderedRefreshes(surface)) + count;
    const deadline = Date.now() + timeoutMs;
    while ((await renderedRefreshes(surface)) < target) {
        if (Date.now() > deadline) throw new Error(`no ${count} refreshes within ${timeoutMs} ms`);
        await new Promise(resolve => setTimeout(resolve, 100));
    }
}

/** Saves a full-page screenshot under test-results/screenshots/ (for people to look at, and the README). */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}
