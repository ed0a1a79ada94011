// SPDX-License-Identifier: LGPL-2.1-or-later
// 128 RAID6 arrays of 16 SAS disks (2048 disks, ~26k files): every array gets its card, the
// number of degraded / recovering / resyncing / checking / paused cards is what the kernel's mdstat
// says, and a refresh updates the page in place (same elements, same scroll position). A syncing
// card far off screen may let its progress lag a few refreshes; one in view never does.

import { setupRaidtune } from '../harness/env';
import { OFFSCREEN_REFRESH_EVERY } from '../../../src/ui/arrays/cardFreshness';
import {
    arrayCard, cardIsCurrent, overviewRowTexts, shownArrays, shownPercentBetweenSimReads, simMdstat, simValue,
    saveScreenshot, syncExplanation, waitForRefreshes, withinWindow,
} from '../harness/raidtunePage';
import type { Surface } from '../harness/raidtunePage';

// The simulator needs several seconds to lay out 26k files, and a refresh reads all of them.
const env = setupRaidtune({ scenario: 'many-arrays', readySelector: '#array-md0' });
jest.setTimeout(90000);

const PAUSED = 'Paused (frozen): the sync makes no progress until it is resumed.';

/** Per card: health label, progress title (or null) and explanation (or null), read in one pass. */
function cardSummaries(surface: Surface) {
    return surface.evaluate(() => [...document.querySelectorAll('section[id^="array-"]')].map(card => ({
        name: card.id.replace(/^array-/, ''),
        health: card.querySelector('.raidtune-health')?.textContent?.trim() ?? null,
        sync: card.querySelector('.raidtune-sync .pf-v6-c-progress__description')?.textContent?.trim() ?? null,
        explanation: card.querySelector('.raidtune-sync .raidtune-sync-explanation .pf-v6-c-alert__title')?.textContent?.replace(/^Info alert:\s*/, '').trim() ?? null,
    })));
}

test('shows a card for every array in mdstat, the ones in trouble first as the overview lists them', async () => {
    const truth = await simMdstat(env);
    expect(truth.size).toBe(128);
    await env.page.waitForFunction(n => document.querySelectorAll('section[id^="array-"]').length === n, truth.size);
    const shown = await shownArrays(env.page);
    expect([...shown].sort()).toEqual([...truth.keys()].sort());
    // The overview lists every array that is not healthy and idle, worst first; the cards follow
    // its order, then the idle arrays by name (md9 before md10).
    const listed = (await overviewRowTexts(env.page)).map(row => row.name);
    expect(listed.length).toBe([...truth.values()].filter(a => a.sync !== null || a.status!.includes('_')).length);
    expect(shown.slice(0, listed.length)).toEqual(listed);
    const idle = shown.slice(listed.length).map(name => Number(name.replace(/^md/, '')));
    expect(idle).toEqual([...idle].sort((a, b) => a - b));
    expect(await env.page.locator('.raidtune-overview-healthy').innerText()).toContain(`${idle.length} more arrays are healthy and idle.`);
});

test('inside the shell at 1280x720 the first array that needs attention is on the first screen', async () => {
    const shell = await env.shellPage();
    await shell.page.setViewportSize({ width: 1280, height: 720 });
    const first = shell.frame.locator('table.raidtune-overview tr[data-array]').first();
    await first.waitFor();
    await saveScreenshot(shell.page, 'overview-many-arrays-1280x720');
    expect(await withinWindow(shell.page, first)).toBe(true);
    const [row] = await overviewRowTexts(shell.frame);
    // A RAID 6 that lost a disk comes before any resync or check.
    expect(row.severity).toBe('degraded');
    expect((await simMdstat(env)).get(row.name)!.status).toContain('_');
    expect(row.redundancy).toBe('Survives 1 more failure');
});

