// SPDX-License-Identifier: LGPL-2.1-or-later
// "Why is it slow?" on the simulated host's slow-rebuilds scenario (one slow sync per reason):
// "gathering data" first, then each array's finding with its numbers, the one with the most to
// gain first; each fix opens the change dialog with the right command and, applied, changes the
// simulated kernel's value, and no fix is offered that the what-if says would not help; axe finds
// nothing serious in the section, in the dark style too. Each array's diagnosis is on its own page
// (#/md0): a test goes to the page of the array it reads, as the overview's link goes there.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { setupRaidtune } from './harness/env';
import { formatViolations, luminance, runAxe, severe } from './harness/cockpitSettings';
import {
    applyPreviewedFix, arrayCard, cardInView, closeLeftoverDialog, showArrayPage, simValue, waitUntil,
} from './harness/raidtunePage';
import { waitBudget } from '../../tools/cockpit/waitBudget';

const stateDir = mkdtempSync(join(tmpdir(), 'raidtune-state-'));
const env = setupRaidtune({ scenario: 'slow-rebuilds', arrayPage: 'md0', config: { stateDir } });

const section = (array: string) => arrayCard(env.page, array).locator('.raidtune-diagnosis');
/** The array's own page, where its diagnosis is. */
const onPage = (array: string) => showArrayPage(env.page, array);
const finding = (array: string, kind: string) => section(array).locator(`[data-finding="${kind}"]`);
/** The sentence of a finding without its fix button's label. */
const sentence = async (item: Locator) => (await item.evaluate(el => {
    const copy = el.cloneNode(true) as HTMLElement;
    copy.querySelectorAll('button').forEach(b => b.remove());
    return copy.textContent ?? '';
})).trim();

/** A verdict needs 10 s of samples at the 2 s refresh; allow for a loaded machine. */
const VERDICT_MS = 40000;

beforeEach(() => closeLeftoverDialog(env.page));

async function applyFix(array: string, button: RegExp, commands: string) {
    await onPage(array);
    await applyPreviewedFix(env.page, section(array).getByRole('button', { name: button }), commands);
}

