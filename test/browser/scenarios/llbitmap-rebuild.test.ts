// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #35 item 4: syncs on the lockless bitmap (the llbitmap-rebuild scenario). md's position walks
// the whole device and its finish= counts all of it; md syncs only the written chunks (a rebuild)
// or those marked "need sync" (a resync). The page says what md syncs and how much is left, from
// md/llbitmap/bits, and its estimate is that over md's speed: minutes where the kernel says hours.
// "What sets the pace" judges md's sync I/O, not the position's progress.

import { setupRaidtune } from '../harness/env';
import { arrayCard, showArrayPage, simValue, waitUntil } from '../harness/raidtunePage';
import { waitBudget } from '../../../tools/cockpit/waitBudget';

const env = setupRaidtune({ scenario: 'llbitmap-rebuild', arrayPage: 'md1' });

const fact = (array: string, name: string) =>
    arrayCard(env.page, array).locator('.raidtune-sync-fact', { hasText: `${name}:` });
const factText = async (array: string, name: string) =>
    (await fact(array, name).innerText()).replace(/^[^:]*:\s*/, '').replace(/\s+/g, ' ').trim();

/** "7 min 3 s", "1 h 2 min", "3 d 4 h" in seconds. */
function seconds(duration: string): number {
    const units: Record<string, number> = { d: 86400, h: 3600, min: 60, s: 1 };
    const parts = [...duration.matchAll(/(\d+) (d|h|min|s)\b/g)];
    if (!parts.length) throw new Error(`not a duration: ${duration}`);
    return parts.reduce((sum, [, n, unit]) => sum + Number(n) * units[unit], 0);
}

const GIB_KIB = 1024 * 1024;

/** From the simulated kernel's own files: [share of chunks marked, of them left (GiB), md's speed (KiB/s)]. */
async function markedLeft(array: string): Promise<{ share: number; leftGiB: number; speedKiBs: number }> {
    const bits = Object.fromEntries((await simValue(env, `/sys/block/${array}/md/llbitmap/bits`)).split('\n')
        .map(line => [line.replace(/ \d+$/, ''), Number(/(\d+)$/.exec(line)![1])]));
    const chunks = bits.unwritten + bits.clean + bits.dirty + bits['need sync'] + bits.syncing;
    const share = (bits['need sync'] + bits.syncing) / chunks;
    const componentKiB = Number(await simValue(env, `/sys/block/${array}/md/component_size`));
    return { share, leftGiB: share * componentKiB / GIB_KIB, speedKiBs: Number(await simValue(env, `/sys/block/${array}/md/sync_speed`)) };
}

test('a resync: md syncs the chunks marked "need sync", and the estimate is theirs at md\'s speed, not the whole disk\'s', async () => {
    await fact('md1', 'What md syncs').waitFor();
    await waitUntil('an estimate', async () => /for the/.test(await factText('md1', 'Average-speed estimate')));
    const truth = await markedLeft('md1');
    const scope = /^only the chunks the lockless bitmap marks "need sync": ([\d.]+) GiB left \((\d+\.\d)% of the disk\)$/
        .exec(await factText('md1', 'What md syncs'));
    expect(scope).not.toBeNull();
    // The page read the bits a refresh or two before this test did: the resync moved on since.
    expect(Number(scope![1]) / truth.leftGiB).toBeGreaterThanOrEqual(0.97);
    expect(Number(scope![1]) / truth.leftGiB).toBeLessThan(1.25);
    expect(Number(scope![2]) / 100 / truth.share).toBeLessThan(1.25);
    const estimate = /^(.+) for the ([\d.]+) GiB md has left to sync, at its speed now$/.exec(await factText('md1', 'Average-speed estimate'));
    expect(estimate).not.toBeNull();
    const expected = truth.leftGiB * GIB_KIB / truth.speedKiBs;
    expect(seconds(estimate![1]) / expected).toBeGreaterThanOrEqual(0.97);
    expect(seconds(estimate![1]) / expected).toBeLessThan(1.3);
    // The kernel's finish= divides the whole rest of the device by the same speed: hours, not minutes.
    expect(seconds(await factText('md1', 'Kernel estimate'))).toBeGreaterThan(20 * seconds(estimate![1]));
    await arrayCard(env.page, 'md1').locator('.raidtune-sync-facts').first().screenshot({ path: 'test-results/screenshots/llbitmap-resync.png' });
});

test('a rebuild: md reads the written chunks only, 20% of the disk, and the estimate is their share of what is left', async () => {
    await showArrayPage(env.page, 'md0');
    await waitUntil('an estimate', async () => /for the/.test(await factText('md0', 'Average-speed estimate')));
    // md's position, as /proc/mdstat shows it (KiB per disk).
    const [, done, total] = /md0 :[^]*?recovery = .*?\((\d+)\/(\d+)\)/.exec(await simValue(env, '/proc/mdstat'))!.map(Number);
    const leftGiB = 0.2 * (total - done) / GIB_KIB;
    const scope = /^only the chunks written since the array was created, 20\.0% of the disk: about ([\d.]+) GiB left$/
        .exec(await factText('md0', 'What md syncs'));
    expect(scope).not.toBeNull();
    // Read a refresh or two before this test did: a little more was left then.
    expect(Number(scope![1]) / leftGiB).toBeGreaterThanOrEqual(0.99);
    expect(Number(scope![1]) / leftGiB).toBeLessThan(1.02);
    const estimate = /^(.+) for the ([\d.]+) GiB md has left to sync, at its speed now$/.exec(await factText('md0', 'Average-speed estimate'));
    const speedKiBs = Number(await simValue(env, '/sys/block/md0/md/sync_speed'));
    expect(seconds(estimate![1]) / (Number(estimate![2]) * GIB_KIB / speedKiBs)).toBeCloseTo(1, 1);
    expect(seconds(await factText('md0', 'Kernel estimate'))).toBeGreaterThan(4 * seconds(estimate![1]));
});

test('why it runs at this pace: the disks, judged by the sync\'s I/O, not by its position, which runs five times as fast', async () => {
    const section = arrayCard(env.page, 'md0').locator('.raidtune-diagnosis');
    // A verdict needs 10 s of samples at the 2 s refresh; allow for a loaded machine.
    const clear = section.locator('.raidtune-diagnosis-clear');
    await clear.waitFor({ timeout: waitBudget(40000) });
    expect(await clear.innerText()).toMatch(/^The member disks set the pace: sd[a-d] is busy (99|100)% of the time\./);
    expect(await section.locator('[data-finding]').count()).toBe(0);
});
