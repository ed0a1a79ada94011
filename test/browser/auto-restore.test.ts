// SPDX-License-Identifier: LGPL-2.1-or-later
// "Restore automatically when the sync finishes" on the simulated host: arming starts the real
// waiter (the setsid fallback: no systemd here), the chart shows the speed with a summary and keeps
// the host's history over a reload, cancel stops the waiter without restoring, and when the
// simulated rebuild finishes the waiter writes the originals back and the banner goes. The system
// limits are changed among the overview's host settings (#/), the chart is on the array's own page
// (#/md1); the banner shows on both.

import { existsSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chooseStyle, luminance, runAxe, severe } from './harness/cockpitSettings';
import { arrayFragment, setupRaidtune } from './harness/env';
import {
    arrayCard, changeDialog, closeLeftoverDialog, dialogButton, KERNEL_DONE, openArrayDialog, openDialog, showArrayPage,
    showOverview, simValue, waitUntil,
} from './harness/raidtunePage';
import { waitBudget } from '../../tools/cockpit/waitBudget';

const env = setupRaidtune({ scenario: join(__dirname, 'fixtures/two-rebuilds.json'), arrayPage: 'md1' });

const dialog = () => changeDialog(env.page);
const footerButton = (name: string) => dialogButton(env.page, name);
const banner = () => env.page.locator('.raidtune-restore');
const stateDir = () => join(env.sim.root, 'var/lib/raidtune');
const stateFile = (name: string) => join(stateDir(), name);
const historyLines = (array: string) => {
    const path = stateFile(`auto-restore/${array}.history`);
    return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).length : 0;
};

beforeEach(() => closeLeftoverDialog(env.page));

afterEach(async () => {
    // Cancel what a failed test left armed, the way the page does, and let the waiters end (next poll).
    for (const array of ['md0', 'md1']) rmSync(stateFile(`auto-restore/${array}.armed`), { force: true });
    await waitUntil('no waiter left', async () => historyLines('md0') + historyLines('md1') === 0 || null, 8000).catch(() => undefined);
});

/** Arming and cancelling write files and run commands only: their outcome is not KERNEL_DONE. */
async function applyAndClose(applyLabel: string, done = KERNEL_DONE) {
    await footerButton(applyLabel).click();
    const outcome = dialog().locator('.pf-v6-c-alert.pf-m-success .pf-v6-c-alert__title');
    await outcome.waitFor();
    // The title's text after PatternFly's screen-reader prefix ("Success alert:").
    expect((await outcome.innerText()).split('\n').at(-1)).toBe(done);
    await footerButton('Close').click();
    await dialog().waitFor({ state: 'detached' });
}

async function raiseSystemLimits(minMiBs: string, maxMiBs: string) {
    await showOverview(env.page);
    await openDialog(env.page.locator('#global-limits').getByRole('button', { name: 'Change…' }));
    await dialog().getByLabel('Minimum (MiB/s per disk)').fill(minMiBs);
    await dialog().getByLabel('Maximum (MiB/s per disk)').fill(maxMiBs);
    await applyAndClose('Apply');
}

async function arm(array: string) {
    await banner().getByRole('button', { name: `Restore automatically when the sync of ${array} finishes…` }).click();
    const commands = await dialog().locator('.raidtune-commands').innerText();
    // No systemd as PID 1 here: the detached fallback, with the roots and state folder as data.
    expect(commands).toContain(`cat > ${stateDir()}/auto-restore/${array}.armed <<'EOF'\n` +
        '/proc/sys/dev/raid/speed_limit_min\t1000\n/proc/sys/dev/raid/speed_limit_max\t2000\nEOF');
    expect(commands).toContain('setsid -f sh -c \'exec </dev/null');
    expect(commands.endsWith(`raidtune-restore ${array} ${env.sim.sysRoot} ${env.sim.procRoot} ${stateDir()} 5 3 360`)).toBe(true);
    await applyAndClose('Arm', 'Done.');
    await armedLabel(array).waitFor();
}

