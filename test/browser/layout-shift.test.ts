// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #33 item 7: the page does not jump while its parts arrive. On an array's own page (#/md0)
// the chart and the diagnosis fill in as samples come (the first 10 s only gather data), and their
// space is there from the first frame; on the overview (#/) the host settings come a moment after
// the arrays' table, below it. Over the first 30 s on raid6-recovery at 1280x720 the cumulative
// layout shift (the browser's Layout Instability API, shifts without user input) stays under 0.05,
// half of what Web Vitals calls good. Measured from the page's navigation, not from when the test looks.
import { setupRaidtune } from './harness/env';

const env = setupRaidtune({ scenario: 'raid6-recovery', arrayPage: 'md0' });

const OBSERVED_MS = 30000;
const MOST = 0.05;

interface Shift { value: number; at: number; moved: string[] }

const BARE = '/cockpit/@localhost/raidtune/index.html';

test.each([
    { where: 'md0\'s page', address: '#/md0', shown: '#array-md0' },
    { where: 'the overview', address: '#/', shown: '#raidtune-overview' },
])(`the first ${OBSERVED_MS / 1000} s of $where on raid6-recovery: cumulative layout shift under ${MOST}`, async ({ where, address, shown }) => {
    const { page } = await env.openPage(`${BARE}${address}`);
    expect(page.viewportSize()).toEqual({ width: 1280, height: 720 });
    await page.locator(shown).waitFor();
    // A window of time is what is measured here: nothing to wait for but its end.
    const sinceNavigation = await page.evaluate(() => performance.now());
    await page.waitForTimeout(Math.max(0, OBSERVED_MS - sinceNavigation));
    // Layout shifts are buffered from the navigation on: an observer registered now gets them all.
    const shifts = await page.evaluate(() => new Promise<Shift[]>(resolve => {
        const describe = (node: Node | null) => {
            const el = node as HTMLElement | null;
            if (!el?.tagName) return String(node?.nodeName ?? 'gone');
            const classes = [...el.classList].slice(0, 2).map(c => `.${c}`).join('');
            return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${classes}`;
        };
        new PerformanceObserver(list => {
            type LayoutShift = PerformanceEntry & {
                value: number; hadRecentInput: boolean; sources: { node: Node | null }[];
            };
            const shifts = (list.getEntries() as LayoutShift[]).filter(e => !e.hadRecentInput);
            resolve(shifts.map(e => ({
                value: e.value, at: Math.round(e.startTime), moved: e.sources.map(s => describe(s.node)),
            })));
        }).observe({ type: 'layout-shift', buffered: true });
        // No entry at all: the observer is never called.
        setTimeout(() => resolve([]), 1000);
    }));
    const total = shifts.reduce((sum, s) => sum + s.value, 0);
    const report = shifts.map(s => `${s.value.toFixed(4)} at ${s.at} ms: ${s.moved.join(', ')}`).join('\n');
    process.stderr.write(`raidtune layout shift of ${where} over ${OBSERVED_MS / 1000} s: ${total.toFixed(4)} (${shifts.length} shifts)\n`);
    if (total >= MOST) throw new Error(`cumulative layout shift ${total.toFixed(4)}, not under ${MOST}:\n${report}`);
    expect(total).toBeLessThan(MOST);
});
