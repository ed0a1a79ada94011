// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #4: every write raidtune makes, done through the page against the guest's real kernel and
// read back from the guest (sysfs, /proc/sys) with run('cat ...'); the restore journal in the
// guest's state folder; a write the kernel refuses, as the user sees it; and bad input that
// writes nothing. The same paths as test/browser/tuning.test.ts, on a real kernel.
import type { Page } from 'playwright-core';
import {
    arrayCard, openArrayDialog, openDialog, renderedRefreshes, showOverview, syncExplanation, syncFact, syncSection,
    syncTitle, waitUntil,
} from '../browser/harness/raidtunePage';
import { BAD_TEXT_VALUES } from '../shared/badValues';
import { applyAndWait, dialog, DONE, footerButton, formState, previewedCommands } from './harness/dialog';
import { guestMdstat, createSlowly, mdCreate, SLOW_LIMITS, waitForCard, waitForProgress } from './harness/scenarios';
import { VM_JOURNAL } from './harness/vmConfig';
import { DEFAULT_SPEED_LIMIT_MAX, DEFAULT_SPEED_LIMIT_MIN, setupVm } from './harness/vmEnv';

const vm = setupVm();

const MIN = '/proc/sys/dev/raid/speed_limit_min';
const MAX = '/proc/sys/dev/raid/speed_limit_max';
const md = (attribute: string) => `/sys/block/md0/md/${attribute}`;

/** The guest's values of these files, read in one command (a missing file reads "<absent>"). */
async function guestValues(...paths: string[]): Promise<string[]> {
    const out = await vm.guest.runOk(paths.map(p => `if [ -e ${p} ]; then echo "$(cat ${p})"; else echo '<absent>'; fi`).join('\n'));
    // Trailing blanks dropped (queue/scheduler ends with one).
    return out.replace(/\n$/, '').split('\n').map(v => v.trimEnd());
}

async function guestValue(path: string): Promise<string> {
    return (await guestValues(path))[0];
}

async function openWithCard(name: string, sync: boolean): Promise<Page> {
    const { page } = await vm.openPage();
    await waitForCard(page, name, sync);
    return page;
}

async function close(page: Page): Promise<void> {
    await footerButton(page, 'Close').click();
    await dialog(page).waitFor({ state: 'detached' });
}

test('system limits: previewed, written, read back from the guest; the journal restores the originals', async () => {
    const { page } = await vm.openPage();
    const limits = page.locator('#global-limits');
    await limits.getByText(`(${DEFAULT_SPEED_LIMIT_MAX} KiB/s), the kernel default`).waitFor({ timeout: 30000 });
    expect(await guestValues(MIN, MAX)).toEqual([String(DEFAULT_SPEED_LIMIT_MIN), String(DEFAULT_SPEED_LIMIT_MAX)]);

    await openDialog(limits.getByRole('button', { name: 'Change…' }));
    await dialog(page).getByLabel('Minimum (MiB/s per disk)').fill('50');
    await dialog(page).getByLabel('Maximum (MiB/s per disk)').fill('300');
    expect(await previewedCommands(page)).toBe(`echo 51200 > ${MIN}\necho 307200 > ${MAX}`);
    // Nothing is written before Apply.
    expect(await guestValues(MIN, MAX, VM_JOURNAL)).toEqual(['1000', '200000', '<absent>']);

    expect(await applyAndWait(page)).toEqual([DONE]);
    expect(await guestValues(MIN, MAX)).toEqual(['51200', '307200']);
    // The originals were recorded in the guest's state folder before the first write.
    const journal = JSON.parse(await guestValue(VM_JOURNAL));
    expect(journal.entries.map((e: { path: string; original: string }) => [e.path, e.original]))
        .toEqual([[MIN, '1000'], [MAX, '200000']]);
    await close(page);
    await limits.getByText('Minimum: 50 MiB/s (51200 KiB/s)').waitFor();
    await limits.getByText('Maximum: 300 MiB/s (307200 KiB/s)').waitFor();

    // The way back, after a reload: the journal is read from the guest.
    await page.reload();
    const banner = page.locator('.raidtune-restore');
    await banner.getByText('raidtune changed 2 settings on this host.').waitFor({ timeout: 30000 });
    await banner.getByRole('button', { name: 'Restore previous settings' }).click();
    // Newest record first, as an undo would.
    expect(await previewedCommands(page)).toBe(`echo 200000 > ${MAX}\necho 1000 > ${MIN}\nrm -f ${VM_JOURNAL}`);
    expect(await applyAndWait(page, 'Restore')).toEqual([DONE]);
    expect(await guestValues(MIN, MAX, VM_JOURNAL)).toEqual(['1000', '200000', '<absent>']);
    await close(page);
    await banner.waitFor({ state: 'detached' });
});

