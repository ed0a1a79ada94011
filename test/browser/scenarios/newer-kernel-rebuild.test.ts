// SPDX-License-Identifier: LGPL-2.1-or-later
// A RAID5 rebuilding on a 7.x-like kernel (the newer-kernel-rebuild scenario) under application
// I/O, above its minimum as far as its sync_io_depth lets it. "Why is it slow?" names the other I/O
// that md gives way to, never "no other I/O competes" beside it, and its what-if never calls "No
// faster" the higher minimum that, applied, makes the simulated rebuild as fast as it said (#33).

import { setupRaidtune } from '../harness/env';
import { applyPreviewedFix, arrayCard, simValue, waitUntil } from '../harness/raidtunePage';
import { waitBudget } from '../../../tools/cockpit/waitBudget';

const env = setupRaidtune({ scenario: 'newer-kernel-rebuild', arrayPage: 'md0' });

const section = () => arrayCard(env.page, 'md0').locator('.raidtune-diagnosis');
/** Text read from the DOM: a card out of view is not laid out, so it has no innerText. */
const textOf = async (selector: string) => ((await section().locator(selector).first().textContent()) ?? '').trim();
/** A verdict needs 10 s of samples at the 2 s refresh; allow for a loaded machine. */
const VERDICT_MS = 40000;

test('the other I/O md gives way to is named, and a higher minimum is faster in the what-if', async () => {
    await section().locator('[data-finding="slowed"]').waitFor({ timeout: waitBudget(VERDICT_MS) });
    expect(await textOf('[data-finding="slowed"]')).toMatch(
        /^Slowed by other I\/O: It runs at [\d.]+ Mi?B\/s per disk, above the minimum of [\d.]+ Mi?B\/s, while other I\/O moves [\d.]+ Mi?B\/s on the member disks \(\d+% of their traffic\)/);
    expect(await section().textContent()).not.toMatch(/no other I\/O/i);
    const rows = await section().locator('tbody tr').evaluateAll(trs => trs.map(tr =>
        [...tr.querySelectorAll('th, td')].map(cell => cell.textContent?.trim())));
    // A minimum below today's speed changes nothing; Fast rebuild's lifts md's throttle.
    expect(rows.map(r => [r[0], r[3]])).toEqual([
        ['No change', 'As measured'],
        [expect.stringMatching(/^Minimum /), 'No faster: something else holds it back'],
        [expect.stringMatching(/^Minimum /), 'Faster'],
        [expect.stringMatching(/^Maximum /), 'No faster: something else holds it back'],
        // Its disks seek: on hard disks that serve other I/O the cache is said faster, by no amount.
        ['Stripe cache 4096 entries', 'Faster on hard disks that serve other I/O too, by an amount raidtune cannot measure'],
    ]);
});

test('applied, the higher minimum makes the rebuild as fast as the what-if said', async () => {
    await applyPreviewedFix(env.page, section().getByRole('button', { name: /^Raise the minimum to / }),
        'echo 51200 > /sys/block/md0/md/sync_speed_min');
    expect(await simValue(env, '/sys/block/md0/md/sync_speed_min')).toBe('51200 (local)');
    // The history starts over under the new limit; then it runs at the new minimum, held there by
    // the other I/O, with nothing higher offered.
    await waitUntil('md0 held at its new minimum', async () =>
        /^Starved by other I\/O: It runs at [\d.]+ Mi?B\/s per disk, near the minimum of [\d.]+ Mi?B\/s, .* The minimum is already at the Fast rebuild level/
            .test(await section().locator('[data-finding="starved"]').count() ? await textOf('[data-finding="starved"]') : ''), VERDICT_MS);
    expect(await section().textContent()).not.toMatch(/no other I\/O/i);
});
