// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #34, finding the disk, on a host without ledmon's ledctl: where the members' disks sit in an
// SES enclosure, the members table says their slot; "Blink locate LED…" previews the write to the
// slot's `locate` attribute (what ledctl writes for an SES enclosure), the simulated kernel's ses
// driver takes it, and the page reads the LED back on; "Stop blinking…" turns it off again.
// Without administrative access the button says why it cannot. (locate-led.test.ts: with ledctl.)
import { setupRaidtune } from './harness/env';
import {
    applyAndClose, arrayCard, changeDialog, dialogButton, KERNEL_DONE, openDialog, showArrayPage, simValue, waitUntil,
} from './harness/raidtunePage';
import { waitBudget } from '../../tools/cockpit/waitBudget';

// No ledctl on this host: the simulated one is not where the config points.
const env = setupRaidtune({ scenario: 'check-mismatches', config: { ledctl: '/nonexistent/ledctl' } });
const SLOT_01 = '/sys/class/enclosure/6:0:16:0/Slot 01/locate';

/** The members table's Location cell of a member. */
const location = (member: string) =>
    arrayCard(env.page, 'md0').locator(`tr[data-member="${member}"] td[data-label="Location"]`);

test('each member\'s slot is in the members table; the LED blinks and stops through a previewed write', async () => {
    await showArrayPage(env.page, 'md0');
    await expect(location('sdb').locator('.raidtune-member-slot').innerText()).resolves.toBe('Slot 01, enclosure 6:0:16:0');
    await expect(location('sda').locator('.raidtune-member-slot').innerText()).resolves.toBe('Slot 00, enclosure 6:0:16:0');
    expect(await location('sdb').locator('.raidtune-locate-on').count()).toBe(0);

    const dialog = await openDialog(location('sdb').getByRole('button', { name: 'Blink locate LED…' }));
    await expect(dialog.locator('.raidtune-commands').innerText()).resolves.toBe(`echo 1 > '${SLOT_01}'`);
    await dialogButton(env.page, 'Apply').click();
    await dialog.getByText(KERNEL_DONE).waitFor();
    await dialogButton(env.page, 'Close').click();
    expect(await simValue(env, SLOT_01)).toBe('1');
    await location('sdb').locator('.raidtune-locate-on').getByText('locate LED on').waitFor({ timeout: waitBudget(20000) });
    // The others stay dark.
    expect(await simValue(env, '/sys/class/enclosure/6:0:16:0/Slot 00/locate')).toBe('0');

    await openDialog(location('sdb').getByRole('button', { name: 'Stop blinking…' }));
    await expect(changeDialog(env.page).locator('.raidtune-commands').innerText()).resolves.toBe(`echo 0 > '${SLOT_01}'`);
    await applyAndClose(env.page, 'Apply');
    await waitUntil('the LED read back off', async () =>
        (await location('sdb').locator('.raidtune-locate-on').count()) === 0, 20000);
    expect(await simValue(env, SLOT_01)).toBe('0');
});
