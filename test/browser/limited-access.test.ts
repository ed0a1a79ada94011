// SPDX-License-Identifier: LGPL-2.1-or-later
// Without administrative access (Cockpit's session runs as the unprivileged user `nobody`, so
// cockpit.permission({admin: true}) is false and superuser: 'require' is refused): the page still
// shows everything it reads, every control that would change the host is disabled with a tooltip
// that says why, and using one writes nothing: on the overview with the host settings below it,
// and on an array's own page.
//
// The plugin is served from a clone-like folder inside a mode-700 one, as a clone under /root is:
// `nobody` cannot enter it, so the harness has to hand the session a copy it can read.

import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { setupRaidtune } from './harness/env';
import { ADMIN_REASON, privateDistCopy } from './harness/privateDist';
import {
    arrayAction, arrayActionLabels, arrayCard, arrayMenu, settingDetails, showArrayPage, showOverview,
    shownPercentBetweenSimReads, simValue, syncTitle, waitForTooltip,
} from './harness/raidtunePage';

const { folder: privateFolder, dist: privateDist } = privateDistCopy();

const env = setupRaidtune({
    scenario: 'raid6-recovery', arrayPage: 'md0', runAs: 'nobody', pluginDir: privateDist,
});
/**
 * Controls that only show more of what was read: an array's menu shows what it offers, a member's
 * device its disk's details.
 */
const READ_ONLY_CONTROLS = [/^Layout and alignment$/, /^More actions for md\d+$/, /^Details$/, /^\/dev\/[a-z0-9]+$/];

/** Every button on the page shown as [name, aria-disabled]; an icon's button by its label. */
function buttons(): Promise<[string, string | null][]> {
    return env.page.locator('button').evaluateAll(all => all.map(b =>
        [(b.textContent ?? '').trim() || (b.getAttribute('aria-label') ?? ''), b.getAttribute('aria-disabled')] as [string, string | null]));
}

const readOnlyControl = (name: string) => READ_ONLY_CONTROLS.some(pattern => pattern.test(name));

/** The overview with its host settings, all of them in (they come a moment after the overview). */
async function overviewWithSettings(): Promise<void> {
    await showOverview(env.page);
    for (const card of ['#global-limits', '#keep-after-reboot', '#monitor-alerts', '#check-schedule', '#sync-history'])
        await env.page.locator(card).waitFor();
}

test('the plugin is served to the session\'s user from a folder that user cannot enter', () => {
    expect(statSync(privateFolder).mode & 0o777).toBe(0o700);
    const gid = execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim();
    const canRead = () => execFileSync('setpriv', ['--reuid=nobody', `--regid=${gid}`, '--clear-groups', 'cat', join(privateDist, 'manifest.json')],
        { stdio: 'pipe' });
    expect(canRead).toThrow(/Permission denied/);
    // beforeAll loaded the page and waited for md0's card: the bridge found the package.
});

test('reads the host like an administrator would: arrays, members, the rebuild\'s progress', async () => {
    expect(await syncTitle(env.page, 'md0')).toMatch(/^Rebuild/);
    const { shown, before, after } = await shownPercentBetweenSimReads(env, env.page, 'md0');
    expect(shown).toBeGreaterThanOrEqual(before);
    expect(shown).toBeLessThanOrEqual(after);
    await arrayCard(env.page, 'md0').getByText('/dev/sda1').waitFor();
});

test('every control that changes the host is disabled, and says why', async () => {
    // Both pages' controls: the overview's (its rows' actions, the host settings) and md0's.
    await overviewWithSettings();
    // Wait until Cockpit has answered the permission question (disabled while unknown, too).
    await waitForTooltip(env.page.locator('button[aria-disabled="true"]').first(), ADMIN_REASON);
    const atOverview = await buttons();
    for (const name of ['Keep after reboot…', 'Send a test alert']) {
        await waitForTooltip(env.page.getByRole('button', { name, exact: true }).first(), ADMIN_REASON);
    }
    await showArrayPage(env.page, 'md0');
    const onArrayPage = await buttons();
    for (const name of ['Speed limits…', 'Pause']) {
        await waitForTooltip(env.page.getByRole('button', { name, exact: true }).first(), ADMIN_REASON);
    }
    const shown = [...atOverview, ...onArrayPage];
    // Controls that only show more of what was read stay usable; every other one changes the host.
    const readOnly = shown.filter(([name]) => readOnlyControl(name));
    const changing = shown.filter(([name]) => !readOnlyControl(name));
    expect(changing.map(([name]) => name)).toEqual(expect.arrayContaining([
        'Change…', 'Presets…', 'Keep after reboot…', 'Speed limits…', 'Pause', 'Send a test alert',
    ]));
    expect(changing.filter(([, disabled]) => disabled !== 'true')).toEqual([]);
    expect(readOnly).toEqual(expect.arrayContaining([['Layout and alignment', null], ['More actions for md0', null]]));
    expect(readOnly.filter(([, disabled]) => disabled !== null)).toEqual([]);
    // The array's menu opens, and every item in it is disabled with the same reason.
    const { menu } = await arrayActionLabels(env.page, 'md0');
    expect(menu).toEqual(['Stripe cache…', 'Read-ahead…', 'Worker threads…', 'Disk queues…', 'Restart sync']);
    for (const label of menu)
        expect(await (await arrayAction(env.page, 'md0', label)).getAttribute('aria-disabled')).toBe('true');
    await waitForTooltip(await arrayAction(env.page, 'md0', 'Stripe cache…'), ADMIN_REASON);
    await (await arrayAction(env.page, 'md0', 'Restart sync')).click({ force: true });
    expect(await env.page.getByRole('dialog').count()).toBe(0);
    await env.page.keyboard.press('Escape');
    await arrayMenu(env.page, 'md0').waitFor({ state: 'detached' });
});

