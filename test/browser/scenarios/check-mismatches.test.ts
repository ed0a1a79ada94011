// SPDX-License-Identifier: LGPL-2.1-or-later
// A monthly check of a 6-disk RAID6, 40% through, that has found inconsistent stripes. The page
// must show the check's progress and the kernel's mismatch_cnt in the words of what it counts
// (so far while a check or repair runs, found by the last check, found and rewritten by the last
// repair), and drop the check when the administrator stops it (`echo idle > sync_action`: the
// kernel abandons a check, it does not resume it).

import { setupRaidtune } from '../harness/env';
import {
    arrayCard, cardFacts, cardInView, healthText, nextReadRendered, shownBetweenSimReads, shownPercentBetweenSimReads,
    simMdstat, simNumber, simValue, syncExplanation, syncFact, syncSection, syncTitle, waitUntil,
} from '../harness/raidtunePage';
import { waitBudget } from '../../../tools/cockpit/waitBudget';

const env = setupRaidtune({ scenario: 'check-mismatches', arrayPage: 'md0' });

/** The kernel's mismatch_cnt means another thing while a check or repair runs and after each (last_sync_action). */
const RUNNING_CHECK = /^(\d+) sectors found inconsistent so far by the running check$/;
const LAST_CHECK = /^(\d+) sectors found inconsistent by the last check$/;
const RUNNING_REPAIR = /^(\d+) sectors found inconsistent and rewritten so far by the running repair$/;
const LAST_REPAIR = /^(\d+) sectors found inconsistent and rewritten by the last repair$/;

/** The fact's first line: the count in words (what it means on this level follows below it). */
function countLine(fact: string | undefined): string | undefined {
    return fact?.split('\n')[0];
}

/** What the count means on this RAID6, below it. */
const meaning = () => arrayCard(env.page, 'md0').locator('.raidtune-mismatch-meaning').innerText();

/** The number in the Mismatches fact, worded as `wording` says. */
async function shownMismatches(wording: RegExp): Promise<number> {
    const text = countLine((await cardFacts(env.page, 'md0')).Mismatches);
    if (text === undefined) throw new Error('the card shows no Mismatches fact');
    const m = text.match(wording);
    if (!m) throw new Error(`unexpected Mismatches text: ${text}`);
    return Number(m[1]);
}

/**
 * Writes sync_action as `echo ACTION > sync_action` would and waits until the simulated kernel has
 * acted on it: its mdstat shows a sync, or none. The file reads back the written word at once,
 * before the kernel acts (the simulator at its next tick), so the file alone proves nothing.
 */
async function writeSyncAction(action: 'repair' | 'idle'): Promise<void> {
    await env.writeSim('/sys/block/md0/md/sync_action', `${action}\n`);
    const running = action !== 'idle';
    await waitUntil(`the simulated mdstat with ${running ? 'a' : 'no'} sync`, async () =>
        ((await simMdstat(env)).get('md0')!.sync !== null) === running, 10000);
}

test('shows the running check with the percent mdstat reports', async () => {
    const truth = (await simMdstat(env)).get('md0')!;
    expect(truth.sync).toMatchObject({ action: 'check', state: 'running' });
    expect(await simValue(env, '/sys/block/md0/md/sync_action')).toBe('check');

    expect(await syncTitle(env.page, 'md0')).toBe('Check');
    expect(await syncExplanation(env.page, 'md0')).toBeNull();
    const { before, shown, after } = await shownPercentBetweenSimReads(env, env.page, 'md0');
    expect(before).toBeGreaterThan(35);
    expect(shown).toBeGreaterThanOrEqual(before);
    expect(shown).toBeLessThanOrEqual(after);
    expect(await syncFact(env.page, 'md0', 'Speed')).toMatch(/^\d+ MiB\/s \(\d+ KiB\/s\)$/);

    // A check does not make the array unhealthy.
    expect(await healthText(env.page, 'md0')).toBe('Clean');
    expect((await cardFacts(env.page, 'md0')).Disks).toBe('6 of 6 working');
});

test('shows the mismatch count the kernel has counted so far', async () => {
    // The count grows as the check passes more bad stripes: bracket the page between two reads.
    const { before, shown, after } = await shownBetweenSimReads(env.page,
        () => simNumber(env, '/sys/block/md0/md/mismatch_cnt'), () => shownMismatches(RUNNING_CHECK));
    expect(before).toBeGreaterThan(0);
    expect(shown).toBeGreaterThanOrEqual(before);
    expect(shown).toBeLessThanOrEqual(after);
    expect(await meaning()).toMatch(/^A parity mismatch on RAID6: the parity does not match the data\. /);
});

