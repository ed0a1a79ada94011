// SPDX-License-Identifier: LGPL-2.1-or-later
// What the page says after a write must be what the kernel did (issue #18): the simulated host
// applies a tee write inside the write, as sysfs does, so the read-back sees the kernel's value
// and a refusal fails the write; nr_requests is checked against the hardware queue's tags first.

import { customScenario } from './harness/customScenario';
import { setupRaidtune } from './harness/env';
import { changeDialog, closeLeftoverDialog, dialogButton, KERNEL_DONE, openArrayDialog, simValue } from './harness/raidtunePage';

/** A RAID1 on two NVMe disks: no I/O scheduler, 1023 tags per hardware queue. */
const SCENARIO = {
    name: 'nvme-mirror',
    description: 'RAID1 on two NVMe disks, clean and idle.',
    disks: ['nvme0n1', 'nvme1n1'].map(name => ({ name, kind: 'nvme', sizeBytes: 512110190592 })),
    arrays: [{ name: 'md0', level: 'raid1', members: [{ device: 'nvme0n1' }, { device: 'nvme1n1' }] }],
};

const env = setupRaidtune({ scenario: customScenario('nvme-mirror', SCENARIO).file, arrayPage: 'md0' });

const dialog = () => changeDialog(env.page);

beforeEach(() => closeLeftoverDialog(env.page));

test('nr_requests above the NVMe queue\'s 1023 tags is refused with the reason, and nothing is written', async () => {
    await openArrayDialog(env.page, 'md0', 'Disk queues…');
    await dialog().getByRole('radio', { name: 'Request queue size (nr_requests)', exact: true }).check();
    const field = dialog().getByLabel('New value for every disk: Request queue size (nr_requests)');
    await field.fill('2000');
    await field.blur();
    await expect(dialog().locator('.pf-v6-c-helper-text__item.pf-m-error').innerText()).resolves.toMatch(
        /^nvme0n1, nvme1n1 use no I\/O scheduler: there the kernel takes at most 1023 requests, the tags of the hardware queue\./);
    expect(await dialogButton(env.page, 'Apply').isDisabled()).toBe(true);
    await expect(dialog().locator('.raidtune-commands').count()).resolves.toBe(0);
    await dialogButton(env.page, 'Cancel').click();
    expect(await simValue(env, '/sys/block/nvme0n1/queue/nr_requests')).toBe('1023');
    expect(await simValue(env, '/sys/block/nvme0n1/mq/0/nr_tags')).toBe('1023');
});

test('an array\'s maximum the kernel takes is "Done", read back as the kernel shows it, never "kept ... (asked for ...)"', async () => {
    await openArrayDialog(env.page, 'md0', 'Speed limits…');
    await dialog().getByRole('radiogroup', { name: 'Maximum' }).getByRole('radio', { name: 'Own limit for this array' }).check();
    await dialog().getByLabel('Maximum (MiB/s per disk)').fill('20000');
    await expect(dialog().locator('.raidtune-commands').innerText()).resolves.toBe(
        'echo 20480000 > /sys/block/md0/md/sync_speed_max');
    await dialogButton(env.page, 'Apply').click();
    await dialog().getByText(KERNEL_DONE).waitFor();
    // Read back when tee returned: the kernel's own form of the value, already there.
    expect(await simValue(env, '/sys/block/md0/md/sync_speed_max')).toBe('20480000 (local)');
    expect(await simValue(env, '/sys/block/md0/md/sync_speed_min')).toBe('1000 (system)');
    await expect(dialog().getByText(/The kernel kept/).count()).resolves.toBe(0);
    await dialogButton(env.page, 'Close').click();
});
