// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #31, raidtune's own check window (items 3 and 4), on the simulated Debian host (checkarray
// from cron at 01:30 on Sundays):
// - a window the check does not start in is refused in the dialog, which says when the check would
//   start and at which limits it would run; its edges: a window closing at 01:30 is refused, one
//   opening at 01:30 is taken. A window the cron job no longer starts in (the cron file changed
//   after) is named on the card, which no longer says the check runs only inside it.
// - a limit changed from the page while the window is open: the dialog says before Apply that it
//   stays when the window closes; the restore record holds the value from before the window, not
//   the window's; the window's end (the real recorder/raidtune-check-window on the simulated
//   host's tree) keeps the new value and writes the other limit back.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Locator } from 'playwright-core';
import { setupRaidtune } from './harness/env';
import { plainSpaces, shownNextRun } from './harness/nextRun';
import {
    changeDialog, closeLeftoverDialog, dialogButton, openDialog, settingDetails, simValue, waitUntil,
} from './harness/raidtunePage';
import { windowLimitsText } from '../../src/md/alerts/ownWindow';

const env = setupRaidtune({ scenario: 'raid1-healthy', readySelector: '#check-schedule' });

const TOOL = join(__dirname, '../../recorder/raidtune-check-window');
const MIN = '/proc/sys/dev/raid/speed_limit_min';
const MAX = '/proc/sys/dev/raid/speed_limit_max';
const etcPath = (path: string) => join(env.sim.root, 'etc', path);
const stateDir = () => join(env.sim.root, 'var/lib/raidtune');
const dialog = () => changeDialog(env.page);

function writeEtc(path: string, text: string | null): void {
    if (text === null) return rmSync(etcPath(path), { force: true });
    mkdirSync(dirname(etcPath(path)), { recursive: true });
    writeFileSync(etcPath(path), text);
}

/** The "Next run" cell of each row of the scheduled checks' table. */
async function nextRuns(): Promise<string[]> {
    return (await settingDetails(env.page, 'check-schedule')).locator('tbody tr').evaluateAll(trs =>
        trs.map(tr => (tr.querySelectorAll('td')[2] as HTMLElement).innerText)).then(cells => cells.map(plainSpaces));
}

/** Runs the window's host tool at one of its edges, as its timer does, on the simulated host's tree. */
function windowEdge(command: 'start' | 'end'): string {
    return execFileSync('sh', [TOOL, command, env.sim.sysRoot, stateDir(), env.sim.procRoot, etcPath('raidtune/check-window-limits')],
        { encoding: 'utf8' }).trim();
}

async function applyAndClose(label = 'Apply'): Promise<void> {
    await dialogButton(env.page, label).click();
    await dialog().getByText('Done.', { exact: false }).waitFor();
    await dialogButton(env.page, 'Close').click();
    await dialog().waitFor({ state: 'detached' });
}

/** An inline alert's title as read, without the words PatternFly adds for screen readers ("Info alert:"). */
async function alertTitle(alert: Locator): Promise<string> {
    return (await alert.locator('.pf-v6-c-alert__title').innerText()).replace(/^[^:\n]*alert:\s*/, '');
}

beforeEach(() => closeLeftoverDialog(env.page));

/** checkarray's next run once its cron job moved to 11:30 on Sundays. */
const at1130 = () => shownNextRun('Sun *-*-* 11:30:00', 'every Sunday');

