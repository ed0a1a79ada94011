// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #15 without administrative access: the stalled check (fixtures/stalledSync.ts) is shown the
// same, and its fix is disabled with the reason; nothing is written.

import { STALLED_SYNC, STALLED_SYNC_ARGS } from './fixtures/stalledSync';
import { customScenario } from './harness/customScenario';
import { setupRaidtune } from './harness/env';
import { arrayCard, simValue } from './harness/raidtunePage';

const env = setupRaidtune({
    scenario: customScenario('stalled-sync-limited', STALLED_SYNC).file, simArgs: STALLED_SYNC_ARGS,
    arrayPage: 'md0', runAs: 'nobody',
});

test('the stall and its reason are shown; raising sync_max is disabled and says why', async () => {
    const alert = arrayCard(env.page, 'md0').locator('.raidtune-stall');
    await alert.getByText('It reached sync_max = 16777216: md waits there until sync_max is raised.', { exact: true }).waitFor();
    const fix = alert.getByRole('button', { name: 'Raise sync_max to "max"…' });
    await alert.locator('button[aria-disabled="true"]').waitFor();
    await fix.hover();
    await env.page.getByRole('tooltip').getByText('Requires administrative access. Turn it on in Cockpit\'s top bar.').waitFor();
    expect(await simValue(env, '/sys/block/md0/md/sync_max')).toBe('16777216');
});
