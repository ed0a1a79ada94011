// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #34, finding a disk: the simulated host's SAS disks sit in an SES enclosure's slots as the
// kernel's ses driver lists them; the real gather script reads each disk's slot and locate LED
// (the enclosure's name is a SCSI address, colons and all), and a write to the slot's `locate`, as
// ledctl makes, shows at the next full read.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LEDCTL_CALLS } from '../../../sim/blockdev/client';
import { buildModel } from '../../../src/md/model';
import { GatherParser } from '../../../src/md/snapshot';
import type { HostModel } from '../../../src/md/modelTypes';
import { tool } from './blockdevTools';
import { attr, gatherOutput, removeTempRoots, startHost, tee, watchHost } from './simHelpers';

afterEach(removeTempRoots);

const SLOT_01 = 'sys/class/enclosure/6:0:16:0/Slot 01';

test('each SAS disk in its slot, read by the gather script; the other kinds in none', () => {
    const host = startHost('check-mismatches');
    const model = watchHost(host, 2);
    const slots = [...model.disks.values()].map(d => [d.name, d.enclosureSlot]);
    expect(slots.length).toBeGreaterThan(1);
    // The scenario's SAS disks, slots numbered in their order from 0.
    slots.forEach(([name, slot], i) => expect([name, slot]).toEqual([name,
        { enclosure: '6:0:16:0', component: `Slot ${String(i).padStart(2, '0')}`, slot: i, locate: false }]));
    expect(attr(host, `${SLOT_01}/locate`)).toBe('0');

    const nvme = watchHost(startHost('newer-kernel-rebuild'), 2);
    expect([...nvme.disks.values()].map(d => d.enclosureSlot)).toEqual([...nvme.disks.values()].map(() => null));
});

test('the locate LED turned on shows at the next full read, and the disk\'s model is new', () => {
    const host = startHost('check-mismatches');
    // One parser for the reads, as the page's refresh loop has: a fast read reuses the full one's sections.
    const parser = new GatherParser();
    const read = (fast: boolean, previous: HostModel | null) =>
        buildModel(parser.parse(gatherOutput(host, fast)), 0, previous);
    const before = read(false, null);
    const disk = [...before.disks.values()][1];
    tee(host, `${SLOT_01}/locate`, '1');
    host.tick(2);
    expect(attr(host, `${SLOT_01}/locate`)).toBe('1');
    const fast = read(true, before);
    expect(fast.disks.get(disk.name)?.enclosureSlot?.locate).toBe(false);
    const full = read(false, fast);
    expect(full.disks.get(disk.name)?.enclosureSlot).toEqual({ ...disk.enclosureSlot, locate: true });
    expect(full.disks.get(disk.name)).not.toBe(disk);
});

test('the simulated ledctl sets a slot\'s locate LED, records each call, and refuses a disk in no enclosure', async () => {
    const host = startHost('check-mismatches');
    const disk = [...watchHost(host, 2).disks.values()][1].name;
    await expect(tool(host, 'ledctl', [`locate=/dev/${disk}`])).resolves.toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(attr(host, `${SLOT_01}/locate`)).toBe('1');
    await expect(tool(host, 'ledctl', [`locate_off=/dev/${disk}`])).resolves.toMatchObject({ exitCode: 0 });
    expect(attr(host, `${SLOT_01}/locate`)).toBe('0');
    expect(readFileSync(join(host.root, LEDCTL_CALLS), 'utf8')).toBe(`locate=/dev/${disk}\nlocate_off=/dev/${disk}\n`);

    const nvme = startHost('newer-kernel-rebuild');
    const name = nvme.state.disks[0].name;
    await expect(tool(nvme, 'ledctl', [`locate=/dev/${name}`])).resolves
        .toEqual({ exitCode: 1, stdout: '', stderr: `ledctl: /dev/${name}: device not supported\n` });
});