const armedLabel = (array: string, settings = 2) => banner().getByText(`Armed: restores ${settings} settings when the sync of ${array} finishes`);
const chartSummary = (array: string) => arrayCard(env.page, array).locator('.raidtune-chart figcaption');
/** The chart's summary once the chart is there. */
const shownSummary = (array: string) => waitUntil(`the chart of ${array}`, async () =>
    (await chartSummary(array).count()) > 0 && chartSummary(array).innerText());

/** Seconds of "over the last 1 min 5 s" in the chart's summary. */
function summarySpanSeconds(summary: string): number {
    const span = /over the last ([^;]+);/.exec(summary)?.[1] ?? '';
    const part = (unit: string) => Number(new RegExp(`(\\d+) ${unit}\\b`).exec(span)?.[1] ?? 0);
    return part('h') * 3600 + part('min') * 60 + part('s');
}

test('arm, the chart with its summary and the host\'s history after a reload, cancel', async () => {
    await raiseSystemLimits('5', '10');
    await arm('md1');
    // The chart is on md1's page; a reload below keeps that address.
    await showArrayPage(env.page, 'md1');

    // The limits of the newest sample: the raised ones from the refresh that read them on.
    const summary = await waitUntil('the chart summary with the raised limits', async () => {
        const text = await shownSummary('md1');
        return text.includes('Limits now: minimum 5 MiB/s, maximum 10 MiB/s per disk.') && text;
    });
    expect(summary).toMatch(/^Speed between [\d.]+ MiB\/s and [\d.]+ MiB\/s over the last .+; progress from [\d.]+% to [\d.]+%\. /);
    await expect(arrayCard(env.page, 'md1').locator('.raidtune-chart svg[role="img"] path.raidtune-chart-speed').getAttribute('d'))
        .resolves.toMatch(/^M [\d.]+ [\d.]+ L /);

    // The waiter keeps its samples on the host (every 5 s): after a reload the chart starts with them.
    await waitUntil('three host samples', async () => historyLines('md1') >= 3, 30000);
    await env.page.reload();
    const reloaded = await shownSummary('md1');
    expect(summarySpanSeconds(reloaded)).toBeGreaterThanOrEqual(10);
    await armedLabel('md1').waitFor();
    await arrayCard(env.page, 'md1').locator('.raidtune-sync').screenshot({ path: 'test-results/screenshots/sync-chart-light.png' });

    // Readable in the dark style: the chart's lines and labels come from PatternFly's tokens.
    await chooseStyle(env.page, 'dark');
    await env.page.reload();
    await chartSummary('md1').waitFor();
    const dark = await arrayCard(env.page, 'md1').evaluate(card => ({
        card: getComputedStyle(card).backgroundColor,
        label: getComputedStyle(card.querySelector('.raidtune-chart text')!).fill,
        speed: getComputedStyle(card.querySelector('.raidtune-chart-speed')!).stroke,
        caption: getComputedStyle(card.querySelector('.raidtune-chart figcaption')!).color,
    }));
    expect(luminance(dark.card)).toBeLessThan(0.1);
    for (const color of [dark.label, dark.speed, dark.caption]) expect(luminance(color)).toBeGreaterThan(0.2);
    await arrayCard(env.page, 'md1').locator('.raidtune-sync').screenshot({ path: 'test-results/screenshots/sync-chart-dark.png' });
    await chooseStyle(env.page, 'light');
    await env.page.reload();
    await chartSummary('md1').waitFor();
    await banner().screenshot({ path: 'test-results/screenshots/auto-restore-armed.png' });
    // The chart, the armed label and its Cancel pass axe.
    expect(severe(await runAxe(env.page))).toEqual([]);

    // Restoring by hand would cancel the armed waiter with it.
    await banner().getByRole('button', { name: 'Restore previous settings' }).click();
    await expect(dialog().locator('.raidtune-commands').innerText()).resolves.toMatch(
        new RegExp(`rm -f ${stateDir()}/restore.json\nrm -f ${stateDir()}/auto-restore/md1.armed$`));
    await footerButton('Cancel').click();

    await banner().getByRole('button', { name: 'Cancel the automatic restore of md1' }).click();
    await expect(dialog().locator('.raidtune-commands').innerText()).resolves.toBe(`rm -f ${stateDir()}/auto-restore/md1.armed`);
    await applyAndClose('Cancel automatic restore', 'Done.');
    await armedLabel('md1').waitFor({ state: 'detached' });
    // The waiter ends at its next poll and takes its history with it; nothing was restored.
    await waitUntil('the waiter gone', async () => !existsSync(stateFile('auto-restore/md1.history')), 15000);
    await expect(simValue(env, '/proc/sys/dev/raid/speed_limit_min')).resolves.toBe('5120');
    expect(existsSync(stateFile('restore.json'))).toBe(true);
}, waitBudget(90000));

