// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #18 item 6: a degraded or failed array had only a badge. degraded-failed's md0 (RAID5,
// sdc1 faulty, slot 2 empty) and md1 (RAID1, inactive with one device) each get an alert at the
// top of the card naming what is missing or failed, with the disk's WWID and serial as its sysfs
// files hold them, and the next mdadm commands; the failed member's removal runs from the page
// through the simulated mdadm and the simulated kernel no longer lists it.

import { existsSync } from 'node:fs';
import type { Locator } from 'playwright-core';
import { setupRaidtune } from './harness/env';
import { arrayCard, cardInView, changeDialog, dialogButton, memberRows, openDialog, simIdPath, simMdstat, simValue, waitUntil } from './harness/raidtunePage';

// The simulated host's config runs the simulated mdadm (simulatedHostConfig).
const env = setupRaidtune({ scenario: 'degraded-failed', arrayPage: 'md1' });

function healthAlert(name: string): Locator {
    return arrayCard(env.page, name).locator('.raidtune-health-alert');
}

/** The alert's title without PatternFly's screen-reader prefix ("Warning alert:"). */
async function alertTitle(name: string): Promise<string> {
    const title = await healthAlert(name).locator('.pf-v6-c-alert__title').innerText();
    return title.replace(/^\w+ alert:\s*/, '').trim();
}

const alertCommands = (name: string) => healthAlert(name).locator('.raidtune-health-commands pre').innerText();

/**
 * What the disk reports, shown as the admin reads its label: whitespace runs as one blank; SATA's
 * serial ends its t10 wwid.
 */
async function sataIdentity(disk: string): Promise<{ wwid: string; serial: string }> {
    const wwid = (await simValue(env, `/sys/block/${disk}/device/wwid`)).trim().replace(/\s+/g, ' ');
    expect(wwid).toMatch(/^t10\.ATA /);
    return { wwid, serial: wwid.split(' ').pop()! };
}

test('md0: a danger alert at the top of the card names the empty slot and the failed disk, with the next commands', async () => {
    const card = await cardInView(env.page, 'md0');
    expect(await simValue(env, '/sys/block/md0/md/dev-sdc1/state')).toBe('faulty');
    expect(await simValue(env, '/sys/block/md0/md/degraded')).toBe('1');
    // No redundancy left: the title's health word is red too, as the alert is danger.
    await expect(card.locator('.raidtune-health').innerText()).resolves.toBe('Degraded');
    await expect(card.locator('.raidtune-health').getAttribute('class')).resolves.toMatch(/pf-m-red/);

    // Right under the card's header, before its facts.
    const order = await card.evaluate(el => [...el.querySelectorAll('.pf-v6-c-card__header, .raidtune-health-alert, .pf-v6-c-description-list')]
        .map(e => e.className.includes('raidtune-health-alert') ? 'alert' : e.className.includes('header') ? 'header' : 'facts'));
    expect(order).toEqual(['header', 'alert', 'facts']);
    // A RAID5 of four with one slot empty: danger, as the next failure loses its data.
    expect(await healthAlert('md0').getAttribute('class')).toContain('pf-m-danger');
    expect(await alertTitle('md0')).toBe('md0 is degraded: slot 2 is empty');
    await expect(healthAlert('md0').locator('.raidtune-health-redundancy').innerText()).resolves
        .toBe('No redundancy is left: one more failed disk loses the data on md0. Make sure a backup is current before anything else.');

    const { wwid, serial } = await sataIdentity('sdc');
    await expect(healthAlert('md0').locator('.raidtune-health-failed').innerText())
        .resolves.toBe(`sdc1 failed (disk sdc, WWID ${wwid}, serial ${serial}, path ${await simIdPath(env, 'sdc')}).`);
    expect(await alertCommands('md0')).toBe('mdadm /dev/md0 --fail /dev/sdc1 --remove /dev/sdc1\nmdadm /dev/md0 --add /dev/sdX');
    await expect(healthAlert('md0').innerText()).resolves.toContain('in place of /dev/sdX');
});

test('md1: inactive, says so with the mdadm --run that starts it from the device present', async () => {
    await cardInView(env.page, 'md1');
    expect(await simValue(env, '/sys/block/md1/md/array_state')).toBe('inactive');
    expect(await healthAlert('md1').getAttribute('class')).toContain('pf-m-danger');
    expect(await alertTitle('md1')).toBe('md1 is not running: 1 of 2 devices are present');
    expect(await alertCommands('md1')).toBe('mdadm --run /dev/md1');
});

test('removing the failed sdc1 from the page: previewed, run, and the kernel no longer lists it', async () => {
    await cardInView(env.page, 'md0');
    await openDialog(healthAlert('md0').getByRole('button', { name: 'Remove sdc1…' }));
    const dialog = changeDialog(env.page);
    await expect(dialog.locator('.raidtune-commands').innerText()).resolves.toBe('mdadm /dev/md0 --fail /dev/sdc1 --remove /dev/sdc1');
    // Nothing ran before the confirmation.
    expect((await simMdstat(env)).get('md0')!.members.map(m => m.name)).toContain('sdc1');

    await dialogButton(env.page, 'Remove').click();
    await dialog.getByText('Done.', { exact: false }).waitFor();
    expect((await simMdstat(env)).get('md0')!.members.map(m => m.name).sort()).toEqual(['sda1', 'sdb1', 'sdd1']);
    expect(existsSync(env.simPath('/sys/block/md0/md/dev-sdc1'))).toBe(false);
    await dialogButton(env.page, 'Close').click();
    await dialog.waitFor({ state: 'detached' });

    // The page follows: no failed member left, the slot still empty, only the --add to do.
    await waitUntil('md0\'s alert without the failed member', async () =>
        (await healthAlert('md0').locator('.raidtune-health-failed').count()) === 0);
    expect(await alertTitle('md0')).toBe('md0 is degraded: slot 2 is empty');
    expect(await alertCommands('md0')).toBe('mdadm /dev/md0 --add /dev/sdX');
    expect((await memberRows(env.page, 'md0')).map(r => r.device)).toEqual(['/dev/sda1', '/dev/sdb1', '/dev/sdd1', '—']);
});
