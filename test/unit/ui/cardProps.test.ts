// The array cards' memo rule (src/ui/arrays/cardProps.ts) on models from buildModel: a card skips a
// refresh only when nothing it shows changed.

import type { HostModel } from '../../../src/md/model';
import { sameCardProps } from '../../../src/ui/arrays/cardProps';
import { DISKS, diskstatsLine, hostFiles, modelOf } from '../helpers/twoArrays';

const md0 = (host: HostModel) => host.arrays.find(a => a.name === 'md0')!;
const props = (host: HostModel, selected = false) => ({ array: md0(host), host, selected });

describe('array card memo rule', () => {
    test('a refresh where nothing changed skips the card', () => {
        const first = modelOf(hostFiles());
        const second = modelOf(hostFiles(), first);
        expect(second).not.toBe(first);
        expect(sameCardProps(props(first), props(second))).toBe(true);
    });

    test('a change in the array, or its selection, renders it', () => {
        const first = modelOf(hostFiles());
        const changed = hostFiles();
        changed.set('/sys/block/md0/md/dev-vda/errors', '3\n');
        expect(sameCardProps(props(first), props(modelOf(changed, first)))).toBe(false);
        expect(sameCardProps(props(first), props(first, true))).toBe(false);
    });

    test('the host-wide facts a card reads render it: its member disks\' settings and the global limits', () => {
        const first = modelOf(hostFiles());
        const tunedDisk = hostFiles();
        tunedDisk.set('/sys/block/vdb/queue/nr_requests', '64\n');
        expect(sameCardProps(props(first), props(modelOf(tunedDisk, first)))).toBe(false);
        const newLimit = hostFiles();
        newLimit.set('/proc/sys/dev/raid/speed_limit_max', '5000\n');
        expect(sameCardProps(props(first), props(modelOf(newLimit, first)))).toBe(false);
    });

    test('an idle array\'s card does not render for its disks\' I/O counters (only a sync\'s diagnosis reads them, from the array)', () => {
        const first = modelOf(hostFiles());
        const busyDisk = hostFiles();
        busyDisk.set('/proc/diskstats', DISKS.map((d, i) => diskstatsLine(d, d === 'vdb' ? 555 : 100 + i)).join(''));
        const second = modelOf(busyDisk, first);
        expect(md0(second).sync).toBeNull();
        expect(sameCardProps(props(first), props(second))).toBe(true);
    });

    test('a disk of another array does not render it', () => {
        const first = modelOf(hostFiles());
        const otherDisk = hostFiles();
        otherDisk.set('/sys/block/vdd/queue/nr_requests', '64\n');
        expect(sameCardProps(props(first), props(modelOf(otherDisk, first)))).toBe(true);
    });

    test('a prop added to the card counts by identity', () => {
        const host = modelOf(hostFiles());
        const onPick = () => undefined;
        expect(sameCardProps({ ...props(host), onPick }, { ...props(host), onPick })).toBe(true);
        expect(sameCardProps({ ...props(host), onPick }, { ...props(host), onPick: () => undefined })).toBe(false);
        expect(sameCardProps({ ...props(host), extra: [1] }, { ...props(host), extra: [1] })).toBe(false);
    });
});
