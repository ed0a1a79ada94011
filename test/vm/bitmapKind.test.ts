// SPDX-License-Identifier: LGPL-2.1-or-later
// The bitmap kind the page shows is the kernel's own answer (issue #13): md/bitmap_type's bracketed
// kind where the kernel has the file (2025+ kernels, which also drop bitmap/ without a bitmap),
// else bitmap/location (Linux 6.1). An array without a bitmap, then with an internal one added
// through the page. Written to hold on both kinds of kernel: the expectation is derived from
// whichever files the guest's kernel has.
import type { Page } from 'playwright-core';
import { arrayAction, waitUntil } from '../browser/harness/raidtunePage';
import { applyAndWait, dialog, DONE_NOT_KERNEL, footerButton } from './harness/dialog';
import { readPageArray } from './harness/pageVsKernel';
import { createSlowly, mdCreate, waitForCard } from './harness/scenarios';
import { setupVm } from './harness/vmEnv';

const vm = setupVm();

const MD = '/sys/block/md0/md';
const ABSENT = '<absent>';

/** The guest kernel's bitmap files, read in one command; ABSENT for a file this kernel does not have now. */
async function kernelBitmap(): Promise<{ type: string; location: string; chunkBytes: string }> {
    const paths = [`${MD}/bitmap_type`, `${MD}/bitmap/location`, `${MD}/bitmap/chunksize`];
    const out = await vm.guest.runOk(paths.map(p => `if [ -e ${p} ]; then echo "$(cat ${p})"; else echo '${ABSENT}'; fi`).join('\n'));
    const [type, location, chunkBytes] = out.replace(/\n$/, '').split('\n').map(v => v.trim());
    return { type, location, chunkBytes };
}

/**
 * What the card's "Bitmap" fact must read for the kernel's answer: the kind in brackets where
 * bitmap_type exists, else the location ("none", "file" or a sector offset like "+8").
 */
function expectedFact(kernel: { type: string; location: string; chunkBytes: string }): string {
    const kind = kernel.type === ABSENT ? null : /\[(\w+)\]/.exec(kernel.type)?.[1];
    if (kind === 'none' || (kind !== 'llbitmap' && (kernel.location === ABSENT || kernel.location === 'none'))) return 'None';
    if (kind === 'llbitmap') return 'Lockless (llbitmap)';
    const what = kernel.location === 'file' ? 'File' : 'Internal';
    return `${what}, ${Number(kernel.chunkBytes) / 2 ** 20} MiB chunks`;
}

async function shownBitmap(page: Page): Promise<string> {
    return (await readPageArray(page, 'md0')).facts.Bitmap;
}

test('no bitmap, then an internal one added through the page: the card says what the kernel says', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid1', ['vda', 'vdb'], '--assume-clean --bitmap=none'));
    const { page } = await vm.openPage();
    await waitForCard(page, 'md0', false);

    const before = await kernelBitmap();
    // 6.1: bitmap/location reads none; newer kernels: "[none] ..." and no bitmap/ folder.
    expect(before.type === ABSENT ? before.location : before.type).toMatch(/^none$|^\[none\]/);
    expect(expectedFact(before)).toBe('None');
    expect(await shownBitmap(page)).toBe('None');

    await (await arrayAction(page, 'md0', 'Add bitmap…')).click();
    await dialog(page).waitFor();
    expect(await applyAndWait(page, 'Add bitmap')).toEqual([DONE_NOT_KERNEL]);
    await footerButton(page, 'Close').click();
    await dialog(page).waitFor({ state: 'detached' });

    const after = await kernelBitmap();
    expect(after.location).toMatch(/^[+-]\d+$/);
    if (after.type !== ABSENT) expect(after.type).toMatch(/\[bitmap\]/);
    const expected = expectedFact(after);
    expect(expected).toMatch(/^Internal, \d+ MiB chunks$/);
    await waitUntil(`md0 shows Bitmap: ${expected}`, async () => (await shownBitmap(page)) === expected);
});