test('gathering data first, then each array says why it is slow, with its numbers', async () => {
    await onPage('md0');
    await env.page.reload();
    await section('md0').locator('.raidtune-diagnosis-gathering').getByText(/^Gathering data: \d+ samples? over \d+ s so far; a verdict needs at least 3 samples over 10 s\.$/).waitFor();
    await section('md0').getByRole('heading', { name: 'Why is it slow?', level: 3 }).waitFor();

    await finding('md0', 'starved').waitFor({ timeout: waitBudget(VERDICT_MS) });
    // 4000 KiB/s = 3.91 MiB/s; the backup's I/O: 44000 KiB/s (43.0 MiB/s), 73% of what the disks
    // move. Over the first 10 s a sample dated one simulator tick off moves these by ~10%.
    expect(await sentence(finding('md0', 'starved'))).toMatch(
        /^Starved by other I\/O: It runs at [34]\.\d\d MiB\/s per disk, near the minimum of 3\.91 MiB\/s, while other I\/O moves (3[89]|4[0-7])\.\d MiB\/s on the member disks \(7\d% of their traffic\): md gives way to other I\/O down to the minimum\.$/);
    // Ahead of it the stripe cache: md0's hard disks seek and serve a backup, where the benchmark
    // measured a larger cache far ahead of a higher minimum (doc/benchmarks.md, seek-raid6-load).
    expect(await section('md0').locator('[data-finding]').first().getAttribute('data-finding')).toBe('cache-bound');
    expect(await sentence(finding('md0', 'cache-bound'))).toMatch(
        /^The stripe cache holds it back: On hard disks that serve other I\/O too, md sends the sync in batches of at most its stripe cache \(256 entries, full in \d+% of the samples\), and each batch waits behind the other requests and costs the disks a seek\. A larger cache lets md send more at once; how much faster that makes it, raidtune cannot measure\.$/);
    await onPage('md1');
    await finding('md1', 'capped-by-max').waitFor({ timeout: waitBudget(VERDICT_MS) });
    // At least 90% of the maximum (CAPPED_SHARE), what "capped" means: in a first window of 10 s the
    // simulator's counters, read a tick apart on a loaded machine, put it up to 8% under (gate31: 27.0).
    expect(await sentence(finding('md1', 'capped-by-max'))).toMatch(
        /^Capped by the maximum: It runs at (2[6-9]|30)\.\d MiB\/s per disk, at the maximum of 29\.3 MiB\/s that applies to this array: the limit, not the disks, sets the pace\.$/);
    await onPage('md2');
    await finding('md2', 'slow-member').waitFor({ timeout: waitBudget(VERDICT_MS) });
    expect(await sentence(finding('md2', 'slow-member'))).toMatch(
        /^One member holds the sync back: sdj is busy (99|100)% of the time and needs 1\d{3} ms of I\/O per MiB; the other members are busy 1% and need 6\.\d ms\. It moves 0\.[89]\d MiB\/s, they move 0\.[89]\d MiB\/s: the sync waits for it\. A failing or slower disk does this, and so does one that gets more of the other I\/O than its peers\. Check its health with smartctl -a \/dev\/sdj$/);
    expect(await finding('md2', 'slow-member').locator('code').innerText()).toBe('smartctl -a /dev/sdj');
    // md3's disks are busy all the time and its cache full, as a sync at full pace keeps it: no alarm.
    await onPage('md3');
    await section('md3').locator('.raidtune-diagnosis-clear').waitFor({ timeout: waitBudget(VERDICT_MS) });
    expect(await sentence(section('md3').locator('.raidtune-diagnosis-clear'))).toMatch(
        /^The member disks set the pace: sd[l-o] is busy (99|100)% of the time\. Its stripe cache is full, as usual while a sync runs: not what holds it back here\.$/);
    await onPage('md4');
    expect(await sentence(finding('md4', 'frozen'))).toBe(
        'Paused: The sync is frozen (sync_action "frozen") and makes no progress until it is resumed.');
    await onPage('md6');
    expect(await sentence(finding('md6', 'delayed'))).toBe(
        'Waiting for another array: Arrays that share disks sync one at a time: this one starts when md5 finishes.');
    // md5 resyncs as fast as its disks go: nothing to blame.
    await onPage('md5');
    await section('md5').locator('.raidtune-diagnosis-clear').waitFor();
    expect(await sentence(section('md5').locator('.raidtune-diagnosis-clear'))).toMatch(/^The member disks set the pace: sd[rs] is busy (99|100)% of the time\.$/);
});

test('the member the rebuild waits for is marked in the members table and named in the alert, which is danger', async () => {
    const card = await cardInView(env.page, 'md2');
    const sdj = card.locator('table.raidtune-members tr[data-member="sdj"]');
    await sdj.locator('.raidtune-member-mark').getByText('slow: the sync waits for it', { exact: true }).waitFor({ timeout: waitBudget(VERDICT_MS) });
    // Only sdj: its peers are as fast as each other.
    expect(await card.locator('table.raidtune-members .raidtune-member-mark').count()).toBe(1);
    // A RAID 5 rebuilding with 3 of 4 in sync: one more failure loses it, so the alert is danger and
    // says what sdj's failure costs.
    const alert = card.locator('.raidtune-health-alert');
    await expect(alert.getAttribute('class')).resolves.toMatch(/pf-m-danger/);
    expect(await alert.locator('.raidtune-health-slow').innerText()).toMatch(
        /^sdj is far slower than the other members \(disk sdj, [^)]*\): the sync waits for it, as "Why is it slow\?" shows\. A failing disk does this, and so does one that gets more of the other I\/O than its peers: check its health\. If sdj fails before the rebuild ends, the data on md2 is lost\.$/);
    expect((await alert.locator('.raidtune-health-commands pre').innerText()).split('\n')).toEqual(
        ['smartctl -a /dev/sdj', 'mdadm /dev/md2 --add /dev/sdY', 'mdadm /dev/md2 --replace /dev/sdj --with /dev/sdY']);
});

