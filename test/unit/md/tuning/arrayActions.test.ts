// SPDX-License-Identifier: LGPL-2.1-or-later
// Which of an array's actions are buttons, which wait in its menu, and which are not offered at all
// in the array's state (issue #33, item 6). Arrays from real-kernel captures (Linux 6.1, mdadm 4.2),
// changed where a case needs it.

import { buildModel } from '../../../../src/md/model';
import type { ArrayModel, HostModel } from '../../../../src/md/modelTypes';
import { offeredArrayActions } from '../../../../src/md/tuning/arrayActions';
import { syncControlEffect } from '../../../../src/md/tuning/syncControl';
import type { Message } from '../../../../src/md/message';
import { loadCaptureFiles } from '../../helpers/realKernelCapture';

function hostOf(capture: string): HostModel {
    return buildModel({ files: loadCaptureFiles(capture), pageSize: 4096, missingRoots: [], complete: true }, 0);
}

/** The offer as names: buttons, then the menu with a refused item marked "(refused)". */
function offer(host: HostModel, array: ArrayModel = host.arrays[0]): { buttons: string[]; menu: string[] } {
    const offered = offeredArrayActions(array, host);
    return {
        buttons: offered.buttons.map(o => o.action),
        menu: offered.menu.map(o => (o.refusal ? `${o.action} (refused)` : o.action)),
    };
}

const interpolated = (m: Message) => m.args.reduce<string>((s, arg, i) => s.replaceAll(`$${i}`, String(arg)), m.message);

test('a rebuilding RAID 5: its limits and the pause as buttons; the bitmap not offered until it ends', () => {
    const host = hostOf('raid5-recovery');
    expect(host.arrays[0].sync?.action).toBe('recover');
    expect(offer(host)).toEqual({
        buttons: ['limits', 'pause'],
        menu: ['stripe-cache', 'read-ahead', 'worker-threads', 'disk-queues', 'restart'],
    });
});

test('a resyncing RAID 1: no stripe cache or worker threads on its level', () => {
    expect(offer(hostOf('raid1-resync'))).toEqual({
        buttons: ['limits', 'pause'], menu: ['read-ahead', 'disk-queues', 'restart'],
    });
});

test('a check: stopping it is at hand, pausing it in the menu, a restart not offered', () => {
    const host = hostOf('raid5-check');
    expect(host.arrays[0].sync?.action).toBe('check');
    expect(offer(host)).toEqual({
        buttons: ['limits', 'stop'],
        menu: ['stripe-cache', 'read-ahead', 'worker-threads', 'disk-queues', 'pause'],
    });
});

test('a paused sync: Resume first, and nothing md refuses while paused', () => {
    const host = hostOf('raid1-resync');
    const paused: ArrayModel = { ...host.arrays[0], sync: null, syncFrozen: true };
    expect(offer(host, paused)).toEqual({ buttons: ['resume', 'limits'], menu: ['read-ahead', 'disk-queues'] });
});

test('an idle clean array: the limits as its one button, the bitmap and a check or repair in the menu', () => {
    expect(offer(hostOf('raid5-assume-clean-idle'))).toEqual({
        buttons: ['limits'],
        menu: ['stripe-cache', 'read-ahead', 'worker-threads', 'disk-queues', 'bitmap-add', 'check', 'repair'],
    });
    expect(offer(hostOf('raid5-bitmap-chunk4M-dirty')).menu).toContain('bitmap-remove');
});

test('a degraded array without a sync: no check or repair, with nothing to compare against', () => {
    const host = hostOf('raid5-degraded');
    expect(host.arrays[0].health).toBe('degraded');
    const { menu } = offer(host);
    expect(menu).not.toContain('check');
    expect(menu).not.toContain('repair');
});

test('what the kernel or the array can never do stays in the menu, refused with its reason', () => {
    const host = hostOf('raid5-assume-clean-idle');
    const oldKernel: ArrayModel = { ...host.arrays[0], groupThreadCount: null };
    expect(offer(host, oldKernel).menu).toContain('worker-threads (refused)');
    const lockless: ArrayModel = { ...host.arrays[0], bitmap: { kind: 'llbitmap', chunkKiB: null, pagesUsed: null, pagesTotal: null } };
    expect(offer(host, lockless).menu).toContain('bitmap-remove (refused)');
    // Never a refused button: a button stands for something to do now.
    for (const array of [oldKernel, lockless])
        expect(offeredArrayActions(array, host).buttons.every(o => o.refusal === null)).toBe(true);
});

test('RAID 0 and linear: no limits or sync controls; read-ahead is the button', () => {
    const host = hostOf('raid0-and-linear');
    for (const array of host.arrays) {
        const { buttons, menu } = offer(host, array);
        expect(buttons).toEqual(['read-ahead']);
        expect(menu).toEqual(['disk-queues']);
    }
});

describe('what each sync control says it does', () => {
    const rebuilding = hostOf('raid5-recovery').arrays[0];
    const resyncing = hostOf('raid1-resync').arrays[0];

    test('a restart keeps the progress and is not needed for new limits', () => {
        const text = interpolated(syncControlEffect(resyncing, 'restart'));
        expect(text).toContain('from where it stopped: the progress is kept');
        expect(text).toContain('A change of speed limits needs no restart');
    });

    test('pausing a rebuild says the redundancy waits', () => {
        expect(interpolated(syncControlEffect(rebuilding, 'pause'))).toBe(
            `md holds the rebuild of ${rebuilding.name} where it is and keeps its progress. Until it is resumed, the array stays without the redundancy the rebuild restores.`);
        expect(interpolated(syncControlEffect(resyncing, 'pause'))).not.toContain('redundancy');
    });
});
