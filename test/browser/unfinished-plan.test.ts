// SPDX-License-Identifier: LGPL-2.1-or-later
// A plan cut short: nr_requests applied to five disks, and the connection lost after the first two
// writes (the page's websocket stops passing its messages to Cockpit, as when a tab closes or the
// network goes, then the page reloads). The next load finds the plan's record on the host, says
// which disks took the value, and finishes the plan or undoes what took effect, previewed.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAxe, severe } from './harness/cockpitSettings';
import { simulatedTool } from '../../tools/cockpit';
import { customScenario } from './harness/customScenario';
import { setupRaidtune } from './harness/env';
import { arrayCard, changeDialog, closeLeftoverDialog, dialogButton, FILES_DONE, KERNEL_DONE, openArrayDialog, simValue, waitUntil } from './harness/raidtunePage';

const DISKS = ['sda', 'sdb', 'sdc', 'sdd', 'sde'];
const SCENARIO = {
    name: 'five-disks',
    description: 'RAID6 on five SATA disks, clean and idle.',
    disks: DISKS.map(name => ({ name, kind: 'sata', sizeBytes: 2000398934016, partitions: [{ number: 1 }] })),
    arrays: [{ name: 'md0', level: 'raid6', members: DISKS.map(d => ({ device: `${d}1` })) }],
};

const { file: scenarioFile, stateDir } = customScenario('five-disks', SCENARIO);
const env = setupRaidtune({ scenario: scenarioFile, arrayPage: 'md0', config: { stateDir } });

const dialog = () => changeDialog(env.page);
const footerButton = (name: string) => dialogButton(env.page, name);
const alert = () => env.page.locator('.raidtune-unfinished');
const nrRequests = (disk: string) => `/sys/block/${disk}/queue/nr_requests`;
const simValues = () => Promise.all(DISKS.map(d => simValue(env, nrRequests(d))));
const record = () => join(stateDir, 'applying.json');

/** When set, the page's messages to Cockpit stop passing from the spawn of `tee` on this disk's nr_requests on. */
let cutAtDisk: string | null = null;
/** Set when the connection was "lost": the writes before that disk's are done, the rest never reach Cockpit. */
let lost = false;
/**
 * When set, the spawn of `tee` on this disk's nr_requests is held (its channel's messages wait), as
 * a step that takes long: the page's other messages (its heartbeat) pass.
 */
let slowDisk: string | null = null;
/** The held channel's messages, and how to let them go. */
let held: { channel: string; messages: string[]; release: () => void } | null = null;

beforeAll(async () => {
    await env.page.routeWebSocket(/\/cockpit\/socket$/, ws => {
        const server = ws.connectToServer();
        let cut = false;
        ws.onMessage(message => {
            if (!cut && cutAtDisk && typeof message === 'string' && opensTee(message, nrRequests(cutAtDisk))) cut = lost = true;
            if (cut) return;
            if (typeof message === 'string' && holds(message, server)) return;
            server.send(message);
        });
        server.onMessage(message => ws.send(message));
    });
    await env.page.reload();
    await arrayCard(env.page, 'md0').waitFor();
});

beforeEach(() => closeLeftoverDialog(env.page));

/** Holds the slow disk's tee: its open and its channel's frames wait until held.release(). */
function holds(frame: string, server: { send: (message: string) => void }): boolean {
    if (held) {
        if (!frame.startsWith(`${held.channel}\n`) && !frame.includes(`"channel":"${held.channel}"`)) return false;
        held.messages.push(frame);
        return true;
    }
    if (!slowDisk || !opensTee(frame, nrRequests(slowDisk))) return false;
    const channel = (JSON.parse(frame.slice(1)) as { channel: string }).channel;
    const messages = [frame];
    held = {
        channel, messages, release: () => {
            held = null;
            messages.forEach(m => server.send(m));
        },
    };
    return true;
}

