// SPDX-License-Identifier: LGPL-2.1-or-later
// md0: a RAID5 with a faulty member and no spare, degraded [4/3] [UU_U]; md1: a RAID1 left
// inactive with one known device. The overview lists both, worst first; each array's page must name
// the faulty disk, its error count, the empty slot, and show md1 as inactive, all as the kernel
// reports them.

import { setupRaidtune } from '../harness/env';
import {
    cardFacts, healthText, memberRows, overviewRowTexts, showArrayPage, shownArrays, simMdstat, simValue, syncSection,
} from '../harness/raidtunePage';

const env = setupRaidtune({ scenario: 'degraded-failed', readySelector: 'table.raidtune-overview' });

test('the overview lists both arrays, worst first: both are at risk, so by name', async () => {
    const truth = [...(await simMdstat(env)).keys()];
    // mdstat lists md1 first: the overview's order is by risk, then by name, not the kernel's.
    expect(truth).toEqual(['md1', 'md0']);
    expect((await overviewRowTexts(env.page)).map(row => row.name)).toEqual(['md0', 'md1']);
    // No card at the overview: each array has its own page.
    expect(await shownArrays(env.page)).toEqual([]);
});

test('md0: RAID 5, degraded, 3 of 4 working', async () => {
    const md0 = (await simMdstat(env)).get('md0')!;
    expect(md0.status).toBe('UU_U');
    expect(await simValue(env, '/sys/block/md0/md/degraded')).toBe('1');

    const card = await showArrayPage(env.page, 'md0');
    expect(await shownArrays(env.page)).toEqual(['md0']);
    expect(await card.locator('.pf-v6-c-card__header').innerText()).toContain('RAID 5');
    expect(await healthText(env.page, 'md0')).toBe('Degraded');
    const facts = await cardFacts(env.page, 'md0');
    expect(facts.Disks).toBe(`${md0.disks!.active} of ${md0.disks!.total} working`);
    expect(facts.Disks).toBe('3 of 4 working');
    expect(facts['Kernel state']).toBe(await simValue(env, '/sys/block/md0/md/array_state'));
    expect(facts['Chunk size']).toBe(`${md0.chunkKiB} KiB`);
    // Nothing to rebuild onto: no sync.
    expect(await syncSection(env.page, 'md0').count()).toBe(0);
});

test('md0: the faulty member with its error count, and the empty slot', async () => {
    const dev = (name: string, attr: string) => simValue(env, `/sys/block/md0/md/dev-${name}/${attr}`);
    const expected = [];
    for (const name of ['sda1', 'sdb1', 'sdd1'])
        expected.push({ device: `/dev/${name}`, role: `Active, slot ${await dev(name, 'slot')}`, state: await dev(name, 'state'), errors: await dev(name, 'errors') });
    expect(await dev('sdc1', 'state')).toBe('faulty');
    expect(await dev('sdc1', 'slot')).toBe('none');
    const errors = await dev('sdc1', 'errors');
    expect(Number(errors)).toBeGreaterThan(0);
    expected.push({ device: '/dev/sdc1', role: 'Faulty', state: 'faulty', errors });
    // The slot no working member holds: from the sysfs slots, the one missing of 0..raid_disks-1.
    const raidDisks = Number(await simValue(env, '/sys/block/md0/md/raid_disks'));
    const used = await Promise.all(['sda1', 'sdb1', 'sdd1'].map(async n => Number(await dev(n, 'slot'))));
    const empty = Array.from({ length: raidDisks }, (_, i) => i).filter(i => !used.includes(i));
    expect(empty).toEqual([2]);
    expected.push({ device: '—', role: `Slot ${empty[0]} is empty: no working disk`, state: 'missing', errors: '—' });

    expect(await memberRows(env.page, 'md0')).toEqual(expected);
});

test('md1: inactive, with the one device the kernel knows', async () => {
    const md1 = (await simMdstat(env)).get('md1')!;
    expect(md1.state).toBe('inactive');
    expect(await simValue(env, '/sys/block/md1/md/array_state')).toBe('inactive');

    expect(await healthText(env.page, 'md1')).toBe('Inactive');
    const facts = await cardFacts(env.page, 'md1');
    expect(facts['Kernel state']).toBe('inactive');
    // Not "2 of 2 working": nothing works in an array that is not running.
    const raidDisks = await simValue(env, '/sys/block/md1/md/raid_disks');
    expect(facts.Disks).toBe(`Not started (${md1.members.length} of ${raidDisks} devices present)`);
    expect(facts.Disks).toBe('Not started (1 of 2 devices present)');
    expect(await syncSection(env.page, 'md1').count()).toBe(0);
    const rows = await memberRows(env.page, 'md1');
    expect(rows.filter(r => r.device !== '—').map(r => r.device)).toEqual(md1.members.map(m => `/dev/${m.name}`));
});
