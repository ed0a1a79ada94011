// SPDX-License-Identifier: LGPL-2.1-or-later
// An admin's published RAID5 rebuild (50 MB/s with md's default stripe cache) on disks that seek
// (the seeking-rebuild scenario, issue #38): idle, its stripe cache full while the disks are busy
// about half the time. "Why is it slow?" says the cache holds it back and predicts a larger one
// faster; applied, the simulated rebuild runs as fast as it said and the member disks set the pace.

import { setupRaidtune } from '../harness/env';
import { applyPreviewedFix, arrayCard, simValue, waitUntil } from '../harness/raidtunePage';
import { waitBudget } from '../../../tools/cockpit/waitBudget';

const env = setupRaidtune({ scenario: 'seeking-rebuild', arrayPage: 'md0' });

const section = () => arrayCard(env.page, 'md0').locator('.raidtune-diagnosis');
const textOf = async (selector: string) => ((await section().locator(selector).first().textContent()) ?? '').trim();
/** A verdict needs 10 s of samples at the 2 s refresh; allow for a loaded machine. */
const VERDICT_MS = 40000;
/** MiB/s in a sentence, as a number. */
const mibs = (text: string, after: RegExp) => Number(new RegExp(after.source + '([\\d.]+) MiB/s').exec(text)?.[1]);

test('the full stripe cache is named as what holds the rebuild back, with a larger one predicted faster', async () => {
    await section().locator('[data-finding="cache-bound"]').waitFor({ timeout: waitBudget(VERDICT_MS) });
    // From a window of 16 samples (30 s) or more: in a first window of 10 s the disks' busy time,
    // read a simulator tick apart from the page's clock on a loaded machine, showed 45%.
    await waitUntil('a window of 16 samples', async () =>
        Number(/\((\d+) samples\)/.exec(await textOf('.raidtune-diagnosis-evidence'))?.[1] ?? 0) >= 16, VERDICT_MS + 30000);
    // 90000 KiB/s disks at 50%: 43.9 MiB/s, busy 50% (a tick's jitter moves both by a few %).
    expect(await textOf('[data-finding="cache-bound"]')).toMatch(
        /^The stripe cache holds it back: Its stripe cache of 256 entries was full in 100% of the samples while the member disks had time to spare \(sd[a-d] is busy (4[7-9]|5[0-3])% of the time\): md keeps no more stripes in flight than its cache holds, so the disks wait for it\. A larger cache lets them work more of the time\./);
    const rows = await section().locator('tbody tr').evaluateAll(trs => trs.map(tr =>
        [...tr.querySelectorAll('th, td')].map(cell => cell.textContent?.trim() ?? '')));
    expect(rows.map(r => [r[0], r[3]])).toEqual([
        ['No change', 'As measured'],
        ['Minimum 10 MiB/s', 'No faster: something else holds it back'],
        ['Minimum 50 MiB/s', 'No faster: something else holds it back'],
        ['Maximum 2000 MiB/s', 'No faster: something else holds it back'],
        ['Stripe cache 4096 entries', 'Faster'],
    ]);
    // The section's one action is that fix.
    expect(await section().getByRole('button', { name: 'Raise the stripe cache to 4096 entries…' }).count()).toBe(1);
    await section().screenshot({ path: 'test-results/screenshots/seeking-rebuild.png' });
});

test('applied, the larger cache makes the rebuild as fast as the what-if said', async () => {
    const predicted = mibs(await section().locator('tbody tr[data-change="stripe-cache"]').innerText(), /\t/);
    await applyPreviewedFix(env.page, section().getByRole('button', { name: 'Raise the stripe cache to 4096 entries…' }),
        'echo 4096 > /sys/block/md0/md/stripe_cache_size');
    expect(await simValue(env, '/sys/block/md0/md/stripe_cache_size')).toBe('4096');
    // The history starts over under the new cache; then the disks set the pace, busy as much of the
    // time as md keeps them with a cache that no longer limits it (80%, CACHE_REACHABLE_BUSY).
    await waitUntil('the member disks set the pace', async () =>
        /The member disks set the pace: sd[a-d] is busy (7[5-9]|8\d)% of the time\./.test(await section().textContent() ?? ''), VERDICT_MS);
    expect(await section().locator('[data-finding="cache-bound"]').count()).toBe(0);
    const measured = mibs(await section().locator('.raidtune-diagnosis-evidence').innerText(), /\): /);
    expect(Math.abs(measured - predicted) / predicted).toBeLessThan(0.1);
});
