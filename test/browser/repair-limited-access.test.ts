// SPDX-License-Identifier: LGPL-2.1-or-later
// The guided repair without administrative access (Cockpit's session as `nobody`): the offer and
// the step under way are shown as an administrator sees them, "Repair…" is disabled with the
// reason, and using it writes nothing.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serializeRepairFlow } from '../../src/md/repairFlowRecord';
import { setupRaidtune } from './harness/env';
import { ADMIN_REASON, privateDistCopy } from './harness/privateDist';
import { arrayCard, cardInView, nextReadRendered, simMdstat, simValue, waitForTooltip, waitUntil } from './harness/raidtunePage';

const env = setupRaidtune({
    scenario: 'repair-mismatches', arrayPage: 'md0', runAs: 'nobody', pluginDir: privateDistCopy().dist,
});
const flow = () => arrayCard(env.page, 'md0').locator('.raidtune-repair-flow');

test('the repair is offered read-only: disabled with the reason, and using it writes nothing', async () => {
    await arrayCard(env.page, 'md0').locator('.raidtune-repair-offer').waitFor();
    expect(await flow().locator('.raidtune-repair-text').innerText()).toMatch(/^The last check found 2048 mismatched sectors\./);
    const repair = flow().getByRole('button', { name: 'Repair…' });
    expect(await repair.getAttribute('aria-disabled')).toBe('true');
    await waitForTooltip(repair, ADMIN_REASON);
    await repair.click({ force: true });
    await env.page.keyboard.press('Enter');
    await env.page.waitForTimeout(1500); // time for a dialog's chunk to come, and for a write to land
    expect(await env.page.getByRole('dialog').count()).toBe(0);
    expect(await simValue(env, '/sys/block/md0/md/sync_action')).toBe('idle');
});

test('a repair an administrator started shows its step here too, from the host\'s record', async () => {
    const folder = join(env.sim.root, 'var/lib/raidtune/repair');
    mkdirSync(folder, { recursive: true, mode: 0o755 });
    const uuid = (await simValue(env, '/sys/block/md0/md/uuid')).trim();
    writeFileSync(join(folder, 'md0.json'), serializeRepairFlow({
        version: 1, array: 'md0', uuid, before: 2048, repairStartedAt: new Date().toISOString(), checkStartedAt: null,
    }), { mode: 0o644 });
    await env.writeSim('/sys/block/md0/md/sync_action', 'repair\n');
    await waitUntil('the repair running in the simulated mdstat', async () => (await simMdstat(env)).get('md0')!.sync !== null, 10000);
    // The page's first read after the kernel started it: with nothing syncing before, up to 10 s away.
    await nextReadRendered(env.page);
    const step = (await cardInView(env.page, 'md0')).locator('.raidtune-repair-repairing');
    expect(await step.count()).toBe(1);
    expect(await step.locator('.raidtune-repair-text').innerText()).toMatch(/^It started from 2048 mismatched sectors found by the last check\. Started /);
});
