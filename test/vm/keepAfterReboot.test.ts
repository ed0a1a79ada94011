// SPDX-License-Identifier: LGPL-2.1-or-later
// "Keep after reboot", proven by a reboot (issue #13). The page changes every setting it can keep
// and keeps them; the guest is shut down as Debian does (mdadm's shutdown hook) and a second QEMU
// boots on the same disk images and the same kept /etc folders (tools/vm/vm.ts: diskDir,
// persistDir), in guest-init's boot mode: the host's own systemd-modules-load, systemd-sysctl,
// systemd-udevd + `udevadm trigger --action=add` + settle, with md not loaded before. mdadm's udev
// rules assemble the arrays, raidtune's rule applies, and the kernel must hold every kept value;
// what was changed but not kept must be back at the kernel's default.
//
// Its own two guests (SCSI disks, which report a WWID and a queue depth), not the tier's shared one.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, openPage, type LaunchedBrowser, type RecordedPage } from '../../tools/cockpit';
import { startGuest, type Guest, type GuestOptions } from '../../tools/vm/vm';
import { startGuestCockpit, type GuestCockpit } from '../../tools/vm/ws';
import { openArrayDialog, openDialog, settingDetails, showOverview, waitUntil } from '../browser/harness/raidtunePage';
import { applyAndWait, dialog, DONE, DONE_NOT_KERNEL, footerButton, formState } from './harness/dialog';
import { mdCreate, waitForCard } from './harness/scenarios';
import { VM_PLUGIN_CONFIG } from './harness/vmConfig';
import { DEFAULT_SPEED_LIMIT_MAX, DEFAULT_SPEED_LIMIT_MIN } from './harness/vmEnv';
import { QUEUE_RETRY_MARK } from '../../src/md/tuning/keptFiles';

jest.setTimeout(900000);

/** One boot of the machine: the guest, the host's ws whose session is its bridge. */
interface Boot {
    guest: Guest;
    cockpit: GuestCockpit;
}

let dir: string;
let browser: LaunchedBrowser | undefined;
let current: Boot | undefined;
const opened: RecordedPage[] = [];

/** Disks 0-2: the RAID5 whose settings are kept; 3-4: a RAID1 changed after keeping (not kept). */
const DISKS = 5;

function guestOptions(): GuestOptions {
    return {
        disks: DISKS, diskMiB: 128, diskInterface: 'scsi', bootMode: 'systemd', pluginCopy: true,
        diskDir: join(dir, 'disks'), persistDir: join(dir, 'persist'),
    };
}

async function boot(): Promise<Boot> {
    const guest = await startGuest(guestOptions());
    try {
        current = { guest, cockpit: await startGuestCockpit(guest, { config: VM_PLUGIN_CONFIG }) };
        return current;
    } catch (err) {
        await guest.stop();
        throw err;
    }
}

/** Debian's shutdown: mdadm's system-shutdown hook waits until every array is clean; then power off. */
async function shutDown(machine: Boot): Promise<void> {
    await machine.guest.runOk('mdadm --wait-clean --scan; sync');
    await closePages();
    current = undefined;
    await machine.cockpit.stop();
    await machine.guest.stop();
}

async function closePages(): Promise<void> {
    const pages = opened.splice(0);
    try {
        for (const page of pages)
            await page.expectNoProblems();
    } finally {
        await Promise.all(pages.map(p => p.close()));
    }
}

async function open(machine: Boot, cards: string[]): Promise<Page> {
    const recorded = await openPage(browser!, machine.cockpit.barePageUrl, { timeoutMs: 60000 });
    opened.push(recorded);
    for (const name of cards)
        await waitForCard(recorded.page, name, false);
    return recorded.page;
}

beforeAll(async () => {
    // Under /dev/shm like the run dirs; owner.json lets a later run remove it if this one is killed.
    dir = mkdtempSync('/dev/shm/raidtune-vm-reboot-');
    writeFileSync(join(dir, 'owner.json'), JSON.stringify({ pid: process.pid }) + '\n');
    mkdirSync(join(dir, 'persist'));
    browser = await launchBrowser();
});

afterAll(async () => {
    try {
        await closePages();
    } finally {
        await current?.cockpit.stop();
        await current?.guest.stop();
        await browser?.stop();
        rmSync(dir, { recursive: true, force: true });
    }
});

// ---- the kernel, read in one guest command ----