test('the stripe cache gauge calls a cache full where the diagnosis does (90%), not red while a sync runs, with an accessible name', async () => {
    const gauge = async (array: string) => {
        const bar = (await cardInView(env.page, array)).getByRole('progressbar', { name: `Stripe cache of ${array} in use` });
        const root = bar.locator('xpath=ancestor::div[contains(@class, "pf-v6-c-progress")][1]');
        return { percent: Number(await bar.getAttribute('aria-valuenow')), text: (await root.innerText()).trim(),
            danger: (await root.getAttribute('class'))!.split(' ').includes('pf-m-danger') };
    };
    // md3 waits for stripes: the simulated kernel keeps ~95% of its 256 entries in use, never all of them.
    await waitUntil('md3\'s cache above 90% in the kernel', async () => Number(await simValue(env, '/sys/block/md3/md/stripe_cache_active')) > 231, 10000);
    await waitUntil('md3\'s card showing it', async () => (await gauge('md3')).percent > 90, 10000);
    const full = await gauge('md3');
    const inUse = Number(full.text.match(/^256 entries, (\d+) in use: full$/)?.[1]);
    expect(inUse).toBeGreaterThanOrEqual(231);
    expect(inUse).toBeLessThan(256);
    expect(full.percent).toBe(Math.round(inUse / 256 * 100));
    // A sync keeps every stripe it can in use: full is how it looks, no alarm (#33).
    expect(full.danger).toBe(false);
    // md1 is held back by its own maximum: its cache has room.
    const roomy = await gauge('md1');
    expect(roomy.text).toMatch(/^256 entries, \d+ in use$/);
    expect(roomy.percent).toBeLessThan(90);
    expect(roomy.danger).toBe(false);
});

test('the what-if table: each change with its speed and finish time, bounded by the disks', async () => {
    await onPage('md0');
    const table = section('md0').getByRole('table', { name: 'What if: the finish time of md0 with each change' });
    await table.waitFor({ timeout: waitBudget(VERDICT_MS) });
    const rows = await table.locator('tbody tr').evaluateAll(trs => trs.map(tr =>
        [...tr.querySelectorAll('th, td')].map(cell => (cell as HTMLElement).innerText.trim())));
    expect(rows.map(r => [r[0], r[1], r[3]])).toEqual([
        ['No change', expect.stringMatching(/^[34]\.\d\d MiB\/s$/), 'As measured'],
        // The members are ~10% busy moving 16000 KiB/s: ~160000 at most, room for both.
        ['Minimum 10 MiB/s', '10 MiB/s', 'Faster'],
        ['Minimum 50 MiB/s', '50 MiB/s', 'Faster'],
        ['Maximum 2000 MiB/s', expect.stringMatching(/^[34]\.\d\d MiB\/s$/), 'No faster: something else holds it back'],
        // md0's disks seek and serve a backup: faster, by an amount the counters cannot tell.
        ['Stripe cache 4096 entries', '—', 'Faster on hard disks that serve other I/O too, by an amount raidtune cannot measure'],
    ]);
    // 10240 KiB/s is ~2.5x today's speed and 51200 ~12.8x: their finish times shrink accordingly.
    const hours = (text: string) => {
        const m = text.match(/^(?:(\d+) d )?(\d+) h/);
        return m ? Number(m[1] ?? 0) * 24 + Number(m[2]) : NaN;
    };
    const [now, ten, fifty] = rows.map(r => hours(r[2]));
    expect(now / ten).toBeGreaterThan(2.2);
    expect(now / ten).toBeLessThan(2.8);
    expect(now / fifty).toBeGreaterThan(10);
    // md2's slow member bounds every change: none makes it faster (the stripe cache's row says why
    // it never predicts a gain).
    // The table and the evidence are read in one pass, once the evidence names the bound: the
    // verdicts must follow from the figures shown beside them. (Read apart, the table was once
    // read from an earlier window than the evidence, with the machine loaded: gate 23.)
    await onPage('md2');
    const bound = /The member disks can move about 0\.[89]\d MiB\/s per disk at most: sdj is busy (99|100)% of the time\.$/;
    const shown = () => section('md2').evaluate(el => ({
        evidence: (el.querySelector('.raidtune-diagnosis-evidence') as HTMLElement | null)?.innerText.trim() ?? '',
        rows: [...el.querySelectorAll('tbody tr')].map(tr =>
            [tr.getAttribute('data-change'), (tr.querySelector('td:last-child') as HTMLElement).innerText.trim()]),
    }));
    // From a window of 16 samples (30 s) or more: in the first 10 s the progress counter, read a
    // simulator tick apart from the disks' counters on a loaded machine, made 10% of their traffic
    // look like other I/O, and the minimum rows "Limited by sdj" (gate31).
    const samples = (evidence: string) => Number(/\((\d+) samples\)/.exec(evidence)?.[1] ?? 0);
    const slow = await waitUntil('md2\'s what-if beside the evidence of its bound, over 30 s', async () => {
        const now = await shown();
        return bound.test(now.evidence) && samples(now.evidence) >= 16 && now.rows.length > 1 ? now : null;
    }, VERDICT_MS + 30000);
    expect(slow.rows.slice(1)).toEqual(slow.rows.slice(1).map(([change]) => [change, 'No faster: something else holds it back']));
});

