// SPDX-License-Identifier: LGPL-2.1-or-later
// A kernel that lacks attributes raidtune reads (the old-kernel scenario: no group_thread_cnt,
// consistency_policy, last_sync_action or mq/0/nr_tags; NVMe disks without any I/O scheduler).
// What a kernel lacks is left out or said to be missing from this kernel: never an error, and
// never "null", "undefined" or "NaN", on the page or in any dialog it opens.

import { existsSync } from 'node:fs';
import { setupRaidtune } from '../harness/env';
import type { Locator } from 'playwright-core';
import {
    arrayAction, arrayActionLabels, arrayMenu, cardFacts, openArrayDialog, showArrayPage, showOverview, simValue,
    waitUntil, warningAlerts,
} from '../harness/raidtunePage';

const env = setupRaidtune({ scenario: 'old-kernel', arrayPage: 'md1' });

const dialog = () => env.page.getByRole('dialog');
const JS_WORDS = /\b(null|undefined|NaN)\b/;

test('the simulated kernel lacks what the scenario says', async () => {
    for (const path of ['/sys/block/md0/md/group_thread_cnt', '/sys/block/md0/md/consistency_policy',
        '/sys/block/md0/md/last_sync_action', '/sys/block/nvme0n1/mq/0/nr_tags']) {
        expect([path, existsSync(env.simPath(path))]).toEqual([path, false]);
    }
    expect(await simValue(env, '/sys/block/nvme0n1/queue/scheduler')).toBe('[none]');
});

test('the pages show what there is and leave the rest out', async () => {
    const md0 = await cardFacts(env.page, 'md0');
    expect(md0['Worker threads']).toBeUndefined();
    expect(md0.Bitmap).toBe('None');
    expect((await cardFacts(env.page, 'md1')).Bitmap).toBe('Internal, 64 MiB chunks');
    // Each array's page, and the overview with its host settings (they come a moment after it).
    for (const name of ['md0', 'md1']) {
        await showArrayPage(env.page, name);
        expect([name, await warningAlerts(env.page)]).toEqual([name, []]);
        expect([name, await env.page.locator('#app').innerText()]).toEqual([name, expect.not.stringMatching(JS_WORDS)]);
    }
    await showOverview(env.page);
    await env.page.locator('#global-limits').waitFor();
    expect(await warningAlerts(env.page)).toEqual([]);
    expect(await env.page.locator('#app').innerText()).not.toMatch(JS_WORDS);
});

test('worker threads: the disabled menu item says the kernel has no group_thread_cnt', async () => {
    const item = await arrayAction(env.page, 'md0', 'Worker threads…');
    expect(await item.getAttribute('aria-disabled')).toBe('true');
    await item.hover();
    await env.page.getByRole('tooltip').getByText('The kernel does not offer group_thread_cnt for this array.').waitFor();
    await env.page.keyboard.press('Escape');
    await arrayMenu(env.page, 'md0').waitFor({ state: 'detached' });
});

test('every dialog the page opens reads without a missing value showing as a word of JavaScript', async () => {
    const opened: string[] = [];
    const readDialog = async (label: string, control: Locator) => {
        if (await control.getAttribute('aria-disabled') === 'true') {
            await env.page.keyboard.press('Escape'); // closes the array's menu, if it was open
            return;
        }
        await control.click();
        await dialog().waitFor();
        const text = await dialog().innerText();
        expect([label, text]).toEqual([label, expect.not.stringMatching(JS_WORDS)]);
        opened.push(label);
        await env.page.keyboard.press('Escape');
        await dialog().waitFor({ state: 'detached' });
    };
    // The system limits' dialogs from the overview's host settings, then each array's from its page.
    await showOverview(env.page);
    const limits = env.page.locator('#global-limits');
    await limits.waitFor();
    for (const label of (await limits.getByRole('button').allInnerTexts()).filter(label => label.endsWith('…')))
        await readDialog(label, limits.getByRole('button', { name: label, exact: true }));
    for (const name of ['md0', 'md1']) {
        const { buttons, menu } = await arrayActionLabels(env.page, name);
        for (const label of [...buttons, ...menu].filter(label => label.endsWith('…')))
            await readDialog(label, await arrayAction(env.page, name, label));
    }
    expect(opened).toEqual(expect.arrayContaining(['Disk queues…', 'Read-ahead…', 'Speed limits…', 'Remove bitmap…']));
});

test('after a change, "Keep after reboot" writes its files for what this kernel has, with no missing value shown', async () => {
    await openArrayDialog(env.page, 'md0', 'Read-ahead…');
    await dialog().locator('#md0-read-ahead').fill('4096');
    await dialog().getByRole('button', { name: 'Apply', exact: true }).click();
    await dialog().getByText('Done.', { exact: false }).waitFor();
    await env.page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });

    // A host setting: on the overview.
    await showOverview(env.page);
    const keep = env.page.locator('#keep-after-reboot').getByRole('button', { name: 'Keep after reboot…', exact: true });
    await waitUntil('"Keep after reboot…" enabled', async () => await keep.getAttribute('aria-disabled') !== 'true', 20000);
    await keep.click();
    await dialog().waitFor();
    const text = await dialog().innerText();
    expect(text).toContain('ATTR{queue/read_ahead_kb}'); // the array's read-ahead is kept
    expect(text).not.toMatch(JS_WORDS);
    expect(text).not.toContain('group_thread_cnt');
});