interface KernelView {
    sysctl: { min: string; max: string };
    /** By MD_UUID: the array's name and md attributes as the kernel prints them. */
    arrays: Map<string, { name: string; values: Record<string, string> }>;
    /** By WWID: the disk's name and queue attributes (the scheduler: the one in use). */
    disks: Map<string, { name: string; values: Record<string, string> }>;
}

const ARRAY_FILES = ['md/sync_speed_min', 'md/sync_speed_max', 'md/stripe_cache_size', 'md/group_thread_cnt', 'queue/read_ahead_kb'];
const DISK_FILES = ['queue/scheduler', 'queue/nr_requests', 'device/queue_depth'];

const READ_KERNEL = `
echo "sysctl $(cat /proc/sys/dev/raid/speed_limit_min) $(cat /proc/sys/dev/raid/speed_limit_max)"
for b in /sys/block/md*; do
  n=\${b##*/}
  echo "array $n $(mdadm --detail --export /dev/$n | sed -n 's/^MD_UUID=//p')"
  for f in ${ARRAY_FILES.join(' ')}; do [ -e "$b/$f" ] && echo "value $n $f $(cat "$b/$f")"; done
done
for b in /sys/block/sd*; do
  n=\${b##*/}
  echo "disk $n $(cat $b/device/wwid)"
  for f in ${DISK_FILES.join(' ')}; do echo "value $n $f $(cat "$b/$f")"; done
done
`;

async function readKernel(guest: Guest): Promise<KernelView> {
    const view: KernelView = { sysctl: { min: '', max: '' }, arrays: new Map(), disks: new Map() };
    const byName = new Map<string, Record<string, string>>();
    for (const line of (await guest.runOk(READ_KERNEL)).split('\n')) {
        const [kind, a, b, ...rest] = line.trimEnd().split(' ');
        if (kind === 'sysctl') {
            view.sysctl = { min: a, max: b };
        } else if (kind === 'array' || kind === 'disk') {
            const values = {};
            byName.set(a, values);
            (kind === 'array' ? view.arrays : view.disks).set(b, { name: a, values });
        } else if (kind === 'value') {
            byName.get(a)![b] = b === 'queue/scheduler' ? selectedScheduler(rest) : rest.join(' ');
        }
    }
    return view;
}

/**
 * The scheduler in brackets: kernels list the others in different orders ("[mq-deadline] none",
 * "none [mq-deadline]").
 */
function selectedScheduler(words: string[]): string {
    return words.find(w => /^\[.*\]$/.test(w))?.slice(1, -1) ?? words.join(' ');
}

function arrayOf(view: KernelView, uuid: string) {
    const array = view.arrays.get(uuid);
    if (!array)
        throw new Error(`no array with MD_UUID ${uuid}: ${JSON.stringify([...view.arrays])}`);
    return array;
}

function diskOf(view: KernelView, wwid: string) {
    const disk = view.disks.get(wwid);
    if (!disk)
        throw new Error(`no disk with WWID ${wwid}: ${JSON.stringify([...view.disks])}`);
    return disk;
}

// ---- the page ----

async function applyAndClose(page: Page, label = 'Apply', done = DONE): Promise<void> {
    expect(await applyAndWait(page, label)).toEqual([done]);
    await footerButton(page, 'Close').click();
    await dialog(page).waitFor({ state: 'detached' });
}

async function diskQueues(page: Page, array: string, setting: 'scheduler' | 'nrRequests' | 'queueDepth', value: string): Promise<void> {
    await openArrayDialog(page, array, 'Disk queues…');
    await dialog(page).locator(`#${array}-disk-setting-${setting}`).check();
    if (setting === 'scheduler')
        await dialog(page).locator(`#${array}-disk-value-${value}`).check();
    else
        await dialog(page).locator(`#${array}-disk-value`).fill(value);
    expect((await formState(page)).errors).toEqual([]);
    await applyAndClose(page);
    // The next dialog must know the new queue settings (nr_requests' limit depends on the
    // scheduler); the refresh an apply asks for can still be on its way under emulation: a reload
    // opens the page on a fresh read.
    await page.reload();
    await waitForCard(page, array, false);
}

/** The "Settings after a reboot" table: setting -> its state (kept, differs, not-kept), once it lists `count` rows. */
async function keptTable(page: Page, count: number): Promise<Map<string, string>> {
    const rows = (await settingDetails(page, 'keep-after-reboot')).locator('table.raidtune-kept tbody tr');
    await waitUntil(`${count} settings listed for after a reboot`, async () => (await rows.count()) === count, 30000);
    const read = await rows.evaluateAll(trs => trs.map(tr => [(tr.querySelector('td') as HTMLElement).innerText.trim(), tr.getAttribute('data-state') ?? '']));
    return new Map(read.map(([setting, state]) => [lowerFirst(setting), state]));
}