test('"Why is it slow?" is not asked of a check: it is offered less impact, never more speed (#33)', async () => {
    const section = arrayCard(env.page, 'md0').locator('.raidtune-diagnosis');
    await section.locator('[data-finding="scrub"]').waitFor({ timeout: waitBudget(40000) });
    await section.getByRole('heading', { name: 'What it takes from other I/O', level: 3 }).waitFor();
    expect((await section.locator('[data-finding="scrub"]').textContent())?.trim()).toMatch(
        /^A check runs in the background: It runs at [\d.]+ Mi?B\/s per disk .* a check window \(Scheduled checks\) keeps checks to quiet hours\. Lower the maximum to [\d.]+ Mi?B\/s…$/);
    expect(await section.getByRole('button', { name: /^Raise/ }).count()).toBe(0);
    // The what-if: the later finish of the lower maximum, no higher limit.
    const rows = await section.locator('tbody tr').evaluateAll(trs => trs.map(tr =>
        [...tr.querySelectorAll('th, td')].map(cell => cell.textContent?.trim())));
    expect(rows.map(r => [r[0], r[3]])).toEqual([
        ['No change', 'As measured'],
        [expect.stringMatching(/^Maximum [\d.]+ Mi?B\/s$/), 'Slower: the disks keep more room for other I/O'],
    ]);
});

test('writing idle to sync_action stops the check; the page drops it and keeps the count', async () => {
    await writeSyncAction('idle');
    expect(await simValue(env, '/sys/block/md0/md/sync_action')).toBe('idle');

    // The page's first read after the kernel stopped the check shows it stopped.
    await nextReadRendered(env.page);
    await cardInView(env.page, 'md0');
    expect(await syncSection(env.page, 'md0').count()).toBe(0);
    const text = await arrayCard(env.page, 'md0').innerText();
    expect(text).not.toMatch(/Check|Speed:|estimate/);
    // mismatch_cnt stays until the next check starts: what the stopped check found.
    expect(await simValue(env, '/sys/block/md0/md/last_sync_action')).toBe('check');
    expect(await shownMismatches(LAST_CHECK)).toBe(await simNumber(env, '/sys/block/md0/md/mismatch_cnt'));
    expect(await meaning()).toMatch(/^A parity mismatch on RAID6: the parity does not match the data\. /);
    expect(await healthText(env.page, 'md0')).toBe('Clean');

    // Cockpit's menu entry warns of what the finished check found.
    const shell = await env.shellPage();
    await shell.page.locator('#raid-tuning-warning.nav-item-status').hover();
    await shell.page.getByRole('tooltip').getByText('The last check of md0 found mismatches', { exact: true }).waitFor();
});

test('a repair\'s count is of sectors found and rewritten, so far while it runs, then by the last repair', async () => {
    // The repair starts its count from 0, shown as such while it runs, from the page's first read
    // after the kernel started it: with no sync running, that read may be a whole idle interval
    // (10 s) away.
    await writeSyncAction('repair');
    await nextReadRendered(env.page);
    await shownMismatches(RUNNING_REPAIR);
    const { before, shown, after } = await shownBetweenSimReads(env.page,
        () => simNumber(env, '/sys/block/md0/md/mismatch_cnt'), () => shownMismatches(RUNNING_REPAIR));
    expect(shown).toBeGreaterThanOrEqual(before);
    expect(shown).toBeLessThanOrEqual(after);

    await writeSyncAction('idle');
    expect(await simValue(env, '/sys/block/md0/md/last_sync_action')).toBe('repair');
    await nextReadRendered(env.page);
    const repaired = await shownMismatches(LAST_REPAIR);
    expect(repaired).toBe(await simNumber(env, '/sys/block/md0/md/mismatch_cnt'));
    // Explained when the repair found something (its count starts again from 0); a clean one needs no words.
    const explained = arrayCard(env.page, 'md0').locator('.raidtune-mismatch-meaning');
    if (repaired > 0) expect(await explained.innerText()).toMatch(/^A parity mismatch on RAID6: the parity was recomputed from the data\. /);
    else expect(await explained.count()).toBe(0);
});
