// SPDX-License-Identifier: LGPL-2.1-or-later
// The card's health alert in the other situations an admin meets (fixtures/member-trouble.json):
// a degraded array whose rebuild is under way is told so, not asked for a disk; a working member
// with corrected read errors gets `--replace` onto the spare that exists; an array that lost more
// members than its level survives says it failed, with the assemble guidance.

import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { setupRaidtune } from './harness/env';
import { arrayCard, cardInView, simIdPath, simMdstat, simValue } from './harness/raidtunePage';

const env = setupRaidtune({ scenario: join(__dirname, 'fixtures/member-trouble.json'), arrayPage: 'md2' });

function healthAlert(name: string): Locator {
    return arrayCard(env.page, name).locator('.raidtune-health-alert');
}

async function alertTitle(name: string): Promise<string> {
    await cardInView(env.page, name);
    const title = await healthAlert(name).locator('.pf-v6-c-alert__title').innerText();
    return title.replace(/^\w+ alert:\s*/, '').trim();
}

const alertCommands = (name: string) => healthAlert(name).locator('.raidtune-health-commands pre').innerText();

test('md0 rebuilds onto sdb: the alert says the rebuild is under way and asks for no disk', async () => {
    expect((await simMdstat(env)).get('md0')!.sync?.action).toBe('recovery');
    expect(await simValue(env, '/sys/block/md0/md/dev-sdb/slot')).toBe('1');
    expect(await alertTitle('md0')).toBe('md0 is degraded: a rebuild is under way');
    // Until the rebuild ends sda holds the only copy: danger, whatever the progress.
    expect(await healthAlert('md0').getAttribute('class')).toContain('pf-m-danger');
    await expect(healthAlert('md0').locator('.raidtune-health-redundancy').innerText()).resolves
        .toBe('No redundancy is left: one more failed disk loses the data on md0. Make sure a backup is current before anything else.');
    await expect(healthAlert('md0').innerText()).resolves.toContain('Slot 1 is being rebuilt onto sdb. The rebuild is under way: there is no disk to add for it.');
    expect(await healthAlert('md0').locator('.raidtune-health-commands').count()).toBe(0);
    await expect(healthAlert('md0').innerText()).resolves.not.toContain('--add');
});

test('md1: nvme0n1 has corrected read errors: replace it with the spare nvme2n1, the disk named by WWID and serial', async () => {
    const errors = await simValue(env, '/sys/block/md1/md/dev-nvme0n1/errors');
    expect(await simValue(env, '/sys/block/md1/md/dev-nvme2n1/state')).toBe('spare');
    const wwid = await simValue(env, '/sys/block/nvme0n1/wwid');
    const serial = await simValue(env, '/sys/block/nvme0n1/device/serial');
    expect(await alertTitle('md1')).toBe('md1: a member has read errors');
    expect(await healthAlert('md1').getAttribute('class')).toContain('pf-m-warning');
    await expect(healthAlert('md1').locator('.raidtune-health-failing').innerText()).resolves
        .toBe(`nvme0n1 has ${errors} read errors that md corrected (disk nvme0n1, WWID ${wwid}, serial ${serial}, path ${await simIdPath(env, 'nvme0n1')}): the disk may be failing.`);
    expect(await alertCommands('md1')).toBe('mdadm /dev/md1 --replace /dev/nvme0n1 --with /dev/nvme2n1');
});

test('md2 lost two of four RAID5 members: failed, with examine, stop and a forced assemble', async () => {
    expect((await simMdstat(env)).get('md2')!.status).toBe('UU__');
    expect(await alertTitle('md2')).toBe('md2 has failed: only 2 of 4 devices work');
    expect(await healthAlert('md2').getAttribute('class')).toContain('pf-m-danger');
    expect(await alertCommands('md2')).toBe([
        'mdadm --examine /dev/sdc /dev/sdd /dev/sde /dev/sdf',
        'mdadm --stop /dev/md2',
        'mdadm --assemble --force /dev/md2 /dev/sdc /dev/sdd /dev/sde /dev/sdf',
    ].join('\n'));
});