/** The table starts a sentence-like label with a capital unless it starts with a name. */
function lowerFirst(label: string): string {
    return label.charAt(0).toLowerCase() + label.slice(1);
}

/** The rows every kept setting gives, under the names the devices have in this boot. */
function keptRows(view: KernelView, uuid: string, wwids: string[]): string[] {
    const md = arrayOf(view, uuid).name;
    return [
        'system minimum rebuild speed', 'system maximum rebuild speed',
        ...['minimum sync speed', 'maximum sync speed', 'stripe cache size', 'worker threads', 'read-ahead'].map(s => `${s} of ${md}`),
        ...wwids.flatMap(w => ['I/O scheduler', 'nr_requests', 'queue depth'].map(s => `${s} of ${diskOf(view, w).name}`)),
    ].map(lowerFirst);
}

test('every kept setting is back after a reboot with the real udev and systemd-sysctl; one not kept is at the kernel default', async () => {
    // ---- first boot: md is loaded by mdadm on demand (nothing is kept yet) ----
    let machine = await boot();
    let view = await readKernel(machine.guest);
    const names = [...view.disks.values()].map(d => d.name).sort();
    expect(names).toHaveLength(DISKS);
    // The kernel's values before any change: what the settings not kept must come back to.
    const defaults = Object.fromEntries(DISK_FILES.map(f => [f, view.disks.get([...view.disks.keys()][0])!.values[f]]));
    await machine.guest.runOk(`${mdCreate('md0', 'raid5', names.slice(0, 3), '--assume-clean')}
${mdCreate('md1', 'raid1', names.slice(3, 5), '--assume-clean')}`);
    view = await readKernel(machine.guest);
    const [kept, notKept] = ['md0', 'md1'].map(n => [...view.arrays].find(([, a]) => a.name === n)![0]);
    const wwidOf = (name: string) => [...view.disks].find(([, d]) => d.name === name)![0];
    const keptDisks = names.slice(0, 3).map(wwidOf);
    const notKeptDisks = names.slice(3, 5).map(wwidOf);
    expect(keptDisks.every(w => /^naa\./.test(w))).toBe(true);
    const md1Default = arrayOf(view, notKept).values;

    let page = await open(machine, ['md0', 'md1']);
    await showOverview(page);
    await openDialog(page.locator('#global-limits').getByRole('button', { name: 'Change…' }));
    await dialog(page).getByLabel('Minimum (MiB/s per disk)').fill('50');
    await dialog(page).getByLabel('Maximum (MiB/s per disk)').fill('300');
    await applyAndClose(page);
    await openArrayDialog(page, 'md0', 'Speed limits…');
    await dialog(page).locator('#md0-min-own').check();
    await dialog(page).locator('#md0-min-value').fill('0.5');
    await dialog(page).locator('#md0-max-own').check();
    await dialog(page).locator('#md0-max-value').fill('2');
    await applyAndClose(page);
    await openArrayDialog(page, 'md0', 'Stripe cache…');
    await dialog(page).locator('#md0-stripe-cache').fill('4096');
    await applyAndClose(page);
    await openArrayDialog(page, 'md0', 'Read-ahead…');
    await dialog(page).locator('#md0-read-ahead').fill('8192');
    await applyAndClose(page);
    await openArrayDialog(page, 'md0', 'Worker threads…');
    await dialog(page).locator('#md0-worker-threads').fill('2');
    await applyAndClose(page);
    await diskQueues(page, 'md0', 'scheduler', 'mq-deadline');
    await diskQueues(page, 'md0', 'nrRequests', '512');
    await diskQueues(page, 'md0', 'queueDepth', '16');

    await showOverview(page);
    await page.locator('#keep-after-reboot').getByRole('button', { name: 'Keep after reboot…' }).click();
    await dialog(page).waitFor();
    await applyAndClose(page, 'Apply', DONE_NOT_KERNEL);
    // Changed after keeping: md1's maximum and its disks' scheduler are not kept.
    await openArrayDialog(page, 'md1', 'Speed limits…');
    await dialog(page).locator('#md1-max-own').check();
    // Above the system minimum (50 MiB/s), which md1 follows.
    await dialog(page).locator('#md1-max-value').fill('100');
    expect((await formState(page)).errors).toEqual([]);
    await applyAndClose(page);
    await diskQueues(page, 'md1', 'scheduler', 'mq-deadline');

    const before = await readKernel(machine.guest);
    const keptValues = {
        sysctl: before.sysctl,
        array: arrayOf(before, kept).values,
        disks: keptDisks.map(w => diskOf(before, w).values),
    };
    expect(keptValues.sysctl).toEqual({ min: '51200', max: '307200' });
    expect(keptValues.array).toEqual({
        'md/sync_speed_min': '512 (local)', 'md/sync_speed_max': '2048 (local)', 'md/stripe_cache_size': '4096',
        'md/group_thread_cnt': '2', 'queue/read_ahead_kb': '8192',
    });
    for (const disk of keptValues.disks)
        expect(disk).toEqual({ 'queue/scheduler': 'mq-deadline', 'queue/nr_requests': '512', 'device/queue_depth': '16' });
    expect(arrayOf(before, notKept).values['md/sync_speed_max']).toBe('102400 (local)');
    const table = await keptTable(page, 16 + 3);
    expect([...table].filter(([, state]) => state === 'kept').map(([s]) => s).sort()).toEqual(keptRows(before, kept, keptDisks).sort());
    expect([...table].filter(([, state]) => state === 'not-kept').map(([s]) => s).sort()).toEqual([
        'maximum sync speed of md1', ...notKeptDisks.map(w => `I/O scheduler of ${diskOf(before, w).name}`),
    ].map(lowerFirst).sort());
    await shutDown(machine);

    // ---- the reboot: the same disks and kept files, booted in systemd's order ----
    machine = await boot();
    const after = await readKernel(machine.guest);
    expect(after.sysctl).toEqual(keptValues.sysctl);
    const log = readFileSync(join(machine.guest.runDir, 'share', 'boot.log'), 'utf8');
    // md was not loaded before systemd-modules-load, which loaded it from the kept modules-load.d
    // entry; so systemd-sysctl found dev.raid.* and set the kept limits.
    expect(log).toMatch(/ before systemd-modules-load: md_mod not loaded \n/);
    // udev logs a write the kernel refused and goes on. On newer kernels a scheduler or nr_requests
    // write can meet EBUSY while other disks change theirs (and an nr_requests after a failed
    // scheduler EINVAL): the rule's retry (persist.ts) writes them again. Nothing else may be
    // refused, and the retry must not give up (udev would log its failure, naming it).
    const refused = log.split('\n').filter(line => /Failed to write ATTR/.test(line));
    const busy = refused.filter(line => /Device or resource busy$/.test(line)).length;
    if (busy) process.stderr.write(`keepAfterReboot: ${busy} queue write(s) refused with EBUSY at boot, retried by the rule\n`);
    expect(refused.filter(line => !/queue\/(scheduler|nr_requests)\}, ignoring: Device or resource busy$|queue\/nr_requests\}, ignoring: Invalid argument$/
        .test(line))).toEqual([]);
    expect(log.split('\n').filter(line => line.includes(QUEUE_RETRY_MARK))).toEqual([]);
    expect(log).toContain('Loading module: md_mod');
    expect(log).toContain(` before systemd-sysctl: md_mod loaded dev.raid.speed_limit_min=${DEFAULT_SPEED_LIMIT_MIN} ` +
        `dev.raid.speed_limit_max=${DEFAULT_SPEED_LIMIT_MAX} \n`);
    expect(log).toContain(`Setting '/proc/sys/dev/raid/speed_limit_min' to '51200'`);
    expect(arrayOf(after, kept).values).toEqual(keptValues.array);
    expect(keptDisks.map(w => diskOf(after, w).values)).toEqual(keptValues.disks);
    // Not kept: at the kernel's defaults again.
    expect(arrayOf(after, notKept).values).toEqual({ ...md1Default, 'md/sync_speed_max': '307200 (system)', 'md/sync_speed_min': '51200 (system)' });
    for (const w of notKeptDisks)
        expect(diskOf(after, w).values).toEqual(defaults);

    // The page says they are kept (under the names the devices have now), and lists nothing else.
    page = await open(machine, [arrayOf(after, kept).name, arrayOf(after, notKept).name]);
    const rebooted = await keptTable(page, 16);
    expect([...rebooted.keys()].sort()).toEqual(keptRows(after, kept, keptDisks).sort());
    expect(new Set(rebooted.values())).toEqual(new Set(['kept']));
});
