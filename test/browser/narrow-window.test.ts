// SPDX-License-Identifier: LGPL-2.1-or-later
// In a 768 px window (issue #33 item 11), inside Cockpit's shell: no table, description list or
// card is wider than the room it has, no word is broken across lines, and the sync chart's labels
// keep their 11 px: on the overview with the host settings below it, and on each array's own page.

import type { Frame } from 'playwright-core';
import { setupRaidtune } from './harness/env';
import { cardInView, overviewRowTexts, saveScreenshot } from './harness/raidtunePage';

/** What sticks out of its box, and the words split over two lines, inside `selector`. */
function overflowsAndSplitWords(frame: Frame, selector: string) {
    return frame.evaluate(sel => {
        const root = document.querySelector(sel)!;
        const room = document.documentElement.clientWidth;
        const describe = (el: Element) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
        const overflows = [...root.querySelectorAll('table, dl, .pf-v6-c-card, .raidtune-chart')]
            .filter(el => (el as HTMLElement).scrollWidth > (el as HTMLElement).clientWidth + 1 ||
                el.getBoundingClientRect().right > room + 1)
            .map(el => `${describe(el)}: ${(el as HTMLElement).scrollWidth} px in ${(el as HTMLElement).clientWidth}`);
        const split: string[] = [];
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent ?? '';
            for (const match of text.matchAll(/\S{2,}/g)) {
                const range = document.createRange();
                range.setStart(node, match.index!);
                range.setEnd(node, match.index! + match[0].length);
                const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
                if (tops.size > 1) split.push(match[0]);
            }
        }
        return { overflows, split };
    }, selector);
}

/** Each chart label's size on screen in a card: its font size times the drawing's scale. */
function chartLabelSizes(frame: Frame, name: string): Promise<number[]> {
    return frame.evaluate(n => [...document.querySelectorAll(`#array-${n} .raidtune-chart svg`)].flatMap(svg => {
        const scale = svg.getBoundingClientRect().width / (svg as SVGSVGElement).viewBox.baseVal.width;
        return [...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize) * scale);
    }), name);
}

describe.each(['slow-rebuilds', 'degraded-failed'])('%s', scenario => {
    const env = setupRaidtune({ scenario, readySelector: 'table.raidtune-overview' });

    test('at 768 px nothing is wider than its room, no word is split, chart labels keep their size', async () => {
        const shell = await env.shellPage();
        await shell.page.setViewportSize({ width: 768, height: 900 });
        const { frame } = shell;
        await frame.locator('table.raidtune-overview').waitFor();
        // The host settings come a moment after the overview.
        await frame.locator('#global-limits').waitFor();
        const problems: string[] = [];
        const labelSizes: number[] = [];
        for (const area of ['.raidtune-overview', '#global-limits']) {
            await frame.locator(area).first().scrollIntoViewIfNeeded();
            const { overflows, split } = await overflowsAndSplitWords(frame, area);
            problems.push(...overflows.map(o => `${area}: ${o}`), ...split.map(w => `${area}: "${w}" split`));
        }
        await frame.locator('body').evaluate(() => window.scrollTo(0, 0));
        await saveScreenshot(shell.page, `narrow-768-${scenario}`);
        const names = (await overviewRowTexts(frame)).map(row => row.name);
        expect(names.length).toBeGreaterThan(0);
        for (const name of names) {
            await cardInView(frame, name);
            // The charts appear from a sync's second sample on: md0 of slow-rebuilds rebuilds.
            if (scenario === 'slow-rebuilds' && name === 'md0')
                await frame.locator('#array-md0 .raidtune-chart svg').first().waitFor({ state: 'attached' });
            const { overflows, split } = await overflowsAndSplitWords(frame, `#array-${name}`);
            problems.push(...overflows.map(o => `${name}: ${o}`), ...split.map(w => `${name}: "${w}" split`));
            labelSizes.push(...await chartLabelSizes(frame, name));
        }
        expect(problems).toEqual([]);
        if (scenario === 'slow-rebuilds') {
            expect(labelSizes.length).toBeGreaterThan(0);
            expect(Math.min(...labelSizes)).toBeGreaterThanOrEqual(10.5);
        }
    });
});