test('an array\'s own limits ("N (local)"), then back to the system limits', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid1', ['vda', 'vdb']));
    const page = await openWithCard('md0', true);
    expect(await guestValues(md('sync_speed_min'), md('sync_speed_max'))).toEqual([`${SLOW_LIMITS.min} (system)`, `${SLOW_LIMITS.max} (system)`]);

    await openArrayDialog(page, 'md0', 'Speed limits…');
    await dialog(page).locator('#md0-min-own').check();
    await dialog(page).locator('#md0-min-value').fill('0.5');
    await dialog(page).locator('#md0-max-own').check();
    await dialog(page).locator('#md0-max-value').fill('2');
    expect(await previewedCommands(page)).toBe(`echo 512 > ${md('sync_speed_min')}\necho 2048 > ${md('sync_speed_max')}`);
    expect(await applyAndWait(page)).toEqual([DONE]);
    expect(await guestValues(md('sync_speed_min'), md('sync_speed_max'))).toEqual(['512 (local)', '2048 (local)']);
    await close(page);
    await waitUntil('the page shows the local limits', async () =>
        (await syncFact(page, 'md0', 'Minimum speed')) === '0.5 MiB/s (512 KiB/s), set for this array' &&
        (await syncFact(page, 'md0', 'Maximum speed')) === '2 MiB/s (2048 KiB/s), set for this array');
    // The journal keeps what they were: "system" (what the restore writes back).
    const journal = JSON.parse(await guestValue(VM_JOURNAL));
    expect(journal.entries.map((e: { path: string; original: string }) => [e.path, e.original]))
        .toEqual([[md('sync_speed_min'), 'system'], [md('sync_speed_max'), 'system']]);

    await openArrayDialog(page, 'md0', 'Speed limits…');
    await dialog(page).locator('#md0-min-system').check();
    await dialog(page).locator('#md0-max-system').check();
    expect(await previewedCommands(page)).toBe(`echo system > ${md('sync_speed_min')}\necho system > ${md('sync_speed_max')}`);
    expect(await applyAndWait(page)).toEqual([DONE]);
    // "system" reads back as the sysctl's value.
    expect(await guestValues(md('sync_speed_min'), md('sync_speed_max'))).toEqual([`${SLOW_LIMITS.min} (system)`, `${SLOW_LIMITS.max} (system)`]);
    await close(page);
    await waitUntil('the page shows the system limits', async () =>
        (await syncFact(page, 'md0', 'Maximum speed')) === `0.20 MiB/s (${SLOW_LIMITS.max} KiB/s), from the system limit`);
});

test('stripe cache of a RAID5: its memory cost from the guest, written, read back, restored', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid5', ['vda', 'vdb', 'vdc']));
    const page = await openWithCard('md0', true);
    const pageSize = Number(await vm.guest.runOk('getconf PAGESIZE'));
    expect(await guestValue(md('stripe_cache_size'))).toBe('256');
    await openArrayDialog(page, 'md0', 'Stripe cache…');
    await dialog(page).getByLabel('Entries (17 to 32768)').fill('4096');
    // page size x raid disks x entries, with the guest's page size
    const mib = (pageSize * 3 * 4096) / 2 ** 20;
    await expect(dialog(page).locator('.raidtune-stripe-cost').innerText()).resolves
        .toMatch(new RegExp(`^Memory: ${mib.toFixed(1)} MiB = page size ${pageSize / 1024} KiB × 3 disks × 4096 entries`));
    expect(await previewedCommands(page)).toBe(`echo 4096 > ${md('stripe_cache_size')}`);
    const outcome = await applyAndWait(page);
    // The kernel may allocate less than asked: the page must say what it kept.
    const kept = await guestValue(md('stripe_cache_size'));
    expect(outcome).toEqual(kept === '4096' ? [DONE]
        : [DONE, `The kernel kept ${kept} for the stripe cache size of md0 (asked for 4096).`]);
    await close(page);
    await arrayCard(page, 'md0').getByText(new RegExp(`^${kept} entries, \\d+ in use`)).waitFor();

    // Restore puts the kernel's default back.
    await page.reload();
    const banner = page.locator('.raidtune-restore');
    await banner.getByText('raidtune changed 1 setting on this host.').waitFor({ timeout: 30000 });
    await banner.getByRole('button', { name: 'Restore previous settings' }).click();
    expect(await previewedCommands(page)).toBe(`echo 256 > ${md('stripe_cache_size')}\nrm -f ${VM_JOURNAL}`);
    expect(await applyAndWait(page, 'Restore')).toEqual([DONE]);
    expect(await guestValues(md('stripe_cache_size'), VM_JOURNAL)).toEqual(['256', '<absent>']);
    await close(page);
});

