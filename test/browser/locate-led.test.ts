// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #34, finding the disk, on a host with ledmon's ledctl (the simulated host's stand-in, which
// records its calls and sets the slot's LED as the real one does through the ses driver): "Blink
// locate LED…" previews `ledctl locate=/dev/sdb`, runs it, and reads the slot's `locate` attribute
// back; "Stop blinking…" runs `ledctl locate_off=/dev/sdb`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LEDCTL_CALLS } from '../../sim/blockdev/client';
import { setupRaidtune } from './harness/env';
import { applyAndClose, arrayCard, dialogButton, openDialog, showArrayPage, simValue, waitUntil } from './harness/raidtunePage';
import { waitBudget } from '../../tools/cockpit/waitBudget';

const env = setupRaidtune({ scenario: 'check-mismatches' });
const SLOT_01 = '/sys/class/enclosure/6:0:16:0/Slot 01/locate';

const location = (member: string) =>
    arrayCard(env.page, 'md0').locator(`tr[data-member="${member}"] td[data-label="Location"]`);

const ledctlCalls = () => readFileSync(join(env.sim.root, LEDCTL_CALLS), 'utf8');

test('the LED blinks and stops through ledctl, read back from the enclosure', async () => {
    await showArrayPage(env.page, 'md0');
    const dialog = await openDialog(location('sdb').getByRole('button', { name: 'Blink locate LED…' }));
    await expect(dialog.locator('.raidtune-commands').innerText()).resolves.toBe('ledctl locate=/dev/sdb');
    await expect(dialog.innerText()).resolves.toContain('ledctl (ledmon) lights the locate LED of sdb (Slot 01, enclosure 6:0:16:0)');
    await dialogButton(env.page, 'Apply').click();
    await dialog.getByText('Done.', { exact: false }).waitFor();
    await dialogButton(env.page, 'Close').click();
    expect(ledctlCalls()).toBe('locate=/dev/sdb\n');
    expect(await simValue(env, SLOT_01)).toBe('1');
    await location('sdb').locator('.raidtune-locate-on').getByText('locate LED on').waitFor({ timeout: waitBudget(20000) });

    await openDialog(location('sdb').getByRole('button', { name: 'Stop blinking…' }));
    await applyAndClose(env.page, 'Apply');
    expect(ledctlCalls()).toBe('locate=/dev/sdb\nlocate_off=/dev/sdb\n');
    await waitUntil('the LED read back off', async () =>
        (await location('sdb').locator('.raidtune-locate-on').count()) === 0, 20000);
    expect(await simValue(env, SLOT_01)).toBe('0');
});