/** Changes md0's read-ahead through its card's dialog. */
async function changeReadAhead(kib: string) {
    await openArrayDialog(env.page, 'md0', 'Read-ahead…');
    await dialog().getByLabel('Read-ahead in KiB (0 to 65536)').fill(kib);
    await applyAndClose('Apply');
}

test('a setting changed while armed is restored too; when the rebuild finishes the waiter restores the originals, with the page closed meanwhile', async () => {
    const readAhead = '/sys/block/md0/queue/read_ahead_kb';
    const originalReadAhead = await simValue(env, readAhead);
    // md0 rebuilds at the first test's raised limits (10 MiB/s): back to a crawl, behind raidtune's
    // back, so that it cannot finish (and its waiter restore) before this test lets it (337 in
    // gate31: the .armed file gone before the read-ahead change was checked).
    await env.writeSim('/proc/sys/dev/raid/speed_limit_max', '2000');
    await env.writeSim('/proc/sys/dev/raid/speed_limit_min', '1000');
    await arm('md0');
    // Changed after arming: the waiter's file follows the journal, and the banner counts it.
    await changeReadAhead('4096');
    await expect(readFile(stateFile('auto-restore/md0.armed'), 'utf8')).resolves.toBe(`${readAhead}\t${originalReadAhead}\n` +
        '/proc/sys/dev/raid/speed_limit_min\t1000\n/proc/sys/dev/raid/speed_limit_max\t2000\n');
    await armedLabel('md0', 3).waitFor();
    await expect(banner().locator('.raidtune-auto-restore-left').count()).resolves.toBe(0);
    await env.page.goto('about:blank');
    // Let the simulated rebuilds run at the disks' speed: done within seconds.
    await env.writeSim('/proc/sys/dev/raid/speed_limit_max', '500000');
    await env.writeSim('/proc/sys/dev/raid/speed_limit_min', '400000');
    // The waiter's last act is removing its files (after the writes and the journal).
    await waitUntil('the waiter done', async () => !existsSync(stateFile('auto-restore/md0.armed')), 60000, 500);
    await expect(simValue(env, '/proc/sys/dev/raid/speed_limit_min')).resolves.toBe('1000');
    await expect(simValue(env, '/proc/sys/dev/raid/speed_limit_max')).resolves.toBe('2000');
    await expect(simValue(env, readAhead)).resolves.toBe(originalReadAhead);
    expect(existsSync(stateFile('restore.json'))).toBe(false);

    await env.page.goto(env.cockpit.barePageUrl + arrayFragment('md0'));
    await arrayCard(env.page, 'md0').waitFor();
    await arrayCard(env.page, 'md0').locator('.raidtune-sync').waitFor({ state: 'detached' });
    await expect(banner().count()).resolves.toBe(0);
}, waitBudget(120000));
