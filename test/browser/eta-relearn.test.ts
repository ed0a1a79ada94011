// SPDX-License-Identifier: LGPL-2.1-or-later
// raidtune's estimate after a change of the limits (src/md/eta.ts Relearning): the samples taken
// at the old speed no longer count, and until the new speed is measured the page says so and shows
// the what-if's finish time for the new limits. The limits are changed among the overview's host
// settings; the estimate is read on the array's own page, as a user goes back and forth.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BROWSER_TIMEOUT_MS, setupRaidtune } from './harness/env';
import {
    changeDialog, dialogButton, KERNEL_DONE, openDialog, showArrayPage, showOverview, syncFact, waitForRefreshes,
} from './harness/raidtunePage';
import { waitBudget } from '../../tools/cockpit/waitBudget';

const stateDir = mkdtempSync(join(tmpdir(), 'raidtune-state-'));
const env = setupRaidtune({ scenario: 'raid6-recovery', arrayPage: 'md0', config: { stateDir } });

const ESTIMATE = 'Average-speed estimate';
const MEASURED = /^(\d+) h (\d+) min \(at the average speed of the last \d+ s\)$/;
const PREDICTED = /^(?:(\d+) h )?(\d+) min by the what-if \(re-learning the speed since the limits changed\)$/;

const minutes = (match: RegExpMatchArray) => Number(match[1] ?? 0) * 60 + Number(match[2]);

/** The estimate's text once it matches `pattern` (the page refreshes every 2 s). */
async function estimateMatching(pattern: RegExp): Promise<RegExpMatchArray> {
    await showArrayPage(env.page, 'md0');
    await env.page.waitForFunction(source => {
        const fact = [...document.querySelectorAll('#array-md0 .raidtune-sync-fact')].find(f => f.textContent?.startsWith('Average-speed estimate:'));
        return new RegExp(source).test(fact?.textContent?.replace('Average-speed estimate:', '').trim() ?? '');
    }, pattern.source, { timeout: waitBudget(60000) });
    return (await syncFact(env.page, 'md0', ESTIMATE)).match(pattern)!;
}

test('a raised minimum: the estimate re-learns and shows the what-if finish time meanwhile', async () => {
    // The rebuild held at the 4000 KiB/s minimum by other I/O: an estimate of many hours, measured.
    await waitForRefreshes(env.page, 6);
    const before = minutes(await estimateMatching(MEASURED));

    await showOverview(env.page);
    await openDialog(env.page.locator('#global-limits').getByRole('button', { name: 'Change…' }));
    await changeDialog(env.page).getByLabel('Minimum (MiB/s per disk)').fill('50');
    await dialogButton(env.page, 'Apply').click();
    await changeDialog(env.page).getByText(KERNEL_DONE).waitFor();
    await dialogButton(env.page, 'Close').click();

    // The what-if: held at the minimum, the rebuild runs at the new one (the disks can move it).
    const predicted = minutes(await estimateMatching(PREDICTED));
    expect(predicted).toBeLessThan(before / 5);
    // Once samples at the new speed span 30 s (md's own speed window), it is measured again.
    const after = minutes(await estimateMatching(MEASURED));
    expect(after).toBeLessThan(before / 5);
}, 2 * BROWSER_TIMEOUT_MS); // two estimates to wait for: 12 s of samples, then 30 s after the change