test('a window the check does not start in is refused, saying when it would start and at which limits; its edges', async () => {
    const checkarray = await openDialog(env.page.locator('#schedule-change-checkarray'));
    const start = checkarray.locator('#schedule-window-start');
    const apply = dialogButton(env.page, 'Apply');
    const outside = (opens: string, closes: string) => 'checkarray starts its check at 01:30 (cron: 30 1 * * 0), outside the window ' +
        `(${opens} to ${closes}): the check runs from 01:30 at the limits in force then (speed_limit_min 1000 KiB/s, ` +
        `speed_limit_max 200000 KiB/s) until the window opens, and is paused only when it closes at ${closes}. A window open at 01:30 keeps it inside.`;
    await start.fill('10:00');
    await checkarray.locator('#schedule-window').fill('2');
    await checkarray.locator('#schedule-window-limits-low-impact').check();
    await checkarray.getByText(outside('10:00', '12:00')).waitFor();
    expect(await apply.isDisabled()).toBe(true);
    await expect(checkarray.locator('.raidtune-commands').count()).resolves.toBe(0);
    // Closing at 01:30 exactly: the end's pause and the check's start race; refused.
    await start.fill('23:30');
    await checkarray.getByText(outside('23:30', '01:30')).waitFor();
    expect(await apply.isDisabled()).toBe(true);
    // Opening at 01:30: the window's limits are in force within the minute the check starts.
    await start.fill('01:30');
    const inside = checkarray.locator('#schedule-window-check-start');
    await inside.getByText('checkarray starts its check at 01:30 (cron: 30 1 * * 0), inside the window: it runs at the ' +
        'window\'s limits, and is paused at 03:30 if not done.').waitFor();
    await checkarray.locator('#schedule-window-limits-').check();
    await inside.getByText('checkarray starts its check at 01:30 (cron: 30 1 * * 0), inside the window: it runs at the limits ' +
        'in force (speed_limit_min 1000 KiB/s, speed_limit_max 200000 KiB/s), and is paused at 03:30 if not done.').waitFor();
    await start.fill('23:30');
    await checkarray.locator('#schedule-window').fill('2.25');
    await inside.getByText('at 01:30 (cron: 30 1 * * 0), inside the window', { exact: false }).waitFor();
    await applyAndClose();
    await waitUntil('the window on the card', async () => (await nextRuns()).every(r =>
        r === `${shownNextRun('Sun *-*-* 01:30:00', 'every Sunday')}, checking only from 23:30 to 01:45`));
    expect(await env.page.locator('#check-schedule .raidtune-window-outside').count()).toBe(0);

    // The cron job moved to 11:30 behind the page's back: the card no longer says the window bounds the check.
    writeEtc('cron.d/mdadm', '30 11 * * 0 root /usr/share/mdadm/checkarray --cron --all --idle --quiet\n');
    await env.page.reload();
    await waitUntil('the start outside the window on the card', async () => (await nextRuns()).every(r =>
        r === `${at1130()}, starting at 11:30, outside the check window from 23:30 to 01:45`));
    expect(await alertTitle(env.page.locator('#check-schedule .raidtune-window-outside'))).toBe(
        'checkarray starts its check at 11:30 (cron: 30 11 * * 0), outside the window (23:30 to 01:45): the check runs from 11:30 at ' +
        'the limits in force then (speed_limit_min 1000 KiB/s, speed_limit_max 200000 KiB/s) until the window opens, and is paused ' +
        'only when it closes at 01:45. A window open at 11:30 keeps it inside.');
    // Any change of that scheduler now needs a window the check starts in (or none).
    const again = await openDialog(env.page.locator('#schedule-change-checkarray'));
    await again.getByText('checkarray starts its check at 11:30 (cron: 30 11 * * 0), outside the window', { exact: false }).waitFor();
    expect(await dialogButton(env.page, 'Apply').isDisabled()).toBe(true);
    await again.locator('#schedule-window-start').fill('');
    await again.locator('.raidtune-commands').getByText('disable --now', { exact: false }).waitFor();
    await applyAndClose();
    await waitUntil('no window on the card', async () => (await nextRuns()).every(r => r === at1130()));
    writeEtc('cron.d/mdadm', '30 1 * * 0 root /usr/share/mdadm/checkarray --cron --all --idle --quiet\n');
    await env.page.reload();
    await env.page.locator('#check-schedule').waitFor();
});

