// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #34, finding the disk: a member's device in the members table opens its disk's details, its
// serial number, WWID, by-path address (from udev's database) and enclosure slot with the slot's
// locate LED, and in the shell, where Cockpit's Storage page is installed, a link to the disk there.
// Where the host reports none of it (no udev database, a virtio disk without a WWID, no enclosure),
// the details say so.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { customScenario } from './harness/customScenario';
import { setupRaidtune } from './harness/env';
import { arrayCard, changeDialog, dialogButton, saveScreenshot, showArrayPage, type Surface } from './harness/raidtunePage';

/** A SAS disk in the simulated enclosure's first slot and an NVMe disk, mirrored. */
const SAS_AND_NVME = {
    name: 'disk-details',
    disks: [{ name: 'sda', kind: 'sas', sizeBytes: 2000398934016 }, { name: 'nvme0n1', kind: 'nvme', sizeBytes: 2000398934016 }],
    arrays: [{ name: 'md0', level: 'raid1', members: [{ device: 'sda' }, { device: 'nvme0n1' }] }],
};
const VIRTIO = {
    name: 'virtio-details',
    disks: [{ name: 'vda', kind: 'virtio', sizeBytes: 68719476736 }, { name: 'vdb', kind: 'virtio', sizeBytes: 68719476736 }],
    arrays: [{ name: 'md0', level: 'raid1', members: [{ device: 'vda' }, { device: 'vdb' }] }],
};

/** Opens a member's details from its device in the members table; the popover once it shows. */
async function openDetails(surface: Surface, member: string): Promise<Locator> {
    await arrayCard(surface, 'md0').locator(`tr[data-member="${member}"]`).getByRole('button', { name: `/dev/${member}` }).click();
    const details = surface.getByRole('dialog', { name: `/dev/${member}` });
    await details.waitFor();
    return details;
}

/** The details as a user reads them: term -> value, a value's lines joined. */
async function facts(details: Locator): Promise<Record<string, string>> {
    const pairs = await details.locator('.raidtune-disk-facts .pf-v6-c-description-list__group').evaluateAll(groups =>
        groups.map(g => [g.querySelector('.pf-v6-c-description-list__term'), g.querySelector('.pf-v6-c-description-list__description')]
            .map(e => (e as HTMLElement | null)?.innerText.replace(/\s+/g, ' ').trim() ?? '')));
    return Object.fromEntries(pairs);
}

/** Opens a member's details, reads them, does `whileOpen`, and closes them with their Close button. */
async function readDetails(surface: Surface, member: string,
    whileOpen?: (details: Locator) => Promise<void>): Promise<Record<string, string>> {
    const details = await openDetails(surface, member);
    const read = await facts(details);
    await whileOpen?.(details);
    await details.getByRole('button', { name: 'Close' }).click();
    await details.waitFor({ state: 'hidden' });
    return read;
}

/** The details of a disk as they should read: its serial number, WWID, by-path address and slot (if any). */
const shown = (disk: string, serial: string, wwid: string, path: string, slot?: string) => ({
    'Disk': `/dev/${disk}`, 'Serial number': serial, 'WWID': wwid, 'Path': path, ...(slot ? { 'Enclosure slot': slot } : {}),
});

describe('a host with udev and an enclosure', () => {
    // A stand-in for cockpit-storaged's "storage" package: its manifest is what the link checks.
    const storage = mkdtempSync(join(tmpdir(), 'raidtune-fake-storage-'));
    writeFileSync(join(storage, 'manifest.json'), JSON.stringify({ menu: { index: { label: 'Storage', order: 30 } } }));
    writeFileSync(join(storage, 'index.html'), '<!DOCTYPE html><html lang="en"><head><title>Storage</title></head><body><h1 id="storage">Storage stand-in</h1></body></html>\n');
    afterAll(() => rmSync(storage, { recursive: true, force: true }));
    const env = setupRaidtune({ scenario: customScenario('disk-details', SAS_AND_NVME).file, arrayPage: 'md0', extraPackages: { storage } });

    test('each member\'s details: serial, WWID, by-path address, and the slot where the disk is in one', async () => {
        await showArrayPage(env.page, 'md0');
        // A SAS disk's serial is in binary VPD only, which sysfs does not show as text.
        expect(await readDetails(env.page, 'sda', async details => {
            // The page opened alone cannot jump to the Storage page: no link.
            expect(await details.getByRole('button', { name: 'Open disk sda in the Storage page' }).count()).toBe(0);
            await saveScreenshot(env.page, 'disk-details');
        })).toEqual(shown('sda', 'not reported', 'naa.5000c50000000800',
            '/dev/disk/by-path/pci-0000:03:00.0-sas-exp0x500304801f3e8b7f-phy0-lun-0', 'Slot 00, enclosure 6:0:16:0 Blink locate LED…'));
        expect(await readDetails(env.page, 'nvme0n1'))
            .toEqual(shown('nvme0n1', 'SIMNVME010300', 'eui.5000c50000010300', '/dev/disk/by-path/pci-0000:01:00.0-nvme-1'));
    });

    test('the slot\'s LED button closes the details and opens its change dialog, which stays', async () => {
        await showArrayPage(env.page, 'md0');
        const details = await openDetails(env.page, 'sda');
        await details.getByRole('button', { name: 'Blink locate LED…' }).click();
        await details.waitFor({ state: 'hidden' });
        const dialog = changeDialog(env.page);
        await dialog.locator('.raidtune-commands').waitFor();
        await expect(dialog.locator('.raidtune-commands').innerText()).resolves.toBe('ledctl locate=/dev/sda');
        await dialogButton(env.page, 'Cancel').click();
        await dialog.waitFor({ state: 'hidden' });
    });

    test('in the shell the details link to the disk\'s place on the Storage page', async () => {
        const shell = await env.shellPage('md0');
        await showArrayPage(shell.frame, 'md0');
        const details = await openDetails(shell.frame, 'nvme0n1');
        await details.getByRole('button', { name: 'Open disk nvme0n1 in the Storage page' }).click();
        await shell.page.waitForURL(/\/storage#\/nvme0n1$/);
        const storageFrame = await shell.waitForFrame('cockpit1:localhost/storage');
        await storageFrame.waitForSelector('#storage');
    });
});

describe('a host without udev\'s database, its disks in no enclosure', () => {
    const env = setupRaidtune({
        scenario: customScenario('virtio-details', VIRTIO).file, arrayPage: 'md0', config: { udevDataDir: '/nonexistent/udev/data' },
    });

    test('what the host does not report is said to be so; no slot', async () => {
        await showArrayPage(env.page, 'md0');
        expect(await readDetails(env.page, 'vdb')).toEqual(shown('vdb', 'SIMVIRT00FE10', 'not reported', 'not reported'));
        // Nor has the table a Location column.
        expect(await arrayCard(env.page, 'md0').locator('td[data-label="Location"]').count()).toBe(0);
    });
});
