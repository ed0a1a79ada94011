// SPDX-License-Identifier: LGPL-2.1-or-later
// A 7.x-like kernel (the newer-kernel scenario): md/bitmap_type names each array's bitmap kind and
// bitmap/ exists only while a classic bitmap runs. The page shows the kind the kernel names, an
// absent bitmap/location as none, and no add or remove for the lockless bitmap (llbitmap), whose
// disabled button says why. Adding and removing a classic bitmap makes bitmap/ come and go.

import { existsSync } from 'node:fs';
import { setupRaidtune } from '../harness/env';
import {
    applyAndClose, arrayAction, arrayMenu, cardFacts, openArrayDialog, showArrayPage, showOverview, simValue, waitUntil,
    warningAlerts,
} from '../harness/raidtunePage';

const env = setupRaidtune({ scenario: 'newer-kernel', arrayPage: 'md2' });

const dialog = () => env.page.getByRole('dialog');
const bitmapType = (array: string) => simValue(env, `/sys/block/${array}/md/bitmap_type`);
const hasBitmapFolder = (array: string) => existsSync(env.simPath(`/sys/block/${array}/md/bitmap`));

async function waitForBitmapFact(array: string, expected: string) {
    await waitUntil(`${array} shows Bitmap: ${expected}`, async () => (await cardFacts(env.page, array)).Bitmap === expected, 20000);
}

test('each array\'s page shows the kind md/bitmap_type names; no bitmap/ folder reads as none', async () => {
    expect(await bitmapType('md0')).toBe('[none] bitmap llbitmap');
    expect(hasBitmapFolder('md0')).toBe(false);
    expect(await bitmapType('md1')).toBe('none [bitmap] llbitmap');
    expect(await simValue(env, '/sys/block/md1/md/bitmap/chunksize')).toBe(String(64 * 2 ** 20));
    expect(await bitmapType('md2')).toBe('none bitmap [llbitmap]');
    expect(hasBitmapFolder('md2')).toBe(false);

    expect((await cardFacts(env.page, 'md0')).Bitmap).toBe('None');
    expect((await cardFacts(env.page, 'md1')).Bitmap).toBe('Internal, 64 MiB chunks');
    expect((await cardFacts(env.page, 'md2')).Bitmap).toBe('Lockless (llbitmap)');
    // Nothing the kernel left out shows as a word of JavaScript, on any array's page or the overview.
    const jsWords = /\b(null|undefined|NaN)\b/;
    for (const name of ['md0', 'md1', 'md2']) {
        await showArrayPage(env.page, name);
        expect([name, await warningAlerts(env.page)]).toEqual([name, []]);
        expect([name, await env.page.locator('#app, body').first().innerText()]).toEqual([name, expect.not.stringMatching(jsWords)]);
    }
    await showOverview(env.page);
    await env.page.locator('#global-limits').waitFor();
    expect(await warningAlerts(env.page)).toEqual([]);
    expect(await env.page.locator('#app, body').first().innerText()).not.toMatch(jsWords);
});

test('the lockless bitmap: "Remove bitmap…" is disabled in md2\'s menu and its tooltip says why', async () => {
    const item = await arrayAction(env.page, 'md2', 'Remove bitmap…');
    expect(await item.getAttribute('aria-disabled')).toBe('true');
    await item.hover();
    await env.page.getByRole('tooltip').getByText('The array has a lockless bitmap (llbitmap, experimental in md). mdadm chooses it only when it creates an array (--bitmap=lockless) and cannot add or remove it with --grow', { exact: false }).waitFor();
    await item.click({ force: true }); // a disabled item does nothing: no dialog opens
    expect(await env.page.getByRole('dialog').count()).toBe(0);
    await env.page.keyboard.press('Escape');
    await arrayMenu(env.page, 'md2').waitFor({ state: 'detached' });
    // The classic one next to it can be removed.
    expect(await (await arrayAction(env.page, 'md1', 'Remove bitmap…')).getAttribute('aria-disabled')).not.toBe('true');
});

test('a classic bitmap added to md0 through the page: bitmap_type and bitmap/ follow, and so does the card', async () => {
    await openArrayDialog(env.page, 'md0', 'Add bitmap…');
    // This kernel has the lockless bitmap too: the dialog says what it is and why this is not it.
    await expect(dialog().locator('.raidtune-llbitmap-note').innerText()).resolves.toBe('This kernel also has md\'s lockless bitmap (llbitmap), experimental, which resyncs and recovers only the regions ever written. mdadm writes it only when it creates an array (mdadm --create --bitmap=lockless); what is added here is the classic bitmap.');
    await expect(dialog().locator('.raidtune-commands').innerText()).resolves
        .toBe('mdadm --grow /dev/md0 --bitmap=internal --bitmap-chunk=64M');
    await applyAndClose(env.page, 'Add bitmap');
    expect(await bitmapType('md0')).toBe('none [bitmap] llbitmap');
    expect(await simValue(env, '/sys/block/md0/md/bitmap/location')).toBe('+8');
    await waitForBitmapFact('md0', 'Internal, 64 MiB chunks');

    await openArrayDialog(env.page, 'md0', 'Remove bitmap…');
    await applyAndClose(env.page, 'Remove bitmap');
    expect(await bitmapType('md0')).toBe('[none] bitmap llbitmap');
    expect(hasBitmapFolder('md0')).toBe(false);
    await waitForBitmapFact('md0', 'None');
});