test('pause (frozen), resume and restart a resync', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid1', ['vda', 'vdb']));
    await waitForProgress(vm.guest, 'md0', 512);
    const page = await openWithCard('md0', true);

    await openArrayDialog(page, 'md0', 'Pause');
    expect(await previewedCommands(page)).toBe(`echo frozen > ${md('sync_action')}`);
    expect(await applyAndWait(page)).toEqual([DONE]);
    await close(page);
    expect(await guestValue(md('sync_action'))).toBe('frozen');
    expect((await guestMdstat(vm.guest, 'md0')).waiting).toBe('PENDING');
    const frozenAt = Number(await guestValue(md('resync_start')));
    expect(frozenAt).toBeGreaterThan(0);
    await waitUntil('the page shows the pause', async () => (await syncExplanation(page, 'md0'))?.startsWith('Paused (frozen)'));

    await openArrayDialog(page, 'md0', 'Resume');
    expect(await previewedCommands(page)).toBe(`echo idle > ${md('sync_action')}`);
    expect(await applyAndWait(page)).toEqual([DONE]);
    await close(page);
    // The kernel starts the needed resync again by itself, where it stopped.
    const resumed = await waitForProgress(vm.guest, 'md0', 0, 15000);
    expect(await guestValue(md('sync_action'))).toBe('resync');
    expect(resumed.progress!.done).toBeGreaterThanOrEqual(frozenAt / 2);
    await syncSection(page, 'md0').getByText('Speed:', { exact: true }).waitFor({ timeout: 15000 });
    expect(await syncExplanation(page, 'md0')).toBeNull();

    await openArrayDialog(page, 'md0', 'Restart sync');
    expect(await previewedCommands(page)).toBe(`echo idle > ${md('sync_action')}`);
    const beforeRestart = (await guestMdstat(vm.guest, 'md0')).progress!.done;
    expect(await applyAndWait(page)).toEqual([DONE]);
    await close(page);
    // Interrupted and started again from where it was, not from the start.
    const restarted = await waitForProgress(vm.guest, 'md0', 0, 15000);
    expect(await guestValue(md('sync_action'))).toBe('resync');
    expect(restarted.progress!.done).toBeGreaterThanOrEqual(beforeRestart);
    expect(await syncTitle(page, 'md0')).toBe('Resync');
});

test('start a check on a clean idle array, then stop it', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid1', ['vda', 'vdb'], '--assume-clean'));
    const page = await openWithCard('md0', false);
    expect(await guestValue(md('sync_action'))).toBe('idle');
    expect(await syncSection(page, 'md0').count()).toBe(0);

    await openArrayDialog(page, 'md0', 'Start check');
    expect(await previewedCommands(page)).toBe(`echo check > ${md('sync_action')}`);
    expect(await applyAndWait(page)).toEqual([DONE]);
    await close(page);
    expect(await guestValue(md('sync_action'))).toBe('check');
    await syncSection(page, 'md0').waitFor({ timeout: 15000 });
    expect(await syncTitle(page, 'md0')).toBe('Check');

    await openArrayDialog(page, 'md0', 'Stop check');
    expect(await previewedCommands(page)).toBe(`echo idle > ${md('sync_action')}`);
    expect(await applyAndWait(page)).toEqual([DONE]);
    await close(page);
    // A check does not come back by itself (unlike a needed resync).
    expect(await guestValues(md('sync_action'), md('last_sync_action'))).toEqual(['idle', 'check']);
    await syncSection(page, 'md0').waitFor({ state: 'detached', timeout: 15000 });
});