test('a program known for heavy I/O on the host is named while other I/O competes, and only then', async () => {
    // A process of the simulated host, as the kernel lists it: /proc/PID/comm.
    mkdirSync(env.simPath('/proc/4242'), { recursive: true });
    writeFileSync(env.simPath('/proc/4242/comm'), 'ext4lazyinit\n');
    await onPage('md0');
    await finding('md0', 'background-jobs').waitFor({ timeout: waitBudget(VERDICT_MS) });
    expect(await sentence(finding('md0', 'background-jobs'))).toMatch(new RegExp(
        '^Background jobs on the host: Other I/O moves [\\d.]+ MiB/s on the member disks, and programs known for heavy disk I/O run on this host ' +
        '\\(raidtune cannot tell which disks they use\\): ext4lazyinit: a new ext4 file system initialising its inode tables'));
    // md1 runs at its maximum with nothing else on its disks: the job is not its problem (its page
    // shows its verdict, from the same refresh as md0's).
    await onPage('md1');
    await finding('md1', 'capped-by-max').waitFor({ timeout: waitBudget(VERDICT_MS) });
    expect(await finding('md1', 'background-jobs').count()).toBe(0);
    rmSync(env.simPath('/proc/4242'), { recursive: true });
    await onPage('md0');
    await waitUntil('the finding goes with the process', async () => (await finding('md0', 'background-jobs').count()) === 0, VERDICT_MS);
});

test('starved: "Raise the minimum" writes the array\'s own minimum', async () => {
    await onPage('md0');
    await finding('md0', 'starved').waitFor({ timeout: waitBudget(VERDICT_MS) });
    // Only the minimum: the maximum follows the system limit already, and a fix writes nothing else.
    await applyFix('md0', /^Raise the minimum to 50 MiB\/s…$/, 'echo 51200 > /sys/block/md0/md/sync_speed_min');
    await waitUntil('the kernel\'s own minimum for md0', async () =>
        await simValue(env, '/sys/block/md0/md/sync_speed_min') === '51200 (local)', 10000);
    // The history starts over under the new limit; then the rebuild runs at the new minimum (a
    // sample dated one simulator tick off moves a 10 s average by 10%).
    await waitUntil('md0 at 50 MiB/s', async () =>
        /^Starved by other I\/O: It runs at (4[5-9]|5\d)(\.\d)? MiB\/s per disk, near the minimum of 50 MiB\/s, .* The minimum is already at the Fast rebuild level: a higher one would take the disks from the other I\/O\.$/
            .test(await finding('md0', 'starved').count() ? await sentence(finding('md0', 'starved')) : ''), VERDICT_MS);
    expect(await finding('md0', 'starved').getByRole('button').count()).toBe(0);
});

