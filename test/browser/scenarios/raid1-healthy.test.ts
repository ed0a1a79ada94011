// SPDX-License-Identifier: LGPL-2.1-or-later
// Two mirrored 4 TB disks, clean and idle: the quiet case. Everything shown must match the
// simulated kernel's files, nothing syncs, and the page refreshes at the slow idle pace.

import { setupRaidtune } from '../harness/env';
import {
    arrayCard, cardFacts, healthText, memberRows, renderedRefreshes, showOverview, shownArrays, simMdstat, simNumber,
    simValue, syncSection, waitUntil, warningAlerts,
} from '../harness/raidtunePage';

const env = setupRaidtune({ scenario: 'raid1-healthy', arrayPage: 'md0' });

const TiB = 1024 ** 3; // in KiB

test('shows the clean mirror the kernel holds', async () => {
    const md0 = (await simMdstat(env)).get('md0')!;
    expect(md0.level).toBe('raid1');
    expect(md0.sync).toBeNull();

    expect(await shownArrays(env.page)).toEqual(['md0']);
    const card = arrayCard(env.page, 'md0');
    expect(await card.locator('h2').innerText()).toBe('/dev/md0');
    expect(await card.locator('.pf-v6-c-card__header').innerText()).toContain('RAID 1');
    expect(await healthText(env.page, 'md0')).toBe('Clean');

    const bitmapChunkBytes = await simNumber(env, '/sys/block/md0/md/bitmap/chunksize');
    expect(await simValue(env, '/sys/block/md0/md/bitmap/location')).toMatch(/^[+-]\d+$/); // internal
    const facts = await cardFacts(env.page, 'md0');
    expect(facts).toMatchObject({
        'Size': `${(md0.blocks! / TiB).toFixed(2)} TiB`,
        'Disks': `${md0.disks!.total} of ${md0.disks!.total} working`,
        'Kernel state': await simValue(env, '/sys/block/md0/md/array_state'),
        'Metadata': await simValue(env, '/sys/block/md0/md/metadata_version'),
        'Chunk size': '—', // raid1 has none
        'Bitmap': `Internal, ${bitmapChunkBytes / 1024 / 1024} MiB chunks`,
    });
    expect(facts.Mismatches).toBeUndefined();
    expect(facts.Disks).toBe('2 of 2 working');
    expect(facts.Bitmap).toBe('Internal, 64 MiB chunks');
    expect(await warningAlerts(env.page)).toEqual([]);
});

test('lists both members in their slots and no sync section', async () => {
    const expected = [];
    for (const member of ['sda1', 'sdb1']) {
        const dir = `/sys/block/md0/md/dev-${member}`;
        expected.push({
            device: `/dev/${member}`,
            role: `Active, slot ${await simValue(env, `${dir}/slot`)}`,
            state: await simValue(env, `${dir}/state`),
            errors: await simValue(env, `${dir}/errors`),
        });
    }
    expect(await memberRows(env.page, 'md0')).toEqual(expected);
    expect(expected.map(m => m.role)).toEqual(['Active, slot 0', 'Active, slot 1']);

    expect(await syncSection(env.page, 'md0').count()).toBe(0);
    expect(await arrayCard(env.page, 'md0').innerText()).not.toMatch(/Resync|Rebuild|Check|Waiting|Pending/);
});

test('shows the global limits, which are the kernel defaults here', async () => {
    // A host setting: on the overview, not on the array's page.
    await showOverview(env.page);
    const min = await simNumber(env, '/proc/sys/dev/raid/speed_limit_min');
    const max = await simNumber(env, '/proc/sys/dev/raid/speed_limit_max');
    expect([min, max]).toEqual([1000, 200000]);
    const text = await env.page.locator('#global-limits').innerText();
    expect(text).toContain(`Minimum: 0.98 MiB/s (${min} KiB/s), the kernel default`);
    expect(text).toContain(`Maximum: 195 MiB/s (${max} KiB/s), the kernel default`);
});

test('refreshes at the idle pace (about every 10 s), not the busy one', async () => {
    // The page's own record of when each refresh started: the page has been open since beforeAll,
    // so the second refresh comes ~10 s after the first (at the busy pace it would be 2 s).
    const refreshStarts = () => env.page.evaluate(() =>
        (performance.getEntriesByName('raidtune:refresh') as PerformanceMeasure[]).map(e => e.startTime));
    const starts = await waitUntil('two refreshes', async () => {
        const s = await refreshStarts();
        return s.length >= 2 && await renderedRefreshes(env.page) >= 2 ? s : null;
    }, 15000);
    const gaps = starts.slice(1).map((s, i) => s - starts[i]);
    for (const gap of gaps) {
        expect(gap).toBeGreaterThan(6000);
        expect(gap).toBeLessThan(15000);
    }

    // And live: right after a refresh, nothing for 4 s.
    const after = await renderedRefreshes(env.page);
    await new Promise(resolve => setTimeout(resolve, 4000));
    expect(await renderedRefreshes(env.page)).toBe(after);
});
