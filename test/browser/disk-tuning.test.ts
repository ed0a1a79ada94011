// SPDX-License-Identifier: LGPL-2.1-or-later
// Read-ahead, worker threads and the member disks' queues, changed through the page on a simulated
// host: preview, apply through tee, the simulated kernel's value read back from its files, the
// kernel's clamp, refused values that write nothing, and restoring the originals. The array's
// dialogs are on its page (#/md0), "Keep after reboot" among the overview's host settings (#/).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { customScenario } from './harness/customScenario';
import { setupRaidtune } from './harness/env';
import {
    cardFacts, FILES_DONE, KERNEL_DONE, openArrayDialog, showOverview, simValue, waitUntil,
} from './harness/raidtunePage';
import { BAD_TEXT_VALUES } from '../shared/badValues';

const DISKS = ['sda', 'sdb', 'sdc', 'sdd', 'sde'];
const TB2 = 2000398934016;

/**
 * RAID6 on five SATA disks, sde an SSD that also offers bfq. Their NCQ queue holds 32 commands,
 * as libata's does, so a larger queue_depth is clamped to 32 like on a real SATA disk.
 */
const SCENARIO = {
    name: 'disk-tuning',
    description: 'RAID6 on five SATA disks (one an SSD), clean and idle.',
    disks: DISKS.map(name => ({
        name, kind: 'sata', sizeBytes: TB2, queueDepthMax: 32, partitions: [{ number: 1 }],
        ...(name === 'sde' ? { rotational: false, schedulers: ['mq-deadline', 'bfq'] } : {}),
    })),
    arrays: [{ name: 'md0', level: 'raid6', members: DISKS.map(d => ({ device: `${d}1` })) }],
};

const { file: scenarioFile, stateDir } = customScenario('disk-tuning', SCENARIO);
const env = setupRaidtune({ scenario: scenarioFile, arrayPage: 'md0', config: { stateDir } });

const queueDepth = (disk: string) => `/sys/block/${disk}/device/queue_depth`;
const nrRequests = (disk: string) => `/sys/block/${disk}/queue/nr_requests`;
const scheduler = (disk: string) => `/sys/block/${disk}/queue/scheduler`;
const READ_AHEAD = '/sys/block/md0/queue/read_ahead_kb';
const THREADS = '/sys/block/md0/md/group_thread_cnt';

function dialog(): Locator {
    return env.page.getByRole('dialog');
}

function footerButton(name: string): Locator {
    return dialog().locator('.pf-v6-c-modal-box__footer').getByRole('button', { name, exact: true });
}

function commands(): Promise<string> {
    return dialog().locator('.raidtune-commands').innerText();
}

async function open(button: string): Promise<void> {
    await openArrayDialog(env.page, 'md0', button);
}

async function applyAndClose(outcome: string | RegExp = KERNEL_DONE): Promise<void> {
    await footerButton('Apply').click();
    await dialog().getByText(outcome).waitFor();
    await footerButton('Close').click();
    await dialog().waitFor({ state: 'detached' });
}

/** Every disk's value of one attribute, as the simulated kernel shows it after its next tick. */
function simValues(path: (disk: string) => string): Promise<string[]> {
    return Promise.all(DISKS.map(d => simValue(env, path(d))));
}

async function simSettlesAt(path: (disk: string) => string, expected: string[]): Promise<void> {
    await waitUntil(`${path('*')} reads ${expected.join(', ')}`, async () => JSON.stringify(await simValues(path)) === JSON.stringify(expected));
}

const echoAll = (value: string, path: (disk: string) => string) => DISKS.map(d => `echo ${value} > ${path(d)}`).join('\n');

// A test that failed with its dialog open must not take the next one down with it.
beforeEach(async () => {
    if (await dialog().count()) await env.page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
});

let originalReadAhead: string;