test('capped: "Raise the maximum" writes the array\'s own maximum', async () => {
    await onPage('md1');
    await finding('md1', 'capped-by-max').waitFor({ timeout: waitBudget(VERDICT_MS) });
    await applyFix('md1', /^Raise the maximum to 2000 MiB\/s…$/, 'echo 2048000 > /sys/block/md1/md/sync_speed_max');
    await waitUntil('the kernel\'s own maximum for md1', async () =>
        await simValue(env, '/sys/block/md1/md/sync_speed_max') === '2048000 (local)', 10000);
    await waitUntil('md1 no longer capped', async () =>
        await section('md1').locator('.raidtune-diagnosis-gathering, .raidtune-diagnosis-clear').count() > 0, VERDICT_MS);
    expect(await finding('md1', 'capped-by-max').count()).toBe(0);
});

/** The finding kinds of an array's diagnosis, in the order shown. */
const shownKinds = (array: string) => section(array).locator('[data-finding]').evaluateAll(items => items.map(li => li.getAttribute('data-finding')));
/** The what-if table's verdict on a change (its last cell). */
const whatIfVerdict = async (array: string, change: string) =>
    (await section(array).locator(`tbody tr[data-change="${change}"] td:last-child`).textContent())?.trim();

test('a remedy the what-if says does not help is not offered: a full stripe cache is no finding', async () => {
    // md2: the failing sdj holds every stripe, so the cache is full too; md3: its disks are busy
    // all the time. A larger cache helps only disks that wait for it, and the table says it would
    // not help here; a finding that says so would be an alarm with no remedy.
    for (const array of ['md2', 'md3']) {
        await onPage(array);
        await section(array).locator('tbody tr[data-change="stripe-cache"]').waitFor({ timeout: waitBudget(VERDICT_MS) });
        expect(await whatIfVerdict(array, 'stripe-cache')).toBe('No faster: something else holds it back');
        expect(await finding(array, 'cache-bound').count()).toBe(0);
        expect(await section(array).getByRole('button', { name: /Raise the stripe cache/ }).count()).toBe(0);
    }
    // Replacing sdj would let md2 run at its peers' speed: the slow member is the finding to act on.
    await onPage('md2');
    await finding('md2', 'slow-member').waitFor({ timeout: waitBudget(VERDICT_MS) });
    await expect(shownKinds('md2')).resolves.toEqual(['slow-member']);
});

test('paused: "Resume" lets the resync run again', async () => {
    await applyFix('md4', /^Resume…$/, 'echo idle > /sys/block/md4/md/sync_action');
    await waitUntil('md4 resyncing in the simulated kernel', async () =>
        await simValue(env, '/sys/block/md4/md/sync_action') === 'resync', 10000);
    // Running again: the diagnosis starts gathering data, the "Paused" finding is gone.
    await section('md4').locator('.raidtune-diagnosis-gathering').waitFor({ timeout: waitBudget(10000) });
    expect(await finding('md4', 'frozen').count()).toBe(0);
});

test('no serious accessibility problem in the diagnosis, light and dark', async () => {
    await onPage('md2');
    await finding('md2', 'slow-member').waitFor({ timeout: waitBudget(VERDICT_MS) });
    for (const dark of [false, true]) {
        // The style the system asks for (Cockpit's "auto" style follows it).
        await env.page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
        await env.page.waitForFunction(wanted => document.documentElement.classList.contains('pf-v6-theme-dark') === wanted, dark);
        const bad = severe(await runAxe(env.page));
        if (bad.length) throw new Error(`axe (${dark ? 'dark' : 'light'}):\n${formatViolations(bad)}`);
        // Light text on a dark card, and the other way round.
        const [text, card] = await section('md2').evaluate(el => [getComputedStyle(el.querySelector('.raidtune-finding')!).color,
            getComputedStyle(el.closest('.pf-v6-c-card')!).backgroundColor]);
        expect(luminance(text) > luminance(card)).toBe(dark);
        // For people to look at: the slow member's card, where most of the diagnosis shows.
        await arrayCard(env.page, 'md2').screenshot({ path: `test-results/screenshots/diagnosis-md2-${dark ? 'dark' : 'light'}.png` });
    }
    await env.page.emulateMedia({ colorScheme: 'light' });
});
