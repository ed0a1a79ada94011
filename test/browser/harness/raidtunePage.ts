// SPDX-License-Identifier: LGPL-2.1-or-later
// What the browser tests read off raidtune's page, and the simulated host's truth to compare with.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { parseMdstat, type MdstatArray } from '../../../src/md/mdstat';
import type { RaidtuneEnv } from './env';
import { waitBudget } from '../../../tools/cockpit/waitBudget';

export type Surface = Page | Frame;

export function arrayCard(surface: Surface, name: string): Locator {
    return surface.locator(`#array-${name}`);
}

/**
 * One of the array's actions as a user reaches it, on its page: its button on the card, or else its item in the
 * card's "More actions" menu, which this opens (PatternFly puts the open menu at the end of the
 * document, outside the card). An action the page offers only in another state (Resume once a pause
 * shows) is looked for again, with the menu closed in between, until it comes (`timeoutMs`).
 */
export async function arrayAction(surface: Surface, name: string, label: string, timeoutMs = 15000): Promise<Locator> {
    const bar = (await showArrayPage(surface, name)).locator('.raidtune-array-actions');
    await inView(bar);
    const button = bar.getByRole('button', { name: label, exact: true });
    const toggle = bar.getByRole('button', { name: `More actions for ${name}`, exact: true });
    const item = arrayMenu(surface, name).getByRole('menuitem', { name: label, exact: true });
    return waitUntil(`${name}'s action "${label}"`, async () => {
        if (await button.count() > 0) return button;
        if (await toggle.count() === 0) return null;
        if (await toggle.getAttribute('aria-expanded') !== 'true') await toggle.click();
        await arrayMenu(surface, name).getByRole('menuitem').first().waitFor();
        if (await item.count() > 0) return item;
        await toggle.click(); // closed again: the next look sees the page's next state
        await arrayMenu(surface, name).waitFor({ state: 'detached' });
        return null;
    }, timeoutMs);
}

/** The array's open menu of actions. */
export function arrayMenu(surface: Surface, name: string): Locator {
    return surface.locator(`.raidtune-array-menu[data-array="${name}"]`);
}

/** The labels of the array's action buttons and, opening its menu and closing it again, the menu's items. */
export async function arrayActionLabels(surface: Surface, name: string):
    Promise<{ buttons: string[]; menu: string[] }> {
    const bar = (await showArrayPage(surface, name)).locator('.raidtune-array-actions');
    await inView(bar);
    const toggle = bar.getByRole('button', { name: `More actions for ${name}`, exact: true });
    const buttons = (await bar.locator('button').allInnerTexts()).map(t => t.trim()).filter(t => t !== '');
    if (await toggle.count() === 0) return { buttons, menu: [] };
    await toggle.click();
    const items = arrayMenu(surface, name).getByRole('menuitem');
    await items.first().waitFor();
    const menu = (await items.allInnerTexts()).map(t => t.trim());
    await toggle.click();
    await items.first().waitFor({ state: 'detached' });
    return { buttons, menu };
}

/**
 * An array's own page (#/md0), opened as its link in the overview opens it (the address's fragment
 * changes, the page does not reload) unless it is the one shown; resolved once its card is there.
 */
export async function showArrayPage(surface: Surface, name: string, timeoutMs?: number): Promise<Locator> {
    const fragment = `#/${encodeURIComponent(name)}`;
    if (await surface.evaluate(() => window.location.hash) !== fragment)
        await surface.evaluate(hash => { window.location.hash = hash; }, fragment);
    const card = arrayCard(surface, name);
    await card.locator('h2').waitFor({ state: 'visible', timeout: timeoutMs });
    return card;
}

/** The overview (#/), reached as the array page's way back reaches it; resolved once it shows. */
export async function showOverview(surface: Surface): Promise<void> {
    if (await surface.evaluate(() => window.location.hash) !== '#/')
        await surface.evaluate(() => { window.location.hash = '#/'; });
    await surface.locator('#raidtune-overview, .pf-v6-c-empty-state').first().waitFor({ state: 'visible' });
}

/**
 * A host setting's line on the overview (`global-limits`, `monitor-alerts`…) with its details shown,
 * as an admin opens them with the line's toggle: collapsed at first, they stay open once opened.
 */
