// SPDX-License-Identifier: LGPL-2.1-or-later
// RHEL's own layout (the rhel-layout scenario, issue #35): /boot, / and the data as md arrays on
// partitions of the same four disks, the data array (md2) rebuilding while only / (md1) is busy.
// md judges a member by its whole disk, so md1's I/O slows md2's rebuild: "Why is it slow?" says it
// is md1's I/O, and offers the higher minimum. The simulator holds the rebuild at the minimum
// ("starved"), the real kernels gave way above it ("slowed", make bench-rebuild): either is the
// finding that names md1, and the test rests on no more than that.

import { setupRaidtune } from '../harness/env';
import { arrayCard, showArrayPage } from '../harness/raidtunePage';
import { waitBudget } from '../../../tools/cockpit/waitBudget';

const env = setupRaidtune({ scenario: 'rhel-layout' });

/** A verdict needs 10 s of samples at the 2 s refresh; allow for a loaded machine. */
const VERDICT_MS = 40000;

test('md2\'s page names md1, says why its I/O counts, and offers a higher minimum', async () => {
    await showArrayPage(env.page, 'md2');
    const finding = arrayCard(env.page, 'md2').locator('.raidtune-diagnosis').locator('[data-finding="starved"], [data-finding="slowed"]');
    await finding.waitFor({ timeout: waitBudget(VERDICT_MS) });
    // md1 reads 6000 and writes 2000 KiB/s (the scenario): 7.8 MiB/s at its md device.
    expect(await finding.innerText()).toMatch(/^(Starved|Slowed) by I\/O on md1\b[^]* md1 moves 7\.8\d MiB\/s of it: it lies on other partitions of the same disks, and md gives way to I\/O on any partition of a member disk\./);
    expect(await finding.getByRole('button').allInnerTexts()).toEqual([expect.stringMatching(/^Raise the minimum to \d+ MiB\/s…$/)]);
    await arrayCard(env.page, 'md2').locator('.raidtune-diagnosis').screenshot({ path: 'test-results/screenshots/rhel-layout.png' });
});