/** A control message (channel "") opening a spawn of `tee <root>/path` (the configured tee: the simulated host's). */
function opensTee(frame: string, path: string): boolean {
    if (!frame.startsWith('\n')) return false;
    const message = JSON.parse(frame.slice(1)) as { command?: string; spawn?: string[] };
    return message.command === 'open' && message.spawn?.[0] === simulatedTool(env.sim, 'tee') && (message.spawn[1] ?? '').endsWith(path);
}

/** Applies nr_requests to every disk; the connection is lost at `cutAt`'s write, then the page reloads. */
async function applyCutShort(value: string, cutAt: string) {
    await openArrayDialog(env.page, 'md0', 'Disk queues…');
    await dialog().getByRole('radio', { name: 'Request queue size (nr_requests)', exact: true }).check();
    await dialog().getByLabel('New value for every disk: Request queue size (nr_requests)').fill(value);
    cutAtDisk = cutAt;
    lost = false;
    try {
        await footerButton('Apply').click();
        await waitUntil(`the connection lost at ${cutAt}`, async () => lost);
    } finally {
        // Also after a failure: the next test gets a connection that passes everything.
        cutAtDisk = null;
        await env.page.reload();
    }
    // Fresh, the record may be another page's that is still applying: said so, nothing offered.
    await env.page.locator('.raidtune-applying-elsewhere').waitFor();
    await expect(alert().count()).resolves.toBe(0);
    await ageRecord();
    await env.page.reload();
}

/** Makes the record's applier silent for ten minutes, as the page cut short has been by then. */
async function ageRecord() {
    const data = JSON.parse(readFileSync(record(), 'utf8')) as Record<string, unknown>;
    const then = new Date(Date.now() - 10 * 60 * 1000).toISOString();
    writeFileSync(record(), JSON.stringify({ ...data, startedAt: then, aliveAt: then }) + '\n');
}

/** The alert's list: "Took effect: ..." then "Not done: ...". */
const shownSteps = () => alert().locator('li').allInnerTexts();

async function applyOffer(link: string, title: string, commands: string, applyLabel: string,
    outcome: string | RegExp = KERNEL_DONE) {
    await alert().getByRole('button', { name: link, exact: true }).click();
    await dialog().getByRole('heading', { name: title }).waitFor();
    await expect(dialog().locator('.raidtune-commands').innerText()).resolves.toBe(commands);
    await footerButton(applyLabel).click();
    await dialog().getByText(outcome).waitFor();
    await footerButton('Close').click();
    await dialog().waitFor({ state: 'detached' });
}

test('cut short after two disks: the next load says so, and Finish applies the rest', async () => {
    const original = await simValue(env, nrRequests('sda'));
    await applyCutShort('128', 'sdc');
    await expect(simValues()).resolves.toEqual(['128', '128', original, original, original]);

    await alert().waitFor();
    await expect(alert().locator('.pf-v6-c-alert__title').innerText()).resolves.toMatch(/A change did not finish: Change nr_requests of the disks under md0$/);
    await waitUntil('the steps listed', async () => (await shownSteps()).length === 5);
    await expect(shownSteps()).resolves.toEqual([
        'Took effect: nr_requests of sda', 'Took effect: nr_requests of sdb',
        'Not done: nr_requests of sdc', 'Not done: nr_requests of sdd', 'Not done: nr_requests of sde',
    ]);

    expect(severe(await runAxe(env.page))).toEqual([]);

    await applyOffer('Finish', 'Finish: Change nr_requests of the disks under md0',
        ['sdc', 'sdd', 'sde'].map(d => `echo 128 > ${nrRequests(d)}`).join('\n'), 'Finish');
    await expect(simValues()).resolves.toEqual(DISKS.map(() => '128'));
    await alert().waitFor({ state: 'detached' });
    expect(existsSync(record())).toBe(false);
});

