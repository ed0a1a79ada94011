// SPDX-License-Identifier: LGPL-2.1-or-later
// "Layout and alignment" (issue #6) on a simulated host: a RAID5 whose first member's
// partition starts at the old DOS sector 63, and a mirror. What the page says is checked against
// the simulated kernel's files (chunk_size, raid_disks, each member's partition start and md data
// offset) and against stride/stripe width worked out by hand. Each array's section is on its own
// page (#/md0, #/md1).

import type { Locator } from 'playwright-core';
import { customScenario } from './harness/customScenario';
import { setupRaidtune } from './harness/env';
import { formatViolations, runAxe, severe } from './harness/cockpitSettings';
import { arrayCard, showArrayPage, simNumber, warningAlerts } from './harness/raidtunePage';

const TB2 = 2000398934016;
const RAID5_DISKS = ['sda', 'sdb', 'sdc', 'sdd'];
const SCENARIO = {
    name: 'layout',
    description: 'RAID5 of four partitions, the first at sector 63, partitioned itself; RAID1 of two whole disks.',
    disks: [
        ...RAID5_DISKS.map((name, i) => ({
            name, kind: 'sata', sizeBytes: TB2, partitions: [{ number: 1, ...(i === 0 ? { startSector: 63 } : {}) }],
        })),
        ...['sde', 'sdf'].map(name => ({ name, kind: 'sata', sizeBytes: TB2 })),
    ],
    arrays: [
        {
            name: 'md0', level: 'raid5', chunkKiB: 512, members: RAID5_DISKS.map(d => ({ device: `${d}1` })),
            // On the array: md0p1 at 1 MiB (a chunk, not a 1536 KiB stripe), md0p2 on a full stripe.
            partitions: [{ number: 1, sizeBytes: 2 ** 30 }, { number: 2, startSector: 3 * 2 ** 21 }],
        },
        { name: 'md1', level: 'raid1', members: [{ device: 'sde' }, { device: 'sdf' }] },
    ],
};

const env = setupRaidtune({ scenario: customScenario('layout', SCENARIO).file, arrayPage: 'md1' });

function section(array: string): Locator {
    return arrayCard(env.page, array).locator('.raidtune-layout');
}

/** The array's section on its page, opened (a page shown again starts with it closed). */
async function expand(array: string): Promise<Locator> {
    await showArrayPage(env.page, array);
    const toggle = section(array).getByRole('button', { name: 'Layout and alignment' });
    if (await toggle.getAttribute('aria-expanded') !== 'true') await toggle.click();
    // The details' code may still be on its way (a chunk of its own): the section opens once it is.
    await section(array).locator('tbody tr[data-layout-member]').first().waitFor();
    return section(array);
}

/** The alignment table as the user reads it: device -> [starts at, data offset, data starts at, verdict]. */
async function alignmentRows(array: string): Promise<Record<string, string[]>> {
    const rows = section(array).locator('tbody tr[data-layout-member]');
    const result: Record<string, string[]> = {};
    for (const row of await rows.all()) {
        const cells = (await row.locator('td').allInnerTexts()).map(t => t.trim());
        result[cells[0]] = cells.slice(1);
    }
    return result;
}

test('collapsed by default: a toggle per array, saying when devices are misaligned, and nothing else rendered', async () => {
    for (const array of ['md0', 'md1']) {
        await showArrayPage(env.page, array);
        const toggle = section(array).getByRole('button', { name: 'Layout and alignment' });
        expect(await toggle.getAttribute('aria-expanded')).toBe('false');
        expect(await section(array).locator('table, pre').count()).toBe(0);
        // md0: the member sda1 at sector 63 and the partition md0p1 off the stripe; md1: nothing.
        expect(await section(array).getByRole('button').innerText())
            .toBe(array === 'md0' ? 'Layout and alignment: 2 devices misaligned' : 'Layout and alignment');
    }
});

test('RAID5: the stripe geometry follows from the kernel\'s chunk size and disk count', async () => {
    const chunkKiB = await simNumber(env, '/sys/block/md0/md/chunk_size') / 1024;
    const dataDisks = await simNumber(env, '/sys/block/md0/md/raid_disks') - 1;
    expect([chunkKiB, dataDisks]).toEqual([512, 3]);

    const layout = await expand('md0');
    const facts = Object.fromEntries(await layout.locator('.raidtune-layout-geometry .pf-v6-c-description-list__group').evaluateAll(
        groups => groups.map(g => [...g.children].map(e => (e as HTMLElement).innerText.trim()))));
    expect(facts).toEqual({
        'Chunk size': '512 KiB',
        'Data disks': '3',
        'Stripe width': '1536 KiB (512 KiB × 3)',
        'ext4': 'stride=128, stripe_width=384 (4 KiB blocks)',
        'XFS': 'su=512k, sw=3',
    });
});

