// SPDX-License-Identifier: LGPL-2.1-or-later
// Opening the page: once the overview or an array's card shows, nothing arrives above it and moves
// it. The alerts card used to be read after the first model and pushed the cards down a moment
// later, under the admin's pointer: a click meant for "Disk queues…" could land beside it (a CI run
// failed that way). Now the host settings come below the overview, and an array's sync history
// below its card. Chromium's Layout Instability API says what moved, and when.

import type { Page } from 'playwright-core';
import { setupRaidtune } from './harness/env';
import { refreshesSettled } from './harness/raidtunePage';

const env = setupRaidtune({ scenario: 'raid1-healthy', openBarePage: false });

/** The elements layout shifts moved (not after input: the admin's own clicks may move things). */
function movedElements(page: Page): Promise<string[]> {
    return page.evaluate(() => new Promise<string[]>(resolve => {
        const moved: string[] = [];
        const describe = (node: Node | null) => {
            if (!(node instanceof Element)) return String(node?.nodeName ?? 'a removed node');
            return node.tagName.toLowerCase() + (node.id ? `#${node.id}` : '') +
                (node.classList.length ? `.${[...node.classList].join('.')}` : '');
        };
        type LayoutShift = PerformanceEntry & { hadRecentInput: boolean; sources: { node: Node | null }[] };
        const observer = new PerformanceObserver(list => {
            for (const entry of list.getEntries() as LayoutShift[]) {
                if (!entry.hadRecentInput) moved.push(...entry.sources.map(source => describe(source.node)));
            }
        });
        // buffered: the shifts since the page started, delivered in the next task or so.
        observer.observe({ type: 'layout-shift', buffered: true });
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => {
            observer.disconnect();
            resolve(moved);
        }, 200)));
    }));
}

/** Everything the overview reads when it opens is in: the host settings below it (the alerts card
 * among them) and a refresh after the first. */
async function overviewOpened(page: Page): Promise<void> {
    await page.locator('table.raidtune-overview').waitFor();
    await page.locator('#monitor-alerts #alerts-change').waitFor();
    await page.locator('#check-schedule').waitFor();
    await refreshesSettled(page);
}

test('once the overview shows, nothing arrives above it and moves it', async () => {
    const { page } = await env.openPage();
    await overviewOpened(page);
    expect(await movedElements(page)).toEqual([]);
});

// A CI run on a loaded machine saw three things move: PatternFly's faces (font-display: fallback)
// had come after the text was drawn in the system's font, and were swapped in, every line changing
// width. The page now draws once they are in (src/ui/app/pageFonts.ts); here they come 1.5 s late.
test('the faces come late: nothing moves when they come', async () => {
    const { page } = await env.openPage();
    await page.locator('table.raidtune-overview').waitFor();
    await page.context().route('**/*.woff2', async route => {
        await new Promise(resolve => setTimeout(resolve, 1500));
        await route.continue();
    });
    await page.reload();
    await overviewOpened(page);
    expect(await movedElements(page)).toEqual([]);
});

test('once an array\'s card shows on its page, nothing arrives above it and moves it', async () => {
    const { page } = await env.openPage('/cockpit/@localhost/raidtune/index.html#/md0');
    await page.locator('#array-md0').waitFor();
    // What the array's page reads when it opens is in: its sync history (with the monitor's
    // state) below the card, and a refresh after the first.
    await page.locator('#sync-history #history-recording-state').waitFor();
    await refreshesSettled(page);
    expect(await movedElements(page)).toEqual([]);
});