test('read-ahead in KiB, with the blockdev --setra sectors, applied and read back', async () => {
    originalReadAhead = await simValue(env, READ_AHEAD);
    const kib = Number(originalReadAhead);
    expect((await cardFacts(env.page, 'md0'))['Read-ahead']).toBe(`${kib} KiB (${kib * 2} sectors for blockdev --setra)`);

    await open('Read-ahead…');
    await dialog().getByLabel('Read-ahead in KiB (0 to 65536)').fill('32768');
    // The common rebuild tip `blockdev --setra 65536` is this very value.
    await expect(dialog().locator('.raidtune-setra').innerText()).resolves.toBe(
        '32768 KiB is 65536 sectors of 512 bytes: the same as blockdev --setra 65536 /dev/md0.');
    await expect(commands()).resolves.toBe(`echo 32768 > ${READ_AHEAD}`);
    expect(await simValue(env, READ_AHEAD)).toBe(originalReadAhead); // nothing before Apply
    await applyAndClose();
    expect(await simValue(env, READ_AHEAD)).toBe('32768');
    await waitUntil('the card shows the new read-ahead', async () =>
        (await cardFacts(env.page, 'md0'))['Read-ahead'] === '32768 KiB (65536 sectors for blockdev --setra)');
});

test('worker threads of the RAID6, applied and read back', async () => {
    expect((await cardFacts(env.page, 'md0'))['Worker threads']).toBe('0 (md\'s own thread only)');
    await open('Worker threads…');
    await dialog().getByLabel('Worker threads per NUMA node (0 to 32)').fill('4');
    await expect(commands()).resolves.toBe(`echo 4 > ${THREADS}`);
    await applyAndClose();
    expect(await simValue(env, THREADS)).toBe('4');
    await waitUntil('the card shows the threads', async () => (await cardFacts(env.page, 'md0'))['Worker threads'] === '4 per NUMA node');
});

test('NCQ off on every member disk at once, one command per disk, with the SSD caveat', async () => {
    expect(await simValues(queueDepth)).toEqual(DISKS.map(() => '32'));
    await open('Disk queues…');
    const rows = dialog().locator('.raidtune-disk-queues tbody tr');
    await expect(rows.evaluateAll(trs => trs.map(tr => tr.getAttribute('data-disk')))).resolves.toEqual(DISKS);
    await expect(rows.last().innerText()).resolves.toMatch(/^\/dev\/sde\s+SSD\s+32\s+64\s+mq-deadline$/);

    await dialog().getByLabel('New value for every disk: Queue depth (NCQ)').fill('1');
    await expect(commands()).resolves.toBe(echoAll('1', queueDepth));
    await dialog().getByText('Queue depth 1 turns NCQ off.', { exact: false }).waitFor();
    await dialog().getByText('Turning NCQ off slows SSDs down a lot, and these are SSDs: sde.').waitFor();
    await applyAndClose();
    expect(await simValues(queueDepth)).toEqual(DISKS.map(() => '1'));
    await simSettlesAt(queueDepth, DISKS.map(() => '1'));
});