test('a disabled control\'s tooltip goes when the pointer passes over it at once', async () => {
    await showArrayPage(env.page, 'md0');
    const button = env.page.getByRole('button', { name: 'Pause', exact: true }).first();
    await env.page.mouse.move(0, 0);
    await env.page.getByRole('tooltip').waitFor({ state: 'detached' });
    // A pointer crossing the button: in, then out, within one task (before React has rendered).
    await button.evaluate(element => {
        for (const type of ['mouseover', 'mouseenter', 'mouseout', 'mouseleave']) {
            element.dispatchEvent(new MouseEvent(type, { bubbles: type.startsWith('mouseo'), relatedTarget: document.body }));
        }
    });
    await env.page.waitForTimeout(1500); // past the tooltip's entry delay and its animation
    expect(await env.page.getByRole('tooltip').count()).toBe(0);
});

test('a disabled control\'s tooltip comes with the keyboard focus and goes with Escape', async () => {
    await showArrayPage(env.page, 'md0');
    const button = env.page.getByRole('button', { name: 'Pause', exact: true }).first();
    await env.page.mouse.move(0, 0);
    await env.page.getByRole('tooltip').waitFor({ state: 'detached' });
    await button.focus();
    await env.page.getByRole('tooltip').getByText(ADMIN_REASON).waitFor();
    await env.page.keyboard.press('Escape');
    await env.page.getByRole('tooltip').waitFor({ state: 'detached' });
    expect(await button.evaluate(element => element === document.activeElement)).toBe(true);
});

test('the alerts are read too: mdadm.conf and the monitor service, without administrative access', async () => {
    await showOverview(env.page);
    const alerts = await settingDetails(env.page, 'monitor-alerts');
    // The simulated host's default: mail to root, the monitor running.
    await alerts.locator('#alerts-fact-service').getByText('mdmonitor.service: active (static)', { exact: true }).waitFor();
    expect(await alerts.locator('#alerts-fact-mailaddr').innerText()).toBe('root');
    expect(await alerts.locator('#alerts-fact-conf').innerText()).toBe(`${env.sim.root}/etc/mdadm/mdadm.conf`);
});

test('the scheduled checks are shown, and their change is disabled with the reason', async () => {
    await showOverview(env.page);
    const schedule = await settingDetails(env.page, 'check-schedule');
    // Every Sunday at 01:30 (the simulated host's checkarray line), as the host's systemd says when.
    await schedule.locator('tbody tr').first().getByText(/ \(every Sunday\)$/).waitFor();
    const change = schedule.locator('#schedule-change-checkarray');
    expect(await change.getAttribute('aria-disabled')).toBe('true');
    await change.click({ force: true });
    await waitForTooltip(change, ADMIN_REASON);
    // Counted after the tooltip's wait: a dialog's code may come a moment after the click.
    expect(await env.page.getByRole('dialog').count()).toBe(0);
});

test('using a disabled control opens nothing and writes nothing', async () => {
    const before = await Promise.all(['/sys/block/md0/md/sync_action', '/proc/sys/dev/raid/speed_limit_min'].map(p => simValue(env, p)));
    const use = async (name: string) => {
        await env.page.getByRole('button', { name, exact: true }).first().click({ force: true });
        await env.page.keyboard.press('Enter');
    };
    await showArrayPage(env.page, 'md0');
    for (const name of ['Pause', 'Speed limits…']) await use(name);
    await overviewWithSettings();
    await use('Presets…');
    await env.page.waitForTimeout(1500); // time for a dialog's chunk to come, and for tee writes to land in the files
    expect(await env.page.getByRole('dialog').count()).toBe(0);
    expect(await Promise.all(['/sys/block/md0/md/sync_action', '/proc/sys/dev/raid/speed_limit_min'].map(p => simValue(env, p)))).toEqual(before);
    expect(before[0]).toBe('recover');
});