test('as many degraded, recovering, resyncing, checking and paused cards as the kernel has', async () => {
    const truth = [...(await simMdstat(env)).values()];
    const frozen = new Set<string>();
    for (const a of truth)
        if (a.sync?.state === 'pending' && await simValue(env, `/sys/block/${a.name}/md/sync_action`) === 'frozen') frozen.add(a.name);
    const count = <T>(items: T[], pred: (item: T) => boolean) => items.filter(pred).length;
    const expected = {
        degraded: count(truth, a => a.status!.includes('_')),
        recovery: count(truth, a => a.sync?.action === 'recovery' && a.sync.state === 'running'),
        resync: count(truth, a => a.sync?.action === 'resync' && a.sync.state === 'running'),
        check: count(truth, a => a.sync?.action === 'check' && a.sync.state === 'running'),
        paused: frozen.size,
        idle: count(truth, a => a.sync === null),
    };
    // The scenario's mix (guards against a scenario that would make the counts trivial).
    expect(expected).toEqual({ degraded: 12, recovery: 10, resync: 8, check: 6, paused: 2, idle: 102 });

    const cards = await cardSummaries(env.page);
    const running = (title: string) => (c: (typeof cards)[number]) => c.sync === title && c.explanation === null;
    expect({
        degraded: count(cards, c => c.health === 'Degraded'),
        recovery: count(cards, running('Rebuild')),
        resync: count(cards, running('Resync')),
        check: count(cards, running('Check')),
        paused: count(cards, c => c.explanation === PAUSED),
        idle: count(cards, c => c.sync === null),
    }).toEqual(expected);
    // And they are the same arrays, not just the same numbers.
    expect(cards.filter(c => c.explanation === PAUSED).map(c => c.name).sort()).toEqual([...frozen].sort());
    expect(cards.filter(c => c.health === 'Degraded').map(c => c.name).sort())
        .toEqual(truth.filter(a => a.status!.includes('_')).map(a => a.name).sort());
    expect(count(cards, c => c.health === 'Clean')).toBe(128 - expected.degraded);
    expect(await syncExplanation(env.page, [...frozen][0])).toBe(PAUSED);
});

test('a refresh far down the page keeps what is on screen in place, and the elements', async () => {
    // Scroll to a card near the end of the list.
    const names = await shownArrays(env.page);
    const target = names[Math.floor(names.length * 0.8)];
    await arrayCard(env.page, target).scrollIntoViewIfNeeded();
    await env.page.evaluate(() => window.scrollBy(0, 100));
    const scrollY = await env.page.evaluate(() => window.scrollY);
    expect(scrollY).toBeGreaterThan(50000);
    // What the reader sees: where the card stands in the window. Cards above may grow meanwhile (a
    // sync's chart and diagnosis appear after a few samples); the browser's scroll anchoring then
    // moves scrollY so that what is on screen stays put.
    const onScreen = () => arrayCard(env.page, target).evaluate(el => Math.round(el.getBoundingClientRect().top));
    const top = await onScreen();

    // Mark a few elements: React must update them in place, not replace them.
    const marked = [names[0], target, names[names.length - 1]];
    await env.page.evaluate(ids => {
        for (const id of ids) {
            const card = document.getElementById(`array-${id}`) as HTMLElement & { marker?: string };
            card.marker = id;
            // A member's row, by its table's own class (the what-if table may come and go above it).
            (card.querySelector('table.raidtune-members tbody tr') as HTMLElement & { marker?: string }).marker = `${id}-row`;
        }
    }, marked);

    await waitForRefreshes(env.page, 2, 30000);

    expect(Math.abs(await onScreen() - top)).toBeLessThanOrEqual(2);
    const markers = await env.page.evaluate(ids => ids.map(id => {
        const card = document.getElementById(`array-${id}`) as (HTMLElement & { marker?: string }) | null;
        const row = card?.querySelector('table.raidtune-members tbody tr') as (HTMLElement & { marker?: string }) | null;
        return [card?.marker, row?.marker];
    }), marked);
    expect(markers).toEqual(marked.map(id => [id, `${id}-row`]));
});

test('a syncing card far off screen lags a few refreshes at most, one in view never, and scrolled to it is current', async () => {
    // The first and last running sync in page order (the cards come worst first, not in mdstat's order).
    const truth = await simMdstat(env);
    const running = (await shownArrays(env.page)).filter(name => truth.get(name)?.sync?.state === 'running');
    const [inView, farOff] = [running[0], running[running.length - 1]];
    await env.page.evaluate(name => document.getElementById(`array-${name}`)!.scrollIntoView({ block: 'start' }), inView);
    await waitForRefreshes(env.page, 1);
    const lagging: [boolean, boolean][] = [];
    for (let i = 0; i < 3 * OFFSCREEN_REFRESH_EVERY; i++) {
        await waitForRefreshes(env.page, 1);
        lagging.push([
            !await cardIsCurrent(arrayCard(env.page, inView)), !await cardIsCurrent(arrayCard(env.page, farOff)),
        ]);
    }
    expect(lagging.filter(([near]) => near)).toEqual([]);
    const farLags = lagging.map(([, far]) => far);
    expect(farLags).toContain(true);
    // Refreshes in a row it showed an older one: at most every one but the fifth.
    const lagRuns = farLags.map(lag => (lag ? 'x' : '.')).join('').split('.').map(run => run.length);
    expect(Math.max(...lagRuns)).toBeLessThanOrEqual(OFFSCREEN_REFRESH_EVERY - 1);

    const { before, shown, after } = await shownPercentBetweenSimReads(env, env.page, farOff);
    expect(shown).toBeGreaterThanOrEqual(before);
    expect(shown).toBeLessThanOrEqual(after);
});
