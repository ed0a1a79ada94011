// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #15, the history of sync operations on the simulated host: a small RAID1 with mismatches
// runs a check that ends within a minute. Recording is off as the plugin installs it; "Record sync history…" turns
// the timer on (a plan, with the simulated systemctl); then the recorder runs as that timer would
// (here every 2 s instead of every minute) against the simulated kernel until the check ended, and
// the card shows the operation with the simulated kernel's own mismatch count. The recorder's card
// is below the overview with its state and switch alone; an array's operations are on its page.
// The simulated host runs 4 times faster than real time: the check, started when the recorder
// starts running, takes about 15 s instead of a minute, and the recorder's runs 2 s apart still
// see it under way.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { customScenario } from './harness/customScenario';
import { setupRaidtune } from './harness/env';
import { applyAndClose, openDialog, showArrayPage, showOverview, waitUntil } from './harness/raidtunePage';

const GIB = 2 ** 30;
const SCENARIO = {
    name: 'sync-history',
    description: 'A RAID1 of two 8 GiB disks with mismatches, idle until the test starts a check.',
    disks: ['sda', 'sdb'].map(name => ({ name, kind: 'sata', sizeBytes: 8 * GIB })),
    arrays: [{
        name: 'md0', level: 'raid1', members: [{ device: 'sda' }, { device: 'sdb' }],
        mismatchSectors: 256,
    }],
};

const env = setupRaidtune({
    scenario: customScenario('sync-history', SCENARIO).file, simArgs: ['--time-scale', '4'], readySelector: '#sync-history',
});
const RECORDER = join(__dirname, '../../recorder/raidtune-history');
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));
/** The check takes about a minute of the simulated kernel's I/O (15 s here), longer on a busy machine. */
const RECORDED_WITHIN_MS = 180_000;

const card = () => env.page.locator('#sync-history');
const simFile = (path: string) => readFileSync(join(env.sim.sysRoot, path), 'utf8').trim();

test('recording is off as installed, and no operation is recorded yet', async () => {
    await card().locator('#history-recording-state[data-state="off"]').waitFor();
    expect(await card().locator('#history-recording-state').innerText()).toBe('Recording is off.');
    // The overview's card lists no array's operations: each array's page has its own.
    expect(await card().locator('.raidtune-history-array').count()).toBe(0);
    await showArrayPage(env.page, 'md0');
    await card().locator('#history-recording-state[data-state="off"]').waitFor();
    expect(await card().locator('.raidtune-history-array').evaluateAll(els => els.map(e => e.getAttribute('data-array'))))
        .toEqual(['md0']);
    expect(await card().locator('[data-array="md0"]').innerText()).toContain('No operation recorded.');
});

test('"Record sync history…" turns the timer on as a plan', async () => {
    // A host setting: from the card below the overview.
    await showOverview(env.page);
    const dialog = await openDialog(card().locator('#history-recording'));
    expect(await dialog.innerText()).toContain('enable --now raidtune-history.timer');
    await applyAndClose(env.page, 'Apply');
    await card().locator('#history-recording-state[data-state="on"]').waitFor();
    expect(await card().locator('#history-recording').innerText()).toBe('Stop recording…');
});

test('the recorder, run as the timer would, records the check; the card shows it with the kernel\'s count', async () => {
    const state = join(env.sim.root, 'var/lib/raidtune');
    const uuid = simFile('block/md0/md/uuid');
    const file = join(state, 'history', `${uuid}.jsonl`);
    await env.writeSim('/sys/block/md0/md/sync_action', 'check');
    // The timer's runs, closer together: the check ends within about 15 s.
    for (let deadline = Date.now() + RECORDED_WITHIN_MS; !existsSync(file); await sleep(2000)) {
        if (Date.now() > deadline) throw new Error('the recorder wrote no operation in 3 minutes');
        execFileSync('sh', [RECORDER, env.sim.sysRoot, env.sim.procRoot, state, '50']);
    }
    expect(simFile('block/md0/md/sync_action')).toBe('idle');
    await showArrayPage(env.page, 'md0');
    const row = card().locator('[data-array="md0"] tbody tr');
    await waitUntil('the operation on the card', async () => (await row.count()) === 1, 30_000);
    const cells = await row.locator('th, td').allInnerTexts();
    expect(cells[0]).toBe('Check');
    expect(cells[7]).toBe(simFile('block/md0/md/mismatch_cnt'));
    expect(cells[8]).toBe('finished');
    expect(await row.getAttribute('data-result')).toBe('finished');
    expect(await card().locator('#history-last-run').isVisible()).toBe(true);
}, RECORDED_WITHIN_MS + 60_000);
