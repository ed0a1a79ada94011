// SPDX-License-Identifier: LGPL-2.1-or-later
// A RAID5 growing from 3 to 4 disks, 23% through the reshape: the page must show the disk count
// change the kernel reports in raid_disks ("4 (3)") and the reshape's real progress.

import { setupRaidtune } from '../harness/env';
import { arrayCard, cardFacts, changeDialog, dialogButton, healthText, memberRows, openArrayDialog, shownPercentBetweenSimReads, simMdstat, simValue, syncExplanation, syncFact, syncTitle } from '../harness/raidtunePage';
import { waitBudget } from '../../../tools/cockpit/waitBudget';

const env = setupRaidtune({ scenario: 'raid5-reshape', arrayPage: 'md0' });

test('shows the reshape with the disk counts from raid_disks', async () => {
    const raidDisks = (await simValue(env, '/sys/block/md0/md/raid_disks')).match(/^(\d+) \((\d+)\)$/);
    expect(raidDisks).not.toBeNull();
    const [, to, from] = raidDisks!;
    expect(await syncTitle(env.page, 'md0')).toBe(`Reshape from ${from} to ${to} disks`);
    expect(await syncTitle(env.page, 'md0')).toBe('Reshape from 3 to 4 disks');
    expect(await syncExplanation(env.page, 'md0')).toBeNull();
});

test('shows the percent mdstat reports for the reshape, not 0', async () => {
    const truth = (await simMdstat(env)).get('md0')!;
    expect(truth.sync).toMatchObject({ action: 'reshape', state: 'running' });
    const { before, shown, after } = await shownPercentBetweenSimReads(env, env.page, 'md0');
    expect(before).toBeGreaterThan(20);
    expect(shown).toBeGreaterThanOrEqual(before);
    expect(shown).toBeLessThanOrEqual(after);

    // Running: its speed is the one mdstat reports (~45 MB/s: half the disks' 90 MB/s).
    const speed = await syncFact(env.page, 'md0', 'Speed');
    expect(speed).toMatch(/^\d+(\.\d+)? MiB\/s \((\d+) KiB\/s\)$/);
    const kiBs = Number(speed.match(/\((\d+) KiB\/s\)/)![1]);
    expect(kiBs).toBeGreaterThan(30000);
    expect(kiBs).toBeLessThan(60000);
    expect(await syncFact(env.page, 'md0', 'Kernel estimate')).toMatch(/^\d+ h \d+ min$/);
    // mdstat counts the reshape in KiB per member device.
    expect(await syncFact(env.page, 'md0', 'Done')).toMatch(new RegExp(` of ${(truth.sync!.total! / 1024 ** 3).toFixed(2)} TiB per disk$`));
});

test('shows the array healthy with all of its new disks working', async () => {
    const md0 = (await simMdstat(env)).get('md0')!;
    expect(md0.disks).toEqual({ total: 4, active: 4 });
    expect(await simValue(env, '/sys/block/md0/md/degraded')).toBe('0');

    const facts = await cardFacts(env.page, 'md0');
    expect(facts.Disks).toBe(`${md0.disks!.active} of ${md0.disks!.total} working`);
    expect(facts.Disks).toBe('4 of 4 working');
    expect(facts['Chunk size']).toBe(`${md0.chunkKiB} KiB`);
    expect(facts['Kernel state']).toBe(await simValue(env, '/sys/block/md0/md/array_state'));
    expect(await healthText(env.page, 'md0')).toBe('Clean');
    expect(await arrayCard(env.page, 'md0').locator('.pf-v6-c-card__header').innerText()).toContain('RAID 5');

    // Read with the diagnosis' what-if table on the card too (it comes once the page has 10 s of
    // samples): the members are told apart from its rows by their own table.
    await arrayCard(env.page, 'md0').getByRole('table', { name: 'What if: the finish time of md0 with each change' })
        .waitFor({ timeout: waitBudget(40000) });
    const rows = await memberRows(env.page, 'md0');
    const expected = [];
    for (const m of ['sdb1', 'sdc1', 'sdd1', 'sde1'])
        expected.push({ device: `/dev/${m}`, role: `Active, slot ${await simValue(env, `/sys/block/md0/md/dev-${m}/slot`)}` });
    expect(rows.map(r => ({ device: r.device, role: r.role }))).toEqual(expected);
});

test('a stripe cache smaller than the running reshape needs is refused with the reason, and nothing is written', async () => {
    // 512 KiB chunks: the kernel reshapes with four chunks of 4 KiB stripes in the cache, 4 x 128 = 512.
    expect(await simValue(env, '/sys/block/md0/md/chunk_size')).toBe('524288');
    await openArrayDialog(env.page, 'md0', 'Stripe cache…');
    const dialog = changeDialog(env.page);
    const field = dialog.getByLabel('Entries (17 to 32768)');
    const error = dialog.locator('.pf-v6-c-helper-text__item.pf-m-error');
    for (const tooFew of ['17', '256', '511']) {
        await field.fill(tooFew);
        await field.blur();
        // (PatternFly adds ": error status;" for screen readers)
        await expect(error.innerText()).resolves.toMatch(
            /^The running reshape needs at least 512 entries: four stripes per 4 KiB of its 512 KiB chunk\. With fewer it stalls\./);
        expect(await dialogButton(env.page, 'Apply').isDisabled()).toBe(true);
        await expect(dialog.locator('.raidtune-commands').count()).resolves.toBe(0);
    }
    await field.fill('512');
    await expect(dialog.locator('.raidtune-commands').innerText()).resolves.toBe('echo 512 > /sys/block/md0/md/stripe_cache_size');
    await expect(error.count()).resolves.toBe(0);
    await dialogButton(env.page, 'Cancel').click();
    expect(await simValue(env, '/sys/block/md0/md/stripe_cache_size')).toBe('4096');
});