// Issue #33 item 9: a field is judged once left, never before it is touched.
test('the hours that appear with a window start are guidance, not an error, until left; the window\'s end as a time', async () => {
    const checkarray = await openDialog(env.page.locator('#schedule-change-checkarray'));
    const shownAsErrors = checkarray.locator('.pf-v6-c-helper-text__item.pf-m-error');
    const hours = checkarray.locator('#schedule-window');
    await checkarray.locator('#schedule-window-start').fill('01:30');
    await checkarray.getByText('Enter the hours the window stays open, from 0.25 to 23', { exact: false }).waitFor();
    expect(await shownAsErrors.count()).toBe(0);
    expect(await hours.getAttribute('aria-invalid')).toBe('false');
    expect(await dialogButton(env.page, 'Apply').isDisabled()).toBe(true);
    // Left empty, it is an error.
    await hours.focus();
    await hours.blur();
    await expect(shownAsErrors.innerText()).resolves.toMatch(/^Enter the hours the window stays open, from 0.25 to 23/);
    expect(await hours.getAttribute('aria-invalid')).toBe('true');
    await hours.fill('3');
    await checkarray.locator('#schedule-window-closes').getByText('Closes at 04:30.', { exact: true }).waitFor();
    expect(await shownAsErrors.count()).toBe(0);
    await hours.fill('23');
    await checkarray.locator('#schedule-window-closes').getByText('Closes at 00:30 the next day.', { exact: true }).waitFor();
    await dialogButton(env.page, 'Cancel').click();
    await checkarray.waitFor({ state: 'detached' });
});

test('a limit changed while the window is open: said before Apply, kept at its end, and never restored to the window\'s value', async () => {
    // The window opens (its timer's edge): Fast rebuild's limits over the host's 1000 and 200000.
    writeEtc('raidtune/check-window-limits', windowLimitsText('fast-rebuild'));
    expect(windowEdge('start')).toBe('limits: speed_limit_min 51200\nlimits: speed_limit_max 2048000');
    const card = env.page.locator('#check-window-limits');
    await card.getByText('A check window is open: its limits are in force, and its end writes back speed_limit_max 200000, ' +
        'speed_limit_min 1000.').waitFor();

    // The admin sets a minimum of their own while it is open.
    const limits = await openDialog(env.page.locator('#global-limits').getByRole('button', { name: 'Change…' }));
    await limits.locator('#global-min').fill('30');
    await limits.locator('.raidtune-commands').getByText(`echo 30720 > ${MIN}`).waitFor();
    expect(await alertTitle(limits.locator('.raidtune-window-end-note'))).toBe('A check window is open: speed_limit_min ' +
        'stays at 30720 when it closes (its end writes back only the limits still at the window\'s own values).');
    await applyAndClose();
    // The restore record holds the value from before the window, not the window's 51200.
    const journal = JSON.parse(readFileSync(join(stateDir(), 'restore.json'), 'utf8'));
    expect(journal.entries.map((e: { path: string; original: string }) => [e.path, e.original])).toEqual([[MIN, '1000']]);
    await card.getByText('Changed since it opened, and kept when it closes: speed_limit_min 30720.').waitFor();
    expect(await alertTitle(card)).toBe('A check window is open: its limits are in force, ' +
        'and its end writes back speed_limit_max 200000.');
    const banner = env.page.locator('.raidtune-restore');
    const restore = await openDialog(banner.getByRole('button', { name: 'Restore previous settings' }));
    expect(await restore.locator('.raidtune-commands').innerText()).toBe(`echo 1000 > ${MIN}\nrm -f ${stateDir()}/restore.json`);
    await dialogButton(env.page, 'Cancel').click();

    // The window closes: the admin's minimum stays, the maximum from before is back.
    expect(windowEdge('end')).toBe('limits: speed_limit_max 200000 again\nlimits: speed_limit_min 30720 kept: changed while the window was open');
    expect([await simValue(env, MIN), await simValue(env, MAX)]).toEqual(['30720', '200000']);
    await card.waitFor({ state: 'detached' });

    await openDialog(banner.getByRole('button', { name: 'Restore previous settings' }));
    await applyAndClose('Restore');
    expect([await simValue(env, MIN), existsSync(join(stateDir(), 'restore.json'))]).toEqual(['1000', false]);
    writeEtc('raidtune/check-window-limits', null);
});