export async function settingDetails(surface: Surface, id: string): Promise<Locator> {
    await showOverview(surface);
    const line = surface.locator(`#${id}`);
    const toggle = line.locator(`#${id}-toggle`);
    if (await toggle.getAttribute('aria-expanded') !== 'true') await toggle.click();
    await line.locator(`#${id}-details`).waitFor({ state: 'visible' });
    return line;
}

/** The array's card on its own page (showArrayPage), scrolled to its top as a reader would. */
export async function cardInView(surface: Surface, name: string): Promise<Locator> {
    const card = await showArrayPage(surface, name);
    await inView(card.locator('h2'));
    return card;
}

/** Scrolled to, and laid out (the browser renders a card that came into view at its next frame). */
export async function inView(element: Locator): Promise<Locator> {
    await element.scrollIntoViewIfNeeded();
    await element.waitFor({ state: 'visible' });
    return element;
}

/** The percent the array's progress bar shows, as a number. */
export async function shownPercent(surface: Surface, name: string): Promise<number> {
    const card = await cardInView(surface, name);
    const measure = await inView(card.locator('.raidtune-sync .pf-v6-c-progress__status .pf-v6-c-progress__measure'));
    return Number((await measure.innerText()).replace('%', ''));
}

/** The text of one "Name: value" fact in an array's sync section. */
export async function syncFact(surface: Surface, array: string, name: string): Promise<string> {
    const fact = (await cardInView(surface, array)).locator('.raidtune-sync-fact', { hasText: new RegExp(`^${name}:`) });
    return (await fact.innerText()).replace(`${name}:`, '').trim();
}

/**
 * The members table of an array's card, found by its own class: a card holds other tables (the
 * what-if table of the diagnosis, from the page's second sample of a sync on). Not by its label,
 * which is translated.
 */
export function membersTable(card: Locator): Locator {
    return card.locator('table.raidtune-members');
}

/** Roles column of the members table, keyed by device. */
export async function memberRoles(surface: Surface, name: string): Promise<Record<string, string>> {
    const rows = membersTable(await cardInView(surface, name)).locator('tbody tr[data-member]');
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

/** The by-path name the simulated udev gave a disk: ID_PATH in its database file, found by its number. */
export async function simIdPath(env: RaidtuneEnv, disk: string): Promise<string> {
    const number = await simValue(env, `/sys/block/${disk}/dev`);
    const record = await readFile(join(env.sim.root, 'run/udev/data', `b${number}`), 'utf8');
    const path = /^E:ID_PATH=(.+)$/m.exec(record)?.[1];
    if (!path) throw new Error(`the simulated udev gave ${disk} (${number}) no ID_PATH`);
    return path;
}

/** Number of the last refresh the page rendered (src/ui/app/refreshTiming.ts); 0 before the first. */
export function renderedRefreshes(surface: Surface): Promise<number> {
    return surface.evaluate(() => {
        const entries = performance.getEntriesByName('raidtune:render') as PerformanceMeasure[];
        return entries.length ? (entries[entries.length - 1].detail as { seq: number }).seq : 0;
    });
}

/**
 * Resolves once no refresh is under way: the last one that started has rendered. With refreshes
 * stopped (a hidden page), the page then stays as it is.
 */
export async function refreshesSettled(surface: Surface, timeoutMs = waitBudget(30000)): Promise<void> {
    await surface.waitForFunction(() => {
        const starts = performance.getEntriesByName('raidtune:refresh-start') as PerformanceMark[];
        const renders = performance.getEntriesByName('raidtune:render') as PerformanceMeasure[];
        const started = starts.length ? (starts[starts.length - 1].detail as { seq: number }).seq : 0;
        const rendered = renders.length ? (renders[renders.length - 1].detail as { seq: number }).seq : 0;
        return started === rendered;
    }, undefined, { timeout: timeoutMs });
}

/**
 * How long the page may take to read the host again: its refresh interval while nothing syncs
 * (src/ui/app/useHostModel.ts IDLE_INTERVAL_MS, 10 s), the read itself, and room for a busy machine.
 * A bound on waiting for an event, not a figure the page is held to.
 */
const NEXT_READ_MS = waitBudget(40000);

/**
 * Resolves once the page has rendered a read of the host that began after this call (a full read,
 * when `full`: what only full reads take, src/md/modelBuilder.ts). For a change made behind the
 * page's back (the kernel, a shell): once the simulated host holds it, the first such read must
 * show it. Waiting for that read, not for a time, holds whatever the page's refresh interval is.
 */
export async function nextReadRendered(surface: Surface, { full = false } = {}): Promise<void> {
    const since = await pageNow(surface);
    await surface.waitForFunction(({ since, full }) => {
        const renders = performance.getEntriesByName('raidtune:render') as PerformanceMeasure[];
        const rendered = renders.length ? (renders[renders.length - 1].detail as { seq: number }).seq : 0;
        return (performance.getEntriesByName('raidtune:refresh') as PerformanceMeasure[]).some(read => {
            const { seq, full: wasFull } = read.detail as { seq: number; full: boolean };
            return read.startTime >= since && (wasFull || !full) && rendered >= seq;
        });
    }, { since, full }, { timeout: NEXT_READ_MS, polling: 100 });
}

/** Resolves after the page has rendered `count` more refreshes. */
export async function waitForRefreshes(surface: Surface, count: number, timeoutMs = waitBudget(30000)): Promise<void> {
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

/**
 * An array card's "Term: value" facts (Size, Disks, Kernel state, Bitmap, Mismatches...), read in one go: its
 * own list, not the layout advice's (which has a Chunk size too).
 */
export async function cardFacts(surface: Surface, name: string): Promise<Record<string, string>> {
    const pairs = await (await cardInView(surface, name)).locator('.raidtune-array-facts .pf-v6-c-description-list__group').evaluateAll(groups =>
        groups.map(g => [g.querySelector('.pf-v6-c-description-list__term'), g.querySelector('.pf-v6-c-description-list__description')]
            .map(e => (e as HTMLElement | null)?.innerText.trim() ?? '')));
    return Object.fromEntries(pairs);
}

/** The health label in an array card's header ("Clean", "Degraded", ...). */
export async function healthText(surface: Surface, name: string): Promise<string> {
    return (await (await cardInView(surface, name)).locator('.raidtune-health').innerText()).trim();
}

/** The members table as the user reads it, one entry per row (empty slots included), read in one go. */
export async function memberRows(surface: Surface,
    name: string): Promise<{ device: string; role: string; state: string; errors: string }[]> {
    const rows = await membersTable(await cardInView(surface, name)).locator('tbody tr').evaluateAll(trs =>
        trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.innerText.trim())));
    return rows.map(cells => ({ device: cells[0], role: cells[1], state: cells[2], errors: cells[3] }));
}

