// SPDX-License-Identifier: LGPL-2.1-or-later
// A change made while a full read is under way (its answer still on its way to the page): that
// answer predates the write, so the page must read everything again after it, not only what a
// running sync changes. Here the scheduler of md0's disks goes to none, which also sets their
// nr_requests to the tags; the Disk queues dialog opened next must show both.

import { arrayCard, changeDialog, dialogButton, KERNEL_DONE, openArrayDialog, waitUntil } from './harness/raidtunePage';
import { setupRaidtune } from './harness/env';

const env = setupRaidtune({ scenario: 'raid6-recovery', arrayPage: 'md0' });
const MEMBERS = ['sda', 'sdb', 'sdc', 'sdd', 'sde'];

const dialog = () => changeDialog(env.page);

/** Whether the next full read's answer is to be held; the held frames; gather reads answered since. */
let holdNextFullRead = false;
let held: { channel: string; frames: string[]; closed: boolean } | null = null;
let gatherChannels = new Set<string>();
let gathersAnswered = 0;
/** Sends a frame on to the page (set by the route). */
let toPage: ((frame: string) => void) | null = null;

interface Control { command?: string; channel?: string; spawn?: string[] }
const control = (frame: string): Control | null => (frame.startsWith('\n') ? JSON.parse(frame.slice(1)) as Control : null);

beforeAll(async () => {
    await env.page.routeWebSocket(/\/cockpit\/socket$/, ws => {
        const server = ws.connectToServer();
        toPage = frame => ws.send(frame);
        ws.onMessage(message => {
            const open = typeof message === 'string' ? control(message) : null;
            if (open?.command === 'open' && open.channel && open.spawn?.[3] === 'raidtune-gather') {
                gatherChannels.add(open.channel);
                if (holdNextFullRead && !open.spawn.includes('fast')) {
                    holdNextFullRead = false;
                    held = { channel: open.channel, frames: [], closed: false };
                }
            }
            server.send(message);
        });
        server.onMessage(message => {
            if (typeof message !== 'string') return ws.send(message);
            const c = control(message);
            const channel = c ? c.channel : message.slice(0, message.indexOf('\n'));
            if (held && channel === held.channel) {
                held.frames.push(message);
                if (c?.command === 'close') held.closed = true;
                return;
            }
            if (c?.command === 'close' && channel && gatherChannels.has(channel)) gathersAnswered++;
            ws.send(message);
        });
    });
    await env.page.reload();
    await arrayCard(env.page, 'md0').waitFor();
    gatherChannels = new Set();
});

async function openDiskQueues() {
    await openArrayDialog(env.page, 'md0', 'Disk queues…');
}

const column = (n: number) => dialog().locator(`.raidtune-disk-queues tbody tr td:nth-child(${n})`).allInnerTexts();

test('a scheduler switched while a full read was under way: the next read shows it and the new nr_requests', async () => {
    await openDiskQueues();
    await expect(column(5)).resolves.toEqual(MEMBERS.map(() => 'mq-deadline'));
    await dialog().getByRole('radio', { name: 'I/O scheduler', exact: true }).check();
    await dialog().getByRole('radio', { name: 'none', exact: true }).check();

    // A full read comes within 5 refreshes; its answer, complete on the host, waits on the way.
    holdNextFullRead = true;
    await waitUntil('a full read answered and held', async () => held?.closed);
    await dialogButton(env.page, 'Apply').click();
    await dialog().getByText(KERNEL_DONE).waitFor();

    const before = gathersAnswered;
    const release = held!;
    held = null;
    release.frames.forEach(frame => toPage!(frame));
    // The held read, then the one the change asked for.
    await waitUntil('the read after the change answered', async () => gathersAnswered >= before + 1);
    await dialogButton(env.page, 'Close').click();
    await dialog().waitFor({ state: 'detached' });

    await openDiskQueues();
    await expect(column(5)).resolves.toEqual(MEMBERS.map(() => 'none'));
    await expect(column(4)).resolves.toEqual(MEMBERS.map(() => '32'));
    await dialogButton(env.page, 'Cancel').click();
});