test('keep after reboot: read-ahead and threads with the array, the queue depth per disk by its WWID', async () => {
    const udevFile = join(env.sim.root, 'etc/udev/rules.d/64-raidtune.rules');
    const keepCard = env.page.locator('#keep-after-reboot');
    // A host setting: on the overview (it comes a moment after it; the click waits for it).
    await showOverview(env.page);
    await keepCard.getByRole('button', { name: 'Keep after reboot…' }).click();
    await dialog().waitFor();
    await footerButton('Apply').click();
    await dialog().getByText('Done.', { exact: false }).waitFor();
    await footerButton('Close').click();

    const uuid = (await simValue(env, '/sys/block/md0/md/uuid')).replace(/-/g, '').match(/.{8}/g)!.join(':');
    const md0 = (attribute: string, value: string) =>
        `SUBSYSTEM=="block", ACTION=="add|change", KERNEL=="md*", ENV{MD_UUID}=="${uuid}", TEST=="${attribute}", ATTR{${attribute}}="${value}"`;
    // udev compares ATTRS{wwid} with the file's content, trailing blanks ignored: what the disk reports.
    const wwids = await Promise.all(DISKS.map(d => simValue(env, `/sys/block/${d}/device/wwid`)));
    expect(new Set(wwids).size).toBe(DISKS.length);
    const disk = (wwid: string) =>
        `SUBSYSTEM=="block", ACTION=="add|change", ENV{DEVTYPE}=="disk", ATTRS{wwid}=="${wwid}", TEST=="device/queue_depth", ATTR{device/queue_depth}="1"`;
    expect(readFileSync(udevFile, 'utf8').split('\n').filter(l => l && !l.startsWith('#'))).toEqual([
        md0('md/group_thread_cnt', '4'), md0('queue/read_ahead_kb', '32768'), ...wwids.map(disk),
    ]);
    await waitUntil('the page reads the rule back', async () => (await keepCard.locator('tbody tr[data-state="kept"]').count()) === 2 + DISKS.length);
    expect(await keepCard.locator('tbody tr[data-state="kept"] td:first-child').allInnerTexts()).toEqual([
        'Worker threads of md0', 'Read-ahead of md0', ...DISKS.map(d => `Queue depth of ${d}`)]);

    await keepCard.getByRole('button', { name: 'Stop keeping…' }).click();
    await dialog().waitFor();
    await applyAndClose(FILES_DONE);
    await waitUntil('the rule is gone', async () => (await keepCard.locator('tbody tr[data-state="kept"]').count()) === 0);
});

test('nr_requests on every member disk', async () => {
    await open('Disk queues…');
    await dialog().getByRole('radio', { name: 'Request queue size (nr_requests)', exact: true }).check();
    const field = dialog().getByLabel('New value for every disk: Request queue size (nr_requests)');
    await expect(field.inputValue()).resolves.toBe('64');
    await field.fill('128');
    await expect(commands()).resolves.toBe(echoAll('128', nrRequests));
    await applyAndClose();
    await simSettlesAt(nrRequests, DISKS.map(() => '128'));
});

test('the scheduler: only what every disk offers; switching resets nr_requests', async () => {
    await open('Disk queues…');
    await dialog().getByRole('radio', { name: 'I/O scheduler', exact: true }).check();
    await expect(dialog().getByRole('radio', { name: 'bfq', exact: true }).count()).resolves.toBe(0); // sde's alone
    await dialog().getByRole('radio', { name: 'none', exact: true }).check();
    await expect(commands()).resolves.toBe(echoAll('none', scheduler));
    // The preview says what the kernel will make of the 128 set above: the disks' 32 tags without a scheduler.
    await dialog().getByText(`The new scheduler also changes nr_requests: ${DISKS.map(d => `${d} 128 → 32`).join(', ')}.`).waitFor();
    await applyAndClose();
    await simSettlesAt(scheduler, ['[none] mq-deadline', '[none] mq-deadline', '[none] mq-deadline', '[none] mq-deadline', '[none] mq-deadline bfq']);
    // Without a scheduler the kernel goes back to the hardware's 32 tags.
    await simSettlesAt(nrRequests, DISKS.map(() => '32'));
    // The dialog opened again, without a reload, shows what the kernel holds now.
    await open('Disk queues…');
    const column = (n: number) => dialog().locator(`.raidtune-disk-queues tbody tr td:nth-child(${n})`).allInnerTexts();
    await expect(column(5)).resolves.toEqual(DISKS.map(() => 'none'));
    await expect(column(4)).resolves.toEqual(DISKS.map(() => '32'));
    await footerButton('Cancel').click();
});

test('a queue depth above what SATA queues: the kernel keeps 32', async () => {
    await open('Disk queues…');
    await dialog().getByLabel('New value for every disk: Queue depth (NCQ)').fill('64');
    await expect(commands()).resolves.toBe(echoAll('64', queueDepth));
    await applyAndClose();
    await simSettlesAt(queueDepth, DISKS.map(() => '32'));
    // The page reads what the kernel kept.
    await env.page.reload();
    await open('Disk queues…');
    await expect(dialog().locator('.raidtune-disk-queues tbody tr td:nth-child(3)').allInnerTexts()).resolves.toEqual(DISKS.map(() => '32'));
    await footerButton('Cancel').click();
});

