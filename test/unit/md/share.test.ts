// SPDX-License-Identifier: LGPL-2.1-or-later
// Structural sharing: an unchanged part of the model keeps its object from one refresh to the next
// (what lets the array cards skip re-rendering), and a changed part never keeps a stale one.

import type { HostModel } from '../../../src/md/modelTypes';
import { shareUnchanged } from '../../../src/md/share';
import { DISKS, diskstatsLine, hostFiles, modelOf } from '../helpers/twoArrays';

describe('buildModel shares what did not change', () => {
    test('the same input gives the same objects, down to arrays, members and disks', () => {
        const first = modelOf(hostFiles());
        const second = modelOf(hostFiles(), first);
        expect(second).not.toBe(first); // a new refresh, whatever it holds
        expect(second.arrays).toBe(first.arrays);
        expect(second.arrays.map(a => a.name).sort()).toEqual(['md0', 'md1']);
        expect(second.disks).toBe(first.disks);
        expect(second.global).toBe(first.global);
        expect(second.persisted).toBe(first.persisted);
    });

    test('a changed member gives a new object for that member and its array only', () => {
        const first = modelOf(hostFiles());
        const changed = hostFiles();
        changed.set('/sys/block/md0/md/dev-vdb/errors', '7\n');
        const second = modelOf(changed, first);

        const array = (model: HostModel, name: string) => model.arrays.find(a => a.name === name)!;
        const member = (model: HostModel, name: string) => array(model, 'md0').members.find(m => m.name === name)!;
        expect(array(second, 'md1')).toBe(array(first, 'md1'));
        expect(array(second, 'md0')).not.toBe(array(first, 'md0'));
        expect(member(second, 'vdb').errors).toBe(7);
        expect(member(second, 'vdb')).not.toBe(member(first, 'vdb'));
        expect(member(second, 'vda')).toBe(member(first, 'vda'));
        expect(array(second, 'md0').bitmap).toBe(array(first, 'md0').bitmap);
        expect(second.disks).toBe(first.disks);
    });

    test('a disk\'s new I/O counters give a new object for those counters only, not for the disk', () => {
        const first = modelOf(hostFiles());
        const changed = hostFiles();
        changed.set('/proc/diskstats', DISKS.map((d, i) => diskstatsLine(d, d === 'vdc' ? 999 : 100 + i)).join(''));
        const second = modelOf(changed, first);
        expect(second.diskStats.get('vdc')!.readsCompleted).toBe(999);
        expect(second.diskStats.get('vdc')).not.toBe(first.diskStats.get('vdc'));
        expect(second.diskStats.get('vda')).toBe(first.diskStats.get('vda'));
        expect(second.disks).toBe(first.disks);
        expect(second.arrays).toBe(first.arrays);
    });

    test('an array that appears or goes away does not unshare the others', () => {
        const first = modelOf(hostFiles());
        const withoutMd0 = new Map([...hostFiles()].filter(([path]) => !path.startsWith('/sys/block/md0/')));
        // md0's three lines: the array, its size, the blank-ish separator.
        withoutMd0.set('/proc/mdstat', withoutMd0.get('/proc/mdstat')!.replace(/^md0 :.*\n.*\n.*\n/m, ''));
        const second = modelOf(withoutMd0, first);
        expect(second.arrays.map(a => a.name)).toEqual(['md1']);
        const md1Before = first.arrays.find(a => a.name === 'md1');
        expect(second.arrays[0]).toBe(md1Before);
        const third = modelOf(hostFiles(), second);
        expect(third.arrays.map(a => a.name).sort()).toEqual(['md0', 'md1']);
        expect(third.arrays.find(a => a.name === 'md1')).toBe(md1Before);
    });
});

describe('shareUnchanged', () => {
    test('deep-equal values give the previous object', () => {
        const before = { a: [1, { b: 'x' }], m: new Map([['k', { n: NaN }]]), z: null };
        const after = { a: [1, { b: 'x' }], m: new Map([['k', { n: NaN }]]), z: null };
        expect(shareUnchanged(before, after)).toBe(before);
    });

    test('a change deep inside gives new objects along its path, the previous ones beside it', () => {
        const before = { left: { deep: { value: 1 } }, right: { value: 2 } };
        const result = shareUnchanged(before, { left: { deep: { value: 3 } }, right: { value: 2 } });
        expect(result).toEqual({ left: { deep: { value: 3 } }, right: { value: 2 } });
        expect(result).not.toBe(before);
        expect(result.left).not.toBe(before.left);
        expect(result.right).toBe(before.right);
    });

    test('added, removed and undefined keys, longer arrays and other Map keys are changes', () => {
        const changes: [unknown, unknown][] = [
            [{ a: 1 }, { a: 1, b: undefined }], [{ a: 1, b: undefined }, { a: 1 }],
            [[1, 2], [1, 2, 3]], [[1, 2, 3], [1, 2]],
            [new Map([['a', 1]]), new Map([['b', 1]])], [new Map([['a', 1]]), new Map([['a', 1], ['b', 2]])],
        ];
        for (const [before, after] of changes) {
            const result = shareUnchanged(before, after);
            expect(result).not.toBe(before);
            expect(result).toStrictEqual(after);
        }
    });

    test('objects that are not plain data are compared by identity only', () => {
        class Point { constructor(readonly x: number) {} }
        const next = { p: new Point(1) };
        expect(shareUnchanged({ p: new Point(1) }, next).p).toBe(next.p);
    });
});
