// SPDX-License-Identifier: LGPL-2.1-or-later
// In a 768 px window (issue #33 item 11), inside Cockpit's shell: no table, description list or
// card is wider than the room it has, no word is broken across lines, and the sync chart's labels
// keep their 11 px. Each card is checked once scrolled to: a card far off screen is not laid out
// (content-visibility), so there is nothing to measure until a reader comes near it.

import type { Frame } from 'playwright-core';
import { setupRaidtune } from './harness/env';
import { cardInView, saveScreenshot, shownArrays } from './harness/raidtunePage';

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
    const env = setupRaidtune({ scenario, readySelector: '#array-md0, section[id^="array-"]' });

    test('at 768 px nothing is wider than its room, no word is split, chart labels keep their size', async () => {
        const shell = await env.shellPage();
        await shell.page.setViewportSize({ width: 768, height: 900 });
        const { frame } = shell;
        await frame.locator('section[id^="array-"]').first().waitFor();
        // The charts appear from a sync's second sample on.
        if (scenario === 'slow-rebuilds') await frame.locator('.raidtune-chart svg').first().waitFor({ state: 'attached' });
        const problems: string[] = [];
        const labelSizes: number[] = [];
        for (const area of ['.raidtune-overview', '#global-limits']) {
            if (await frame.locator(area).count() === 0) continue;
            await frame.locator(area).first().scrollIntoViewIfNeeded();
            const { overflows, split } = await overflowsAndSplitWords(frame, area);
            problems.push(...overflows.map(o => `${area}: ${o}`), ...split.map(w => `${area}: "${w}" split`));
        }
        for (const name of await shownArrays(frame)) {
            await cardInView(frame, name);
            const { overflows, split } = await overflowsAndSplitWords(frame, `#array-${name}`);
            problems.push(...overflows.map(o => `${name}: ${o}`), ...split.map(w => `${name}: "${w}" split`));
            labelSizes.push(...await chartLabelSizes(frame, name));
        }
        await frame.locator('body').evaluate(() => window.scrollTo(0, 0));
        await saveScreenshot(shell.page, `narrow-768-${scenario}`);
        expect(problems).toEqual([]);
        if (scenario === 'slow-rebuilds') {
            expect(labelSizes.length).toBeGreaterThan(0);
            expect(Math.min(...labelSizes)).toBeGreaterThanOrEqual(10.5);
        }
    });
});
