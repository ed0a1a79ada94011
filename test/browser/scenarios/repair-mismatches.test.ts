// SPDX-License-Identifier: LGPL-2.1-or-later
// A small RAID5 whose last check found 2048 mismatched sectors: the guided "repair, then check
// again". The page offers the repair with what it does and how long it takes at the current
// limits, says it is at step 1 of 2 (also after a reload: the step is in a record on the host),
// offers the check when the repair ended, and compares the two checks' counts with the kernel's.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatDuration, formatKiB } from '../../../src/md/format';
import { setupRaidtune } from '../harness/env';
import { applyAndClose, arrayCard, changeDialog, openDialog, simNumber, simValue, waitUntil } from '../harness/raidtunePage';

const env = setupRaidtune({ scenario: 'repair-mismatches', arrayPage: 'md0' });

const recordFile = () => join(env.sim.root, 'var/lib/raidtune/repair/md0.json');
const flow = () => arrayCard(env.page, 'md0').locator('.raidtune-repair-flow');
const SLOW_KIBS = 5000;

/** Waits for the flow's `step`, and returns its title and text. */
async function shownStep(step: string, timeoutMs = 15000): Promise<{ title: string; text: string }> {
    const part = arrayCard(env.page, 'md0').locator(`.raidtune-repair-${step}`);
    await part.waitFor({ timeout: timeoutMs });
    return {
        title: (await part.locator('.pf-v6-c-alert__title').innerText()).replace(/^.*alert:\s*/i, '').trim(),
        text: await part.locator('.raidtune-repair-text').innerText(),
    };
}

/** A pass over the array at the array's own maximum, or back at the system's. */
const limitSync = (kiBs: number | 'system') => env.writeSim('/sys/block/md0/md/sync_speed_max', `${kiBs}\n`);

test('offers the repair of what the last check found, with what it does on RAID5 and how long it takes', async () => {
    expect(await simValue(env, '/sys/block/md0/md/last_sync_action')).toBe('check');
    const before = await simNumber(env, '/sys/block/md0/md/mismatch_cnt');
    expect(before).toBe(2048);
    expect((await shownStep('offer')).text).toBe(`The last check found ${before} mismatched sectors. A repair rewrites them; a check after it tells whether they stay away.`);

    const dialog = await openDialog(flow().getByRole('button', { name: 'Repair…' }));
    const preview = await dialog.locator('.raidtune-repair-preview').innerText();
    expect(preview).toMatch(/^On RAID5 a repair reads every stripe and, where the parity does not match the data, rewrites the parity from the data\./);
    // One member's data at the array's own maximum (the scenario's 5000 KiB/s); the system's
    // 1000 KiB/s minimum under other I/O.
    const perDiskKiB = await simNumber(env, '/sys/block/md0/md/component_size');
    expect(await simValue(env, '/sys/block/md0/md/sync_speed_max')).toBe(`${SLOW_KIBS} (local)`);
    expect(preview).toContain(`It reads the whole array and writes what differs: ${formatKiB(perDiskKiB)} on each disk. ` +
        `At the current maximum of 4.88 MiB/s that takes at least ${formatDuration(perDiskKiB / SLOW_KIBS)}; ` +
        `held at the minimum of 0.98 MiB/s by other I/O, up to ${formatDuration(perDiskKiB / 1000)}.`);
    // The record first (a reload while it applies already shows the step), then the repair.
    const commands = await dialog.locator('.raidtune-commands').innerText();
    expect(commands.startsWith(`cat > ${recordFile()} <<'EOF'\n{"version":1,"array":"md0",`)).toBe(true);
    expect(commands).toMatch(/\nEOF\necho repair > \/sys\/block\/md0\/md\/sync_action$/);
    expect(existsSync(recordFile())).toBe(false);

    await applyAndClose(env.page, 'Start repair');
    await waitUntil('the repair running in the simulated kernel', async () => await simValue(env, '/sys/block/md0/md/sync_action') === 'repair', 10000);
    const step = await shownStep('repairing');
    expect(step.title).toBe('Step 1 of 2: repairing');
    expect(step.text).toMatch(new RegExp(`^It started from ${before} mismatched sectors found by the last check\\. Started .+\\.$`));
    const record = JSON.parse(readFileSync(recordFile(), 'utf8'));
    expect(record).toMatchObject({ version: 1, array: 'md0', before, checkStartedAt: null });
});

test('a reload in the middle of the repair shows the same step, from the host\'s record', async () => {
    const beforeReload = await shownStep('repairing');
    await env.page.reload();
    await env.page.locator('#array-md0').waitFor();
    expect(await shownStep('repairing')).toEqual(beforeReload);
    expect(await simValue(env, '/sys/block/md0/md/sync_action')).toBe('repair');
});

test('when the repair ended, check again; the card then compares the two counts with the kernel\'s', async () => {
    await limitSync('system');
    const repaired = await shownStep('repaired', 60000);
    expect(await simValue(env, '/sys/block/md0/md/last_sync_action')).toBe('repair');
    const rewritten = await simNumber(env, '/sys/block/md0/md/mismatch_cnt');
    expect(repaired).toEqual({
        title: 'Step 1 of 2 done: the repair ended',
        text: `It rewrote ${rewritten} sectors; the check before it found 2048. Step 2 of 2: check again.`,
    });

    await limitSync(SLOW_KIBS);
    await waitUntil('the check to come held at the maximum', async () => await simValue(env, '/sys/block/md0/md/sync_speed_max') === `${SLOW_KIBS} (local)`, 10000);
    const dialog = await openDialog(flow().getByRole('button', { name: 'Check again…' }));
    expect(await dialog.locator('.raidtune-commands').innerText()).toMatch(/\nEOF\necho check > \/sys\/block\/md0\/md\/sync_action$/);
    await applyAndClose(env.page, 'Start check');
    expect((await shownStep('checking')).title).toBe('Step 2 of 2: checking again');
    expect(await simValue(env, '/sys/block/md0/md/sync_action')).toBe('check');
    expect(JSON.parse(readFileSync(recordFile(), 'utf8')).checkStartedAt).toEqual(expect.any(String));

    await limitSync('system');
    const compared = await shownStep('compared', 60000);
    expect(await simValue(env, '/sys/block/md0/md/last_sync_action')).toBe('check');
    const after = await simNumber(env, '/sys/block/md0/md/mismatch_cnt');
    expect(after).toBe(0);
    expect(compared).toEqual({
        title: 'Repaired',
        text: 'Before the repair: 2048 mismatched sectors; after the repair\'s check: 0. Repaired: the check after the repair found no mismatches.',
    });

    // Done: the record goes, and a clean check offers nothing more.
    await openDialog(flow().getByRole('button', { name: 'Done' }));
    await applyAndClose(env.page, 'End');
    expect(existsSync(recordFile())).toBe(false);
    await waitUntil('the flow gone from the card', async () => await flow().count() === 0 && await changeDialog(env.page).count() === 0, 10000);
});
