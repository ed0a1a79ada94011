// SPDX-License-Identifier: LGPL-2.1-or-later
// Two RAID1 arrays on partitions of the same two disks: md resyncs one at a time, so md0 runs and
// md1 waits with resync=DELAYED. The page must say who md1 waits for, and follow the hand-over.
//
// Letting md0 *finish* within a test is not possible with this scenario: md0 has ~70% of 100 GiB
// per disk left and already runs at the disks' bandwidth (160 MB/s, the kernel's
// speed=160000K/sec), which no sync_speed_min/max can raise (mdsim caps every sync at its slowest
// disk, as real disks do): ~7.5 min. What the test does instead is what an administrator does to
// let md1 go first, and what frees the disks for md1 in the kernel just the same: freeze md0
// (`echo frozen > sync_action`). Unfreezing md0 then makes *it* wait for md1.

import { setupRaidtune } from '../harness/env';
import {
    arrayCard, cardFacts, healthText, showArrayPage, shownPercentBetweenSimReads, simMdstat, simValue, syncExplanation,
    syncFact, syncSectionText, syncTitle, waitForRefreshes, waitUntil,
} from '../harness/raidtunePage';

const env = setupRaidtune({ scenario: 'shared-disks', arrayPage: 'md1' });

const waitingFor = (name: string) =>
    `Waiting: another array on the same disks is syncing (${name}). This one starts when it finishes.`;

test('md0 resyncs with the progress mdstat reports', async () => {
    const truth = (await simMdstat(env)).get('md0')!.sync!;
    expect(truth).toMatchObject({ action: 'resync', state: 'running' });
    await showArrayPage(env.page, 'md0');
    expect(await syncTitle(env.page, 'md0')).toBe('Resync');
    // It moves (~0.15%/s): what the page shows lies between two reads of the file around it.
    const { before, shown, after } = await shownPercentBetweenSimReads(env, env.page, 'md0');
    expect(before).toBeGreaterThan(25);
    expect(shown).toBeGreaterThanOrEqual(before);
    expect(shown).toBeLessThanOrEqual(after);
    expect(await syncFact(env.page, 'md0', 'Speed')).toMatch(/^\d+(\.\d+)? MiB\/s \(\d+ KiB\/s\)$/);
    expect(await syncExplanation(env.page, 'md0')).toBeNull();
    expect(await healthText(env.page, 'md0')).toBe('Clean');
});

test('md1 waits for md0 and says so', async () => {
    const md1 = (await simMdstat(env)).get('md1')!;
    expect(md1.sync).toMatchObject({ action: 'resync', state: 'delayed' });
    expect(await simValue(env, '/sys/block/md1/md/sync_completed')).toBe('delayed');

    await showArrayPage(env.page, 'md1');
    expect(await syncTitle(env.page, 'md1')).toBe('Resync');
    expect(await syncExplanation(env.page, 'md1')).toBe(waitingFor('md0'));
    // Not running: no speed and no estimates for it.
    expect(await syncSectionText(env.page, 'md1')).not.toMatch(/Speed:|estimate:/);
    expect((await cardFacts(env.page, 'md1')).Bitmap).toBe('Internal, 64 MiB chunks');
});

test('a higher minimum for md0 shows as set for the array, but the disks already set the pace', async () => {
    const before = Number((await syncFact(env.page, 'md0', 'Speed')).match(/\((\d+) KiB\/s\)/)![1]);
    await env.writeSim('/sys/block/md0/md/sync_speed_min', '500000\n');
    await waitUntil('the kernel took the local limit', async () =>
        await simValue(env, '/sys/block/md0/md/sync_speed_min') === '500000 (local)', 10000);
    await waitUntil('the page shows the local limit', async () =>
        await syncFact(env.page, 'md0', 'Minimum speed') === '488 MiB/s (500000 KiB/s), set for this array', 10000);
    expect(await syncFact(env.page, 'md1', 'Minimum speed')).toBe('0.98 MiB/s (1000 KiB/s), from the system limit');
    // Still the disks' bandwidth (160000 KiB/s in mdsim): md0 cannot end within this test.
    await waitForRefreshes(env.page, 1);
    const after = Number((await syncFact(env.page, 'md0', 'Speed')).match(/\((\d+) KiB\/s\)/)![1]);
    expect(after).toBeLessThanOrEqual(Math.max(before, 160000) * 1.05);
});

test('md0 frozen: md1 takes the disks and resyncs; md0 unfrozen waits for md1', async () => {
    await env.writeSim('/sys/block/md0/md/sync_action', 'frozen\n');

    // The kernel side first: md1 runs, md0 is frozen.
    await waitUntil('md1 running in the simulated mdstat', async () =>
        (await simMdstat(env)).get('md1')!.sync?.state === 'running', 10000);
    expect(await simValue(env, '/sys/block/md0/md/sync_action')).toBe('frozen');

    // The page: md1's explanation is gone and it shows a running resync with a speed.
    await waitUntil('md1 shown running', async () =>
        await syncExplanation(env.page, 'md1') === null &&
        /Speed: \d/.test(await syncSectionText(env.page, 'md1') ?? ''), 10000);
    expect(await syncTitle(env.page, 'md1')).toBe('Resync');
    const md1 = await shownPercentBetweenSimReads(env, env.page, 'md1');
    expect(md1.shown).toBeGreaterThanOrEqual(md1.before);
    expect(md1.shown).toBeLessThanOrEqual(md1.after);
    expect(await syncExplanation(env.page, 'md0')).toBe('Paused (frozen): the sync makes no progress until it is resumed.');

    // Unfreeze md0: it wants to resync again, but md1 holds the disks now.
    await env.writeSim('/sys/block/md0/md/sync_action', 'idle\n');
    await waitUntil('md0 delayed in the simulated mdstat', async () =>
        (await simMdstat(env)).get('md0')!.sync?.state === 'delayed', 10000);
    await waitUntil('md0 shown waiting for md1', async () => await syncExplanation(env.page, 'md0') === waitingFor('md1'), 10000);
    expect(await syncExplanation(env.page, 'md1')).toBeNull();
});

test('inside the Cockpit shell: the same hand-over is shown', async () => {
    const shell = await env.shellPage('md0');
    await arrayCard(shell.frame, 'md0').waitFor();
    await waitUntil('md0 waiting in the shell', async () => await syncExplanation(shell.frame, 'md0') === waitingFor('md1'), 10000);
    await showArrayPage(shell.frame, 'md1');
    expect(await syncTitle(shell.frame, 'md1')).toBe('Resync');
    expect(await syncExplanation(shell.frame, 'md1')).toBeNull();
});