/** The sync section of an array card (progress, explanation, facts); absent when nothing syncs. */
export function syncSection(surface: Surface, name: string): Locator {
    return arrayCard(surface, name).locator('.raidtune-sync');
}

/** The progress bar's title ("Resync", "Reshape from 3 to 4 disks", ...). */
export async function syncTitle(surface: Surface, name: string): Promise<string> {
    return (await syncSection(surface, name).locator('.pf-v6-c-progress__description').innerText()).trim();
}

/** The sentence explaining a sync that does not run (delayed, pending, frozen); null when none. */
export async function syncExplanation(surface: Surface, name: string): Promise<string | null> {
    // Read where a reader looks: a card out of view has no innerText (cardInView). One read (no
    // count-then-read): the alert may go away between two calls when the sync resumes.
    const card = await cardInView(surface, name);
    // The explanation's own alert: a stalled sync's warning is in the same section.
    const titles = await card.locator('.raidtune-sync .raidtune-sync-explanation .pf-v6-c-alert__title').evaluateAll(els =>
        els.map(e => (e as HTMLElement).innerText));
    return titles.length ? titles[0].replace(/^Info alert:\s*/, '').trim() : null;
}

/** The sync section's whole text, or null when the card has none (does not wait for it). */
export async function syncSectionText(surface: Surface, name: string): Promise<string | null> {
    const texts = await syncSection(surface, name).evaluateAll(els => els.map(e => (e as HTMLElement).innerText));
    return texts[0] ?? null;
}

/** Names of the arrays whose cards the page shows, in page order. */
export async function shownArrays(surface: Surface): Promise<string[]> {
    const ids = await surface.locator('section[id^="array-"]').evaluateAll(els => els.map(e => e.id));
    return ids.map(id => id.replace(/^array-/, ''));
}

/** Texts of the page's warning alerts (configuration and host problems). */
export async function warningAlerts(surface: Surface): Promise<string[]> {
    const titles = await surface.locator('.pf-v6-c-alert.pf-m-warning .pf-v6-c-alert__title').allInnerTexts();
    return titles.map(t => t.replace(/^Warning alert:\s*/, '').trim());
}

