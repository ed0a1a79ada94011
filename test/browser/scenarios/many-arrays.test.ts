// SPDX-License-Identifier: LGPL-2.1-or-later
// 128 RAID6 arrays of 16 SAS disks (2048 disks, ~26k files): the overview lists every array, the
// ones in trouble first; the number of degraded / rebuilding / resyncing / checking / paused rows is
// what the kernel's mdstat says; a refresh updates the overview in place (same elements, same
// scroll position); an array's own page shows its sync as the kernel has it.

import { setupRaidtune } from '../harness/env';
import {
    overviewRow, overviewRowTexts, saveScreenshot, showArrayPage, showOverview, shownPercentBetweenSimReads, simMdstat,
    simValue, syncExplanation, waitForRefreshes, withinWindow,
} from '../harness/raidtunePage';
import { waitBudget } from '../../../tools/cockpit/waitBudget';

// The simulator needs several seconds to lay out 26k files, and a refresh reads all of them.
const env = setupRaidtune({ scenario: 'many-arrays', readySelector: 'table.raidtune-overview' });
jest.setTimeout(waitBudget(90000));

const PAUSED = 'Paused (frozen): the sync makes no progress until it is resumed.';

test('the overview lists every array in mdstat, the ones in trouble first, the idle ones folded until asked', async () => {
    const truth = await simMdstat(env);
    expect(truth.size).toBe(128);
    await showOverview(env.page);
    // Folded: every array that is not healthy and idle, worst first.
    const listed = (await overviewRowTexts(env.page)).map(row => row.name);
    const troubled = [...truth.values()].filter(a => a.sync !== null || a.status!.includes('_'));
    expect([...listed].sort()).toEqual(troubled.map(a => a.name).sort());
    const idleCount = truth.size - troubled.length;
    expect(await env.page.locator('.raidtune-overview-healthy').innerText()).toContain(`${idleCount} more arrays are healthy and idle.`);
    // Unfolded: the same rows first, then the idle arrays by name (md9 before md10).
    await env.page.getByRole('button', { name: 'Show them', exact: true }).click();
    await env.page.waitForFunction(n => document.querySelectorAll('table.raidtune-overview tr[data-array]').length === n, truth.size);
    const all = (await overviewRowTexts(env.page)).map(row => row.name);
    expect(all.slice(0, listed.length)).toEqual(listed);
    const idle = all.slice(listed.length).map(name => Number(name.replace(/^md/, '')));
    expect(idle).toEqual([...idle].sort((a, b) => a - b));
    expect(idle.length).toBe(idleCount);
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

test('as many degraded, rebuilding, resyncing, checking and paused rows as the kernel has', async () => {
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

    await showOverview(env.page);
    const showAll = env.page.getByRole('button', { name: 'Show them', exact: true });
    if (await showAll.count()) await showAll.click();
    await env.page.waitForFunction(n => document.querySelectorAll('table.raidtune-overview tr[data-array]').length === n, truth.length);
    const rows = await overviewRowTexts(env.page);
    // A running operation: its name and a percentage; its estimate a time, not a held state.
    const running = (title: string) => (r: (typeof rows)[number]) =>
        r.operation.startsWith(`${title} `) && !r.estimate.startsWith('Paused') && !r.estimate.startsWith('Waiting');
    expect({
        degraded: count(rows, r => r.state.split(', ').includes('degraded')),
        recovery: count(rows, running('Rebuild')),
        resync: count(rows, running('Resync')),
        check: count(rows, running('Check')),
        paused: count(rows, r => r.estimate === 'Paused (frozen)'),
        // An idle row's operation cell holds a dash alone, no operation.
        idle: count(rows, r => r.operation === ''),
    }).toEqual(expected);
    // And they are the same arrays, not just the same numbers.
    expect(rows.filter(r => r.estimate === 'Paused (frozen)').map(r => r.name).sort()).toEqual([...frozen].sort());
    expect(rows.filter(r => r.state.split(', ').includes('degraded')).map(r => r.name).sort())
        .toEqual(truth.filter(a => a.status!.includes('_')).map(a => a.name).sort());
    // A paused array's own page says why it makes no progress.
    expect(await syncExplanation(env.page, [...frozen][0])).toBe(PAUSED);
});

test('a refresh far down the overview keeps what is on screen in place, and the elements', async () => {
    await showOverview(env.page);
    const showAll = env.page.getByRole('button', { name: 'Show them', exact: true });
    if (await showAll.count()) await showAll.click();
    await env.page.waitForFunction(() => document.querySelectorAll('table.raidtune-overview tr[data-array]').length === 128);
    const names = (await overviewRowTexts(env.page)).map(row => row.name);
    expect(names.length).toBe(128);
    // Scroll to a row near the end of the list.
    const target = names[Math.floor(names.length * 0.8)];
    await overviewRow(env.page, target).scrollIntoViewIfNeeded();
    await env.page.evaluate(() => window.scrollBy(0, 50));
    expect(await env.page.evaluate(() => window.scrollY)).toBeGreaterThan(3000);
    const onScreen = () => overviewRow(env.page, target).evaluate(el => Math.round(el.getBoundingClientRect().top));
    const top = await onScreen();

    // Mark a few rows: React must update them in place, not replace them.
    const marked = [names[0], target, names[names.length - 1]];
    const rowOf = (name: string) => `table.raidtune-overview tr[data-array="${name}"]`;
    await env.page.evaluate(({ ids, selector }) => {
        for (const id of ids) (document.querySelector(selector.replace('NAME', id)) as HTMLElement & { marker?: string }).marker = id;
    }, { ids: marked, selector: rowOf('NAME') });

    await waitForRefreshes(env.page, 2, 30000);

    expect(Math.abs(await onScreen() - top)).toBeLessThanOrEqual(2);
    const markers = await env.page.evaluate(({ ids, selector }) => ids.map(id =>
        (document.querySelector(selector.replace('NAME', id)) as (HTMLElement & { marker?: string }) | null)?.marker),
    { ids: marked, selector: rowOf('NAME') });
    expect(markers).toEqual(marked);
});

test('the last running sync in the overview\'s order, on its own page, shows the progress the kernel has', async () => {
    const truth = await simMdstat(env);
    await showOverview(env.page);
    const running = (await overviewRowTexts(env.page)).map(row => row.name).filter(name => truth.get(name)?.sync?.state === 'running');
    const last = running[running.length - 1];
    await showArrayPage(env.page, last);
    const { before, shown, after } = await shownPercentBetweenSimReads(env, env.page, last);
    expect(shown).toBeGreaterThanOrEqual(before);
    expect(shown).toBeLessThanOrEqual(after);
});