/** Each value gets an error next to the field, no commands and no Apply. */
async function expectRefused(field: Locator, values: string[]): Promise<void> {
    for (const bad of values) {
        await field.fill(bad);
        await field.blur(); // judged once left (src/ui/common/fieldAlarm.ts)
        await expect(dialog().locator('.pf-v6-c-helper-text__item.pf-m-error').first().innerText()).resolves.toMatch(/\w/);
        expect(await footerButton('Apply').isDisabled()).toBe(true);
        await expect(dialog().locator('.raidtune-commands').count()).resolves.toBe(0);
    }
    await footerButton('Cancel').click();
    await dialog().waitFor({ state: 'detached' });
}

test('bad values are refused next to the field and nothing is written', async () => {
    const settingPaths = [READ_AHEAD, THREADS, ...DISKS.flatMap(d => [queueDepth(d), nrRequests(d), scheduler(d)])];
    const before = await Promise.all(settingPaths.map(p => simValue(env, p)));
    const journal = readFileSync(join(stateDir, 'restore.json'), 'utf8');

    await open('Disk queues…');
    await expectRefused(dialog().getByLabel('New value for every disk: Queue depth (NCQ)'), [...BAD_TEXT_VALUES, '129', '1024']);
    await open('Disk queues…');
    await dialog().getByRole('radio', { name: 'Request queue size (nr_requests)', exact: true }).check();
    // 3 would silently become 4 in the kernel; 2049 is more than any scheduler queues.
    await expectRefused(dialog().getByLabel('New value for every disk: Request queue size (nr_requests)'), ['0', '3', '2049', '1; reboot']);
    await open('Read-ahead…');
    // 10 KiB is not whole pages; 65537 is past the 64 MiB raidtune allows.
    await expectRefused(dialog().getByLabel('Read-ahead in KiB (0 to 65536)'), ['65537', '10', '-1', '32 MiB']);
    await open('Worker threads…');
    await expectRefused(dialog().getByLabel('Worker threads per NUMA node (0 to 32)'), ['33', '8192', '-1', 'all']);

    const after = await Promise.all(settingPaths.map(p => simValue(env, p)));
    expect(after).toEqual(before);
    expect(readFileSync(join(stateDir, 'restore.json'), 'utf8')).toBe(journal);
});

test('the originals were recorded before the first change, and restoring writes them back', async () => {
    const journal = JSON.parse(readFileSync(join(stateDir, 'restore.json'), 'utf8'));
    const originals = Object.fromEntries(
        journal.entries.map((e: { path: string; original: string }) => [e.path, e.original]));
    expect(originals).toEqual({
        [READ_AHEAD]: originalReadAhead,
        [THREADS]: '0',
        ...Object.fromEntries(DISKS.flatMap(d => [[queueDepth(d), '32'], [nrRequests(d), '64'], [scheduler(d), 'mq-deadline']])),
    });

    await env.page.locator('.raidtune-restore').getByRole('button', { name: 'Restore previous settings' }).click();
    await dialog().waitFor();
    await footerButton('Restore').click();
    await dialog().getByText(KERNEL_DONE).waitFor();
    await footerButton('Close').click();

    expect(await simValue(env, READ_AHEAD)).toBe(originalReadAhead);
    expect(await simValue(env, THREADS)).toBe('0');
    await simSettlesAt(queueDepth, DISKS.map(() => '32'));
    await simSettlesAt(scheduler, ['none [mq-deadline]', 'none [mq-deadline]', 'none [mq-deadline]', 'none [mq-deadline]', 'none [mq-deadline] bfq']);
    // The scheduler switch back sets the default, which is what the disks had.
    await simSettlesAt(nrRequests, DISKS.map(() => '64'));
});
