// SPDX-License-Identifier: LGPL-2.1-or-later
// The array cards' memo rule (src/ui/common/cardProps.ts) on models from buildModel: a card skips a
// refresh only when nothing it shows changed.

import type { HostModel } from '../../../src/md/modelTypes';
import { sameCardProps } from '../../../src/ui/common/cardProps';
import { DISKS, diskstatsLine, hostFiles, modelOf } from '../helpers/twoArrays';

const md0 = (host: HostModel) => host.arrays.find(a => a.name === 'md0')!;
const props = (host: HostModel, selected = false) => ({ array: md0(host), host, selected });

/** Whether md0's card renders again after a refresh where one file of the host changed. */
function cardRendersAfter(path: string, content: string): boolean {
    const first = modelOf(hostFiles());
    const changed = hostFiles();
    changed.set(path, content);
    return !sameCardProps(props(first), props(modelOf(changed, first)));
}

describe('array card memo rule', () => {
    test('a refresh where nothing changed skips the card', () => {
        const first = modelOf(hostFiles());
        const second = modelOf(hostFiles(), first);
        expect(second).not.toBe(first);
        expect(sameCardProps(props(first), props(second))).toBe(true);
    });

    test('a change in the array, or its selection, renders it', () => {
        expect(cardRendersAfter('/sys/block/md0/md/dev-vda/errors', '3\n')).toBe(true);
        const first = modelOf(hostFiles());
        expect(sameCardProps(props(first), props(first, true))).toBe(false);
    });

    test('the host-wide facts a card reads render it: its member disks\' settings and the global limits', () => {
        expect(cardRendersAfter('/sys/block/vdb/queue/nr_requests', '64\n')).toBe(true);
        expect(cardRendersAfter('/proc/sys/dev/raid/speed_limit_max', '5000\n')).toBe(true);
    });

    test('an idle array\'s card does not render for its disks\' I/O counters (only a sync\'s diagnosis reads them, from the array)', () => {
        expect(md0(modelOf(hostFiles())).sync).toBeNull();
        expect(cardRendersAfter('/proc/diskstats', DISKS.map((d, i) => diskstatsLine(d, d === 'vdb' ? 555 : 100 + i)).join(''))).toBe(false);
    });

    test('a disk of another array does not render it', () => {
        expect(cardRendersAfter('/sys/block/vdd/queue/nr_requests', '64\n')).toBe(false);
    });

    test('a prop added to the card counts by identity', () => {
        const host = modelOf(hostFiles());
        const onPick = () => undefined;
        expect(sameCardProps({ ...props(host), onPick }, { ...props(host), onPick })).toBe(true);
        expect(sameCardProps({ ...props(host), onPick }, { ...props(host), onPick: () => undefined })).toBe(false);
        expect(sameCardProps({ ...props(host), extra: [1] }, { ...props(host), extra: [1] })).toBe(false);
    });
});
