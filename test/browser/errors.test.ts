// SPDX-License-Identifier: LGPL-2.1-or-later
// What goes wrong on a host, and the page must survive: roots that do not exist, an array whose
// sysfs entry vanishes between two refreshes (stopped meanwhile), an array that stops while its
// dialog is open, and a page that is hidden (the refresh loop must stop, and come back at once when
// it is shown again).
//
// No simulated host: the configured roots point into a folder of this test, first missing, then
// holding a static tree made from real-kernel captures (test/fixtures/real-kernel):
//   md0  raid5-check       a RAID5 check at 1.7%: a sync, so the page refreshes at the busy pace;
//   md1  raid0-and-linear  a linear array (its members vdc/vdd renamed vdg/vdh: both captures come
//                          from the same VM, whose vdc/vdd are md0's).
// The arrays are read off the overview's rows (#/) and each array's own page (#/md0).

import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCaptureFiles, replaceFile, writeTree } from '../unit/helpers/realKernelCapture';
import { setupRaidtune } from './harness/env';
import {
    cardFacts, dialogButton, emulateDocumentHidden, healthText, memberRows, openArrayDialog, overviewRow,
    overviewRowTexts, pageNow, refreshStarts, showArrayPage, showOverview, shownArrays, shownPercent, syncTitle,
    type Surface, waitForRefreshes, waitUntil, warningAlerts,
} from './harness/raidtunePage';
import { waitBudget } from '../../tools/cockpit/waitBudget';