/** The simulated host's value of a sysctl or attribute as a number. */
export async function simNumber(env: RaidtuneEnv, path: string): Promise<number> {
    const text = await simValue(env, path);
    const n = Number(text.split(/\s/)[0]);
    if (!Number.isFinite(n)) throw new Error(`${path}: not a number: ${JSON.stringify(text)}`);
    return n;
}

/**
 * Polls `probe` until it returns a truthy value, or throws with the last value after `quietMs`
 * (the wait on an idle machine; waitBudget grows it for make check's lanes).
 */
export async function waitUntil<T>(what: string, probe: () => Promise<T | null | undefined | false>, quietMs = 15000,
    intervalMs = 200): Promise<T> {
    const timeoutMs = waitBudget(quietMs);
    const deadline = Date.now() + timeoutMs;
    let last: T | null | undefined | false;
    for (;;) {
        last = await probe();
        if (last) return last;
        if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (last: ${JSON.stringify(last)})`);
        await new Promise(resolve => setTimeout(resolve, intervalMs));
    }
}

/**
 * A value the page shows, bracketed by the simulated host's value read just before and just after.
 * Waits for two refreshes in between, so the shown value comes from a read that started after
 * `before` was taken (refreshes run one after the other, at least 2 s apart). For values that only
 * grow (progress, counters): the page is right when before <= shown <= after.
 */
export async function shownBetweenSimReads<T>(surface: Surface, readSim: () => Promise<T>, readPage: () => Promise<T>):
    Promise<{ before: T; shown: T; after: T }> {
    const before = await readSim();
    await waitForRefreshes(surface, 2);
    const shown = await readPage();
    const after = await readSim();
    return { before, shown, after };
}

/** shownBetweenSimReads for the progress percent of array `name` (from the simulated mdstat). */
export function shownPercentBetweenSimReads(env: RaidtuneEnv, surface: Surface, name: string):
    Promise<{ before: number; shown: number; after: number }> {
    return shownBetweenSimReads(surface, async () => {
        const percent = (await simMdstat(env)).get(name)?.sync?.percent;
        if (percent === null || percent === undefined) throw new Error(`${name}: no sync percent in the simulated mdstat`);
        return percent;
    }, () => shownPercent(surface, name));
}

/** Start times (the page's performance.now() clock) of the refreshes the page recorded. */
export function refreshStarts(surface: Surface): Promise<number[]> {
    return surface.evaluate(() =>
        (performance.getEntriesByName('raidtune:refresh') as PerformanceMeasure[]).map(e => e.startTime));
}

/** The page's performance.now(): the clock of refreshStarts(). */
export function pageNow(surface: Surface): Promise<number> {
    return surface.evaluate(() => performance.now());
}

/**
 * Makes the document report itself hidden (or visible again) and fires visibilitychange, as the
 * browser does when the tab goes to the background. Headless Chromium keeps every tab visible
 * (bringToFront, a minimized window and Page.setWebLifecycleState leave visibilityState alone),
 * so this is an emulation of the document's side only; cockpit.js follows it like a real change.
 */
export async function emulateDocumentHidden(surface: Surface, hidden: boolean): Promise<void> {
    await surface.evaluate(isHidden => {
        if (isHidden) {
            Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
            Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
        } else {
            // Drop the overrides: the prototype's real getters apply again.
            delete (document as { visibilityState?: unknown }).visibilityState;
            delete (document as { hidden?: unknown }).hidden;
        }
        document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);
}

/** The open change dialog. */
export function changeDialog(surface: Surface): Locator {
    return surface.getByRole('dialog');
}

/**
 * Clicks `opener` and returns the dialog it opens once that is there. A dialog's code comes in a
 * chunk of its own, so on a busy machine it can appear a moment after the click returns; what a
 * test then counts or checks must not run before it.
 */
export async function openDialog(opener: Locator): Promise<Locator> {
    await opener.click();
    const dialog = changeDialog(opener.page());
    await dialog.waitFor();
    return dialog;
}

/** Opens one of the array's change dialogs through its button or its menu, as a user does. */
export async function openArrayDialog(surface: Surface, name: string, label: string): Promise<Locator> {
    return openDialog(await arrayAction(surface, name, label));
}

/**
 * Hovers `control` and waits for its tooltip to say `text`. The mouse leaves first and the tooltip
 * an earlier hover left is waited out: PatternFly keeps it a moment after the mouse goes, and the
 * same text on two controls would otherwise be found on the wrong one (or on both at once).
 */
export async function waitForTooltip(control: Locator, text: string): Promise<void> {
    const page = control.page();
    await page.mouse.move(0, 0);
    await page.getByRole('tooltip').waitFor({ state: 'detached' });
    await control.hover();
    await page.getByRole('tooltip').getByText(text).waitFor();
}

/**
 * A plan's outcome when it wrote kernel values (they were read back), and when it only wrote files or
 * ran commands: "Done." alone (the alert's title also holds its screen-reader prefix, so not an exact text).
 */
export const KERNEL_DONE = 'Done. The values were read back from the kernel.';
export const FILES_DONE = /(^|:)Done\.$/;

/** A button in the change dialog's footer (Apply, Cancel, Close, Restore...). */
export function dialogButton(surface: Surface, name: string): Locator {
    return changeDialog(surface).locator('.pf-v6-c-modal-box__footer').getByRole('button', { name, exact: true });
}

/** Applies the open dialog with its `label` button, waits for "Done." and closes it. */
export async function applyAndClose(page: Page, label: string): Promise<void> {
    await dialogButton(page, label).click();
    await changeDialog(page).getByText('Done.', { exact: false }).waitFor();
    await dialogButton(page, 'Close').click();
    await changeDialog(page).waitFor({ state: 'detached' });
}

/**
 * Opens a fix's dialog with `opener`, and applies it only if it previews exactly `commands` (the
 * test fails on anything else, nothing applied); then waits for the kernel's read-back and closes it.
 */
export async function applyPreviewedFix(surface: Surface, opener: Locator, commands: string): Promise<void> {
    await opener.click();
    const previewed = await changeDialog(surface).locator('.raidtune-commands').innerText();
    if (previewed !== commands) throw new Error(`the dialog previews\n${previewed}\ninstead of\n${commands}`);
    await dialogButton(surface, 'Apply').click();
    await changeDialog(surface).getByText(KERNEL_DONE).waitFor();
    await dialogButton(surface, 'Close').click();
}

/** Before each test: close a dialog a failed test left open, so it does not take the next one down. */
export async function closeLeftoverDialog(page: Page): Promise<void> {
    if (await changeDialog(page).count()) await page.keyboard.press('Escape');
    await changeDialog(page).waitFor({ state: 'detached' });
}

/** The overview's row of an array (its table's own class, the row's data-array), not a card's table. */
export function overviewRow(surface: Surface, name: string): Locator {
    return surface.locator(`table.raidtune-overview tr[data-array="${name}"]`);
}

export interface OverviewRowText {
    name: string;
    severity: string;
    /** danger, warning or none: how the row is marked. */
    mark: string;
    /** md's state words under the name ("clean, degraded, recovering"). */
    state: string;
    redundancy: string;
    /** The redundancy is a PatternFly status label of this kind (danger, warning), or null for plain text. */
    redundancyLabel: string | null;
    operation: string;
    estimate: string;
}

/** The overview's rows as the user reads them, in page order, read in one go. */
export async function overviewRowTexts(surface: Surface): Promise<OverviewRowText[]> {
    return surface.locator('table.raidtune-overview tr[data-array]').evaluateAll(rows => rows.map(row => {
        const text = (selector: string) => (row.querySelector(selector) as HTMLElement | null)?.innerText.trim() ?? '';
        const label = row.querySelector('.raidtune-overview-redundancy.pf-v6-c-label');
        return {
            name: row.getAttribute('data-array') ?? '',
            severity: row.getAttribute('data-severity') ?? '',
            mark: row.getAttribute('data-mark') ?? '',
            state: text('.raidtune-overview-state'),
            redundancy: text('.raidtune-overview-redundancy'),
            redundancyLabel: label ? (['danger', 'warning'].find(s => label.classList.contains(`pf-m-${s}`)) ?? 'other') : null,
            operation: text('.raidtune-overview-operation').replace(/\s+/g, ' '),
            estimate: text('.raidtune-overview-estimate'),
        };
    }));
}

/** The element lies wholly inside the browser window as it stands (no scrolling), a frame's too. */
export async function withinWindow(page: Page, element: Locator): Promise<boolean> {
    const box = await element.boundingBox();
    const size = page.viewportSize();
    if (!box || !size) return false;
    return box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height;
}
