// SPDX-License-Identifier: LGPL-2.1-or-later
// A RAID1 resync paused with `echo frozen > sync_action` at 37%: mdstat shows only the
// tab-indented `resync=PENDING`, sysfs `sync_completed` reads "none" (no sync thread runs) and the
// progress lives in `resync_start` (the kernel's recovery_cp). The page must say it is paused,
// show where it stopped, and show it running again after `echo idle > sync_action`.

import { setupRaidtune } from '../harness/env';
import {
    cardFacts, healthText, shownPercent, shownPercentBetweenSimReads, simMdstat, simNumber, simValue, syncExplanation,
    syncFact, syncSection, syncSectionText, syncTitle, waitUntil,
} from '../harness/raidtunePage';

const env = setupRaidtune({ scenario: 'frozen', arrayPage: 'md0' });

test('shows the resync paused, at the position the kernel keeps', async () => {
    expect(await simValue(env, '/sys/block/md0/md/sync_action')).toBe('frozen');
    expect((await simMdstat(env)).get('md0')!.sync).toMatchObject({ action: 'resync', state: 'pending', percent: null });

    expect(await syncTitle(env.page, 'md0')).toBe('Resync');
    expect(await syncExplanation(env.page, 'md0')).toBe('Paused (frozen): the sync makes no progress until it is resumed.');

    // Where it stopped, per the kernel: resync_start of the component's sectors.
    const resyncStart = await simNumber(env, '/sys/block/md0/md/resync_start');
    const componentKiB = await simNumber(env, '/sys/block/md0/md/component_size');
    const percent = (resyncStart / (componentKiB * 2)) * 100;
    expect(percent).toBeGreaterThan(30);
    expect(await shownPercent(env.page, 'md0')).toBeCloseTo(percent, 0);

    // Paused: no speed, no estimates.
    expect(await syncSectionText(env.page, 'md0')).not.toMatch(/Speed:|estimate:/);
    expect(await healthText(env.page, 'md0')).toBe('Clean');
    expect((await cardFacts(env.page, 'md0')).Disks).toBe('2 of 2 working');
});

test('inside the Cockpit shell: the same paused resync', async () => {
    const shell = await env.shellPage('md0');
    await syncSection(shell.frame, 'md0').waitFor();
    expect(await syncExplanation(shell.frame, 'md0')).toBe('Paused (frozen): the sync makes no progress until it is resumed.');
    expect(await shownPercent(shell.frame, 'md0')).toBe(await shownPercent(env.page, 'md0'));
});

test('writing idle to sync_action lets the resync run again, from where it was', async () => {
    const stoppedAt = await shownPercent(env.page, 'md0');
    await env.writeSim('/sys/block/md0/md/sync_action', 'idle\n');
    await waitUntil('resync running in the simulated mdstat', async () =>
        (await simMdstat(env)).get('md0')!.sync?.state === 'running', 10000);

    await waitUntil('page shows the resync running with a speed', async () =>
        await syncExplanation(env.page, 'md0') === null &&
        /Speed: \d/.test(await syncSectionText(env.page, 'md0') ?? ''), 10000);
    expect(await syncTitle(env.page, 'md0')).toBe('Resync');
    expect(await syncFact(env.page, 'md0', 'Speed')).toMatch(/^\d+(\.\d+)? MiB\/s \(\d+ KiB\/s\)$/);

    const { before, shown, after } = await shownPercentBetweenSimReads(env, env.page, 'md0');
    expect(shown).toBeGreaterThanOrEqual(before);
    expect(shown).toBeLessThanOrEqual(after);
    // It resumed at the frozen position, not from 0.
    expect(before).toBeGreaterThanOrEqual(Math.floor(stoppedAt) - 1);
});