test('a check that another admin started meanwhile: the kernel\'s EBUSY reaches the user', async () => {
    // raidtune offers "Start check" only on an idle array; a check started elsewhere (cron's
    // checkarray, another admin) while the dialog is open makes the kernel refuse the write.
    await createSlowly(vm.guest, mdCreate('md0', 'raid1', ['vda', 'vdb'], '--assume-clean'));
    const page = await openWithCard('md0', false);
    let outcome: string[] = [];
    for (let attempt = 0; ; attempt++) {
        await openArrayDialog(page, 'md0', 'Start check');
        expect(await previewedCommands(page)).toBe(`echo check > ${md('sync_action')}`);
        const seen = await renderedRefreshes(page);
        await vm.guest.runOk(`echo check > ${md('sync_action')}`);
        // The page refreshes every 10 s while idle; had it seen the check, it would no longer offer it.
        if (await renderedRefreshes(page) === seen && !(await formState(page)).applyDisabled) {
            outcome = await applyAndWait(page);
            break;
        }
        if (attempt >= 2)
            throw new Error('the page refreshed between opening the dialog and Apply three times');
        await page.keyboard.press('Escape');
        await vm.guest.runOk(`echo idle > ${md('sync_action')}`);
        await syncSection(page, 'md0').waitFor({ state: 'detached', timeout: 30000 });
    }
    expect(outcome).toEqual(['Changing the sync action of md0 failed: Device or resource busy']);
    await dialog(page).getByText('Nothing after this step was changed.').waitFor();
    // No undo to offer: nothing was changed.
    expect(await dialog(page).locator('.pf-v6-c-modal-box__footer button').allInnerTexts()).toEqual(['Close']);
    await close(page);
    // The running check is untouched, and the page shows it.
    expect(await guestValue(md('sync_action'))).toBe('check');
    await waitUntil('the page shows the check', async () => (await syncSection(page, 'md0').count()) > 0 && await syncTitle(page, 'md0') === 'Check');
});

test('bad values for the system limits and the stripe cache: refused by the page, the guest unchanged', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid5', ['vda', 'vdb', 'vdc']));
    const page = await openWithCard('md0', true);
    const watched = [MIN, MAX, md('stripe_cache_size'), VM_JOURNAL];
    const original = await guestValues(...watched);
    expect(original).toEqual([String(SLOW_LIMITS.min), String(SLOW_LIMITS.max), '256', '<absent>']);

    // A bad value is refused with a message; one that reads as the field did when the dialog opened
    // (the guest's 1 KiB/s minimum shows as 0.00 MiB/s) is no change at all: nothing to write either way.
    const opened = new Map<string, string>();
    const refuses = async (field: string, bad: string) => {
        const input = dialog(page).getByLabel(field);
        if (!opened.has(field)) opened.set(field, await input.inputValue());
        await input.fill(bad);
        await input.blur(); // judged once left (src/ui/common/fieldAlarm.ts)
        const state = await formState(page);
        const untouched = bad.trim() === opened.get(field)!.trim();
        const refused = (untouched || state.errors.length > 0) && state.applyDisabled && state.commands === null;
        return refused ? null : { field, bad, state };
    };
    const accepted: unknown[] = [];
    await showOverview(page);
    await page.locator('#global-limits').getByRole('button', { name: 'Change…' }).click();
    await dialog(page).waitFor();
    for (const field of ['Minimum (MiB/s per disk)', 'Maximum (MiB/s per disk)']) {
        for (const bad of BAD_TEXT_VALUES)
            accepted.push(await refuses(field, bad));
        await dialog(page).getByLabel(field).fill('1');
    }
    // Minimum above maximum: the kernel would take it (checked on 6.1); raidtune does not.
    await dialog(page).getByLabel('Minimum (MiB/s per disk)').fill('500');
    await dialog(page).getByLabel('Maximum (MiB/s per disk)').fill('100');
    await dialog(page).getByText('The minimum must not be above the maximum.').waitFor();
    expect((await formState(page)).applyDisabled).toBe(true);
    await footerButton(page, 'Cancel').click();

    await openArrayDialog(page, 'md0', 'Stripe cache…');
    for (const bad of [...BAD_TEXT_VALUES, '16', '32769'])
        accepted.push(await refuses('Entries (17 to 32768)', bad));
    await footerButton(page, 'Cancel').click();

    expect(accepted.filter(Boolean)).toEqual([]);
    expect(await guestValues(...watched)).toEqual(original);
});