test('RAID5: the member at sector 63 is named as misaligned, the ones at 2048 are aligned', async () => {
    await expand('md0');
    const offset = await simNumber(env, '/sys/block/md0/md/dev-sda1/offset');
    // mdadm's default for 2 TB members: 129 MiB, so the partition start decides the alignment.
    expect(offset).toBe(264192);
    expect(await simNumber(env, '/sys/block/sda/sda1/start')).toBe(63);
    const rows = await alignmentRows('md0');
    expect(Object.keys(rows)).toEqual(['/dev/sda1', '/dev/sdb1', '/dev/sdc1', '/dev/sdd1']);
    expect(rows['/dev/sda1'].slice(0, 3)).toEqual(['63 (31.5 KiB)', '264192 (129 MiB)', '264255 (132127.5 KiB)']);
    expect(rows['/dev/sda1'][3]).toMatch(/^Misaligned \(not on 4 KiB\)\nNot a multiple of 4 KiB/);
    for (const device of ['/dev/sdb1', '/dev/sdc1', '/dev/sdd1'])
        expect(rows[device]).toEqual(['2048 (1 MiB)', '264192 (129 MiB)', '266240 (130 MiB)', 'Aligned (1 MiB and the chunk)']);
    expect(await warningAlerts(env.page)).toEqual(['Misaligned member: sda1', 'Misaligned partition on the array: md0p1']);
});

test('RAID5: the partitions made on the array, checked against its chunk and full stripe', async () => {
    const layout = await expand('md0');
    const starts = [await simNumber(env, '/sys/block/md0/md0p1/start'), await simNumber(env, '/sys/block/md0/md0p2/start')];
    expect(starts).toEqual([2048, 6291456]);
    const rows = await layout.locator('.raidtune-layout-partitions tbody tr').evaluateAll(
        trs => trs.map(tr => [...tr.querySelectorAll('td')].map(td => (td as HTMLElement).innerText.trim())));
    expect(rows.map(r => r.slice(0, 2))).toEqual([['/dev/md0p1', '2048 (1 MiB)'], ['/dev/md0p2', '6291456 (3072 MiB)']]);
    expect(rows[0][2]).toMatch(/^On a chunk, not on a full stripe\nOn a chunk boundary but not on a full 1536 KiB stripe/);
    expect(rows[1][2]).toBe('Aligned');
    expect(await layout.locator('.raidtune-layout-commands pre').innerText()).toBe([
        'mkfs.ext4 -E stride=128,stripe_width=384 /dev/md0p1', 'mkfs.xfs -d su=512k,sw=3 /dev/md0p1',
        'mkfs.ext4 -E stride=128,stripe_width=384 /dev/md0p2', 'mkfs.xfs -d su=512k,sw=3 /dev/md0p2',
    ].join('\n'));
    expect(await layout.locator('.raidtune-layout-note').innerText())
        .toMatch(/^These commands create new, empty file systems on \/dev\/md0p1, \/dev\/md0p2 and erase what is there/);
});

test('RAID5: the copy button puts the mkfs lines on the clipboard', async () => {
    await env.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.cockpit.origin });
    const layout = await expand('md0');
    await layout.getByRole('button', { name: 'Copy the commands' }).click();
    await layout.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    expect(await env.page.evaluate(() => navigator.clipboard.readText()))
        .toBe(await layout.locator('.raidtune-layout-commands pre').innerText());
    expect(await env.page.evaluate(() => navigator.clipboard.readText())).toMatch(/^mkfs\.ext4 -E stride=128,stripe_width=384 \/dev\/md0p1\n/);
});

test('RAID1: no stripe advice, whole disks start at sector 0 and md\'s offset is aligned', async () => {
    const layout = await expand('md1');
    expect(await layout.locator('.raidtune-layout-nostripe').innerText()).toMatch(/^RAID 1 keeps a full copy on every disk and has no stripes/);
    expect(await layout.locator('pre').count()).toBe(0);
    const offset = await simNumber(env, '/sys/block/md1/md/dev-sde/offset');
    const rows = await alignmentRows('md1');
    expect(rows['/dev/sde']).toEqual(['0', `${offset} (${offset / 2048} MiB)`, `${offset} (${offset / 2048} MiB)`, 'Aligned (1 MiB)']);
});

test('the opened sections pass axe, each on its array\'s page', async () => {
    for (const array of ['md0', 'md1']) {
        await expand(array);
        const bad = severe(await runAxe(env.page));
        expect(formatViolations(bad)).toBe('');
    }
});