const dir = mkdtempSync(join(tmpdir(), 'raidtune-errors-'));
const host = join(dir, 'host');
// The alerts card reads mdadm.conf, the monitor's service and whether a mail program exists too:
// here a configuration that tells root, no systemctl and a mail program of the test's own, so what
// this machine has (or lacks) adds no warning of its own.
mkdirSync(join(dir, 'etc'));
writeFileSync(join(dir, 'etc/mdadm.conf'), 'MAILADDR root\n');
writeFileSync(join(dir, 'sendmail'), '#!/bin/sh\ncat > /dev/null\n');
chmodSync(join(dir, 'sendmail'), 0o755);
const env = setupRaidtune({
    scenario: null,
    config: {
        procRoot: join(host, 'proc'), sysRoot: join(host, 'sys'),
        mdadmConfDir: join(dir, 'etc'), systemctl: join(dir, 'no-systemctl'), sendmail: join(dir, 'sendmail'),
    },
    // The Python bridge hides a package whose condition fails (its pages answer 404): the condition
    // names a folder that exists, since the roots are missing on purpose.
    manifest: { conditions: [{ 'path-exists': dir }] },
    readySelector: '.pf-v6-c-empty-state',
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function captureTree(): Map<string, string> {
    const files = loadCaptureFiles('raid5-check');
    const linear = loadCaptureFiles('raid0-and-linear');
    const rename = (text: string) => text.replace(/\bvdc\b/g, 'vdg').replace(/\bvdd\b/g, 'vdh');
    for (const [path, content] of linear)
        if (path.startsWith('/sys/block/md1/')) files.set(rename(path), content);
    const md1Stanza = linear.get('/proc/mdstat')!.match(/^md1 : [\s\S]*?\n\s*\n/m)![0];
    files.set('/proc/mdstat', files.get('/proc/mdstat')!.replace(/^md0 :/m, `${rename(md1Stanza)}md0 :`));
    return files;
}

const hostFile = (path: string) => join(host, path);
const GONE_NOTE = 'md0: listed in /proc/mdstat but its sysfs entry is gone (stopped meanwhile?).';

/** The arrays the overview lists, in its order. */
const overviewNames = async (surface: Surface) => (await overviewRowTexts(surface)).map(row => row.name);

test('roots that do not exist: a clear warning, and the page still renders', async () => {
    expect(await warningAlerts(env.page)).toEqual([
        'Cannot open the proc file system root.',
        'Cannot open the sys file system root.',
    ]);
    // Without /proc/mdstat the page says what that means, and the limits are unknown, not made up.
    expect(await env.page.locator('.pf-v6-c-empty-state__title').innerText()).toBe('The md RAID driver is not loaded');
    expect(await env.page.locator('#global-limits').innerText()).toMatch(/Minimum: unknown\s+Maximum: unknown/);
    expect(await shownArrays(env.page)).toEqual([]);
    expect(await env.page.locator('.pf-v6-c-alert.pf-m-danger').count()).toBe(0);
});

test('a host tree from real-kernel captures: both arrays, as the files say', async () => {
    writeTree(host, captureTree());
    await env.page.reload({ waitUntil: 'load' });
    await overviewRow(env.page, 'md1').waitFor();

    expect(await warningAlerts(env.page)).toEqual([]);
    // mdstat lists md1 first; the overview puts md0's running check before the idle md1.
    expect(await overviewNames(env.page)).toEqual(['md0', 'md1']);
    const mdstat = readFileSync(hostFile('proc/mdstat'), 'utf8');
    const percent = Number(mdstat.match(/check = +([\d.]+)%/)![1]);
    await showArrayPage(env.page, 'md0');
    expect(await syncTitle(env.page, 'md0')).toBe('Check');
    expect(await shownPercent(env.page, 'md0')).toBe(percent);
    expect(await (await showArrayPage(env.page, 'md1')).locator('.pf-v6-c-card__header').innerText()).toContain('Linear');
    expect((await memberRows(env.page, 'md1')).map(r => r.device)).toEqual(['/dev/vdg', '/dev/vdh']);
});

/** Visibility changes of the page's cockpit.hidden, with the time (performance.now()) of each. */
async function recordVisibility(surface: Surface): Promise<void> {
    await surface.evaluate(() => {
        const w = window as unknown as {
            visibilityLog: [boolean, number][];
            cockpit: { hidden: boolean; addEventListener(e: string, f: () => void): void };
        };
        w.visibilityLog = [];
        w.cockpit.addEventListener('visibilitychange', () => w.visibilityLog.push([w.cockpit.hidden, performance.now()]));
    });
}

function visibilityLog(surface: Surface): Promise<[boolean, number][]> {
    return surface.evaluate(() => (window as unknown as { visibilityLog: [boolean, number][] }).visibilityLog);
}

/** The time `surface` last became hidden (or visible), once it has. */
async function becameAt(surface: Surface, hidden: boolean): Promise<number> {
    return waitUntil(`page ${hidden ? 'hidden' : 'visible'}`, async () =>
        (await visibilityLog(surface)).filter(([h]) => h === hidden).at(-1)?.[1], 10000, 50);
}

/**
 * While hidden for 4.5 s (the busy pace is 2 s) no refresh may start; shown again, one must start
 * at once (well before the 2 s timer would have fired).
 */
async function expectPausedWhileHidden(surface: Surface, hide: () => Promise<void>, show: () => Promise<void>) {
    await waitForRefreshes(surface, 1);
    await hide();
    const hiddenAt = await becameAt(surface, true);
    await new Promise(resolve => setTimeout(resolve, 4500));
    expect((await refreshStarts(surface)).filter(t => t > hiddenAt)).toEqual([]);
    expect(await pageNow(surface) - hiddenAt).toBeGreaterThan(4000);

    // The page's own listener starts the refresh before ours logs the time (cockpit.js calls the
    // listeners in turn), so count refreshes from before show() rather than from visibleAt.
    const showAt = await pageNow(surface);
    await show();
    const visibleAt = await becameAt(surface, false);
    const first = await waitUntil('a refresh after showing the page', async () =>
        (await refreshStarts(surface)).find(t => t > showAt), 5000, 50);
    expect(first - visibleAt).toBeLessThan(1000);
}

test('inside the shell: no refresh while another page is shown, one at once when back', async () => {
    const shell = await env.shellPage();
    const frame = shell.frame;
    await overviewRow(frame, 'md0').waitFor();
    await recordVisibility(frame);
    await expectPausedWhileHidden(frame,
        // The shell hides the plugin's iframe (cockpit.hidden) when the user goes to another page...
        async () => {
            await frame.evaluate(() => (window as unknown as { cockpit: { jump(path: string): void } }).cockpit.jump('/users'));
            await shell.page.waitForURL(/\/users$/);
        },
        // ...and shows it again when they come back (the browser's Back button).
        async () => {
            await shell.page.goBack();
            await shell.page.waitForURL(/\/raidtune$/);
        });
    expect(await healthText(frame, 'md0')).toBe('Clean');
});

test('the bare page: no refresh while the document is hidden, one at once when visible', async () => {
    await recordVisibility(env.page);
    await expectPausedWhileHidden(env.page, () => emulateDocumentHidden(env.page, true),
        () => emulateDocumentHidden(env.page, false));
    expect(await env.page.evaluate(() => document.visibilityState)).toBe('visible');
});

test('md0\'s sysfs entry vanishes between two refreshes: a note, the rest keeps working', async () => {
    await waitForRefreshes(env.page, 1);
    rmSync(hostFile('sys/block/md0'), { recursive: true });
    await waitUntil('the note about md0', async () => (await warningAlerts(env.page)).includes(GONE_NOTE), 10000);
    expect(await warningAlerts(env.page)).toEqual([GONE_NOTE]);

    // md0 is still listed by mdstat, so it is still shown (from mdstat alone)...
    await showOverview(env.page);
    expect(await overviewNames(env.page)).toEqual(['md0', 'md1']);
    expect(await (await showArrayPage(env.page, 'md0')).locator('.pf-v6-c-card__header').innerText()).toContain('RAID 5');
    expect(await syncTitle(env.page, 'md0')).toBe('Check');
    // ...and md1 is untouched.
    expect((await cardFacts(env.page, 'md1'))['Kernel state']).toBe('clean');
    expect(await healthText(env.page, 'md1')).toBe('Clean');
    expect(await env.page.locator('.pf-v6-c-alert.pf-m-danger').count()).toBe(0);
});

test('md0 then leaves /proc/mdstat too: its page says it is gone, its row and the note go, without an error', async () => {
    // Read where the user is: md0's own page.
    await showArrayPage(env.page, 'md0');
    const mdstat = readFileSync(hostFile('proc/mdstat'), 'utf8');
    const withoutMd0 = mdstat.replace(/^md0 : [\s\S]*?\n\s*\n/m, '');
    expect(withoutMd0).not.toContain('md0');
    replaceFile(hostFile('proc/mdstat'), withoutMd0);

    // Its address now shows the overview, saying there is no such array, and md1 alone.
    await env.page.locator('.raidtune-no-such-array').waitFor({ timeout: waitBudget(10000) });
    expect(await shownArrays(env.page)).toEqual([]);
    expect(await warningAlerts(env.page)).toEqual(['There is no array md0 on this host.']);
    expect(await overviewNames(env.page)).toEqual(['md1']);
    await showOverview(env.page);
    expect(await warningAlerts(env.page)).toEqual([]);
    expect(await env.page.locator('.pf-v6-c-alert.pf-m-danger').count()).toBe(0);
    expect(await healthText(env.page, 'md1')).toBe('Clean');
});

test('md1 stops while its dialog is open: the dialog stays, says so, and cannot apply (#31)', async () => {
    const dialog = await openArrayDialog(env.page, 'md1', 'Read-ahead…');
    await dialog.locator('#md1-read-ahead').fill('4096');
    await dialog.locator('.raidtune-commands').waitFor();
    expect(await dialogButton(env.page, 'Apply').isDisabled()).toBe(false);

    // What `mdadm --stop /dev/md1` leaves: no stanza in /proc/mdstat, no sysfs entry.
    replaceFile(hostFile('proc/mdstat'), readFileSync(hostFile('proc/mdstat'), 'utf8').replace(/^md1 : [\s\S]*?\n\s*\n/m, ''));
    rmSync(hostFile('sys/block/md1'), { recursive: true });
    await dialog.locator('.raidtune-array-stopped')
        .getByText('md1 stopped while this dialog was open: it no longer runs, so nothing can be changed on it. Nothing was written.').waitFor();
    // Behind it, md1's address shows the overview, which says md1 is gone.
    await env.page.locator('.raidtune-no-such-array').getByText('There is no array md1 on this host.').waitFor();
    expect(await shownArrays(env.page)).toEqual([]);
    // What was typed is still there; Apply is not offered.
    expect(await dialog.locator('#md1-read-ahead').inputValue()).toBe('4096');
    expect(await dialogButton(env.page, 'Apply').isDisabled()).toBe(true);
    await dialogButton(env.page, 'Cancel').click();
    await dialog.waitFor({ state: 'detached' });
});