test('cut short after three disks: Undo puts back what took effect', async () => {
    await applyCutShort('64', 'sdd');
    await expect(simValues()).resolves.toEqual(['64', '64', '64', '128', '128']);
    await waitUntil('the steps listed', async () => (await shownSteps()).length === 5);
    await expect(alert().locator('.raidtune-unfinished-applied').allInnerTexts()).resolves.toEqual(
        ['Took effect: nr_requests of sda', 'Took effect: nr_requests of sdb', 'Took effect: nr_requests of sdc']);

    await applyOffer('Undo', 'Undo: Change nr_requests of the disks under md0',
        ['sdc', 'sdb', 'sda'].map(d => `echo 128 > ${nrRequests(d)}`).join('\n'), 'Undo');
    await expect(simValues()).resolves.toEqual(DISKS.map(() => '128'));
    await alert().waitFor({ state: 'detached' });
    expect(existsSync(record())).toBe(false);
});

test('cut short, then left as it is: the record goes, the values stay', async () => {
    await applyCutShort('32', 'sdb');
    await waitUntil('the steps listed', async () => (await shownSteps()).length === 5);
    await applyOffer('Leave as it is', 'Forget the unfinished change', `rm -f ${record()}`, 'Forget', FILES_DONE);
    await alert().waitFor({ state: 'detached' });
    await expect(simValues()).resolves.toEqual(['32', '128', '128', '128', '128']);
    expect(existsSync(record())).toBe(false);
});

test('a plan that ends leaves no record and no alert', async () => {
    await openArrayDialog(env.page, 'md0', 'Disk queues…');
    await dialog().getByRole('radio', { name: 'Request queue size (nr_requests)', exact: true }).check();
    await dialog().getByLabel('New value for every disk: Request queue size (nr_requests)').fill('32');
    await footerButton('Apply').click();
    await dialog().getByText(KERNEL_DONE).waitFor();
    await footerButton('Close').click();
    expect(existsSync(record())).toBe(false);
    await env.page.reload();
    await arrayCard(env.page, 'md0').waitFor();
    await expect(alert().count()).resolves.toBe(0);
});

test('another page, while a plan is being applied: it says so and offers no undo', async () => {
    const original = await simValue(env, nrRequests('sda'));
    await openArrayDialog(env.page, 'md0', 'Disk queues…');
    await dialog().getByRole('radio', { name: 'Request queue size (nr_requests)', exact: true }).check();
    await dialog().getByLabel('New value for every disk: Request queue size (nr_requests)').fill('16');
    slowDisk = 'sdc';
    try {
        await footerButton('Apply').click();
        await waitUntil('the write to sdc under way', async () => held !== null && held.messages.length > 0);
        await expect(simValues()).resolves.toEqual(['16', '16', original, original, original]);

        const other = (await env.openPage()).page;
        const elsewhere = other.locator('.raidtune-applying-elsewhere');
        await elsewhere.waitFor();
        await expect(elsewhere.locator('.pf-v6-c-alert__title').innerText()).resolves
            .toMatch(/A change is being applied in another session: Change nr_requests of the disks under md0$/);
        await expect(other.locator('.raidtune-unfinished').count()).resolves.toBe(0);
        await expect(other.getByRole('button', { name: 'Undo', exact: true }).count()).resolves.toBe(0);
        // The applying page keeps telling the host it is alive while its step takes long.
        await waitUntil('a heartbeat in the record', async () => {
            const text = existsSync(record()) ? readFileSync(record(), 'utf8') : '';
            return text.includes('"aliveAt"');
        });

        held!.release();
        await dialog().getByText(KERNEL_DONE).waitFor();
        await footerButton('Close').click();
        await expect(simValues()).resolves.toEqual(DISKS.map(() => '16'));
        expect(existsSync(record())).toBe(false);
        await elsewhere.waitFor({ state: 'detached' });
        await expect(other.locator('.raidtune-unfinished').count()).resolves.toBe(0);
    } finally {
        slowDisk = null;
        held?.release();
    }
});
