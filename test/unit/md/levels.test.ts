// SPDX-License-Identifier: LGPL-2.1-or-later
// How many more member failures an array survives, for certain, by level and by the slots it
// already lost (src/md/levels.ts failuresLeft): what the health alert's severity follows.

import { failuresLeft } from '../../../src/md/levels';

// md's raid10 layout number: near copies in the low byte, far copies in the next, offset at bit 16.
const near2 = 0x102;
const far2 = 0x201;
const offset2 = 0x10201;

test.each([
    // level, disks, layout, missing slots, failures left
    ['raid1', 2, null, [], 1],
    ['raid1', 2, null, [1], 0],
    ['raid1', 3, null, [2], 1],
    ['raid4', 4, null, [], 1],
    ['raid5', 4, null, [], 1],
    ['raid5', 4, null, [2], 0],
    ['raid6', 6, null, [], 2],
    ['raid6', 6, null, [5], 1],
    ['raid6', 6, null, [0, 5], 0],
    ['raid0', 2, null, [], 0],
    ['linear', 2, null, [], 0],
] as const)('%s of %d disks, layout %p, slots %j missing: survives %d more', (level, disks, layout, missing, left) => {
    expect(failuresLeft(level, disks, layout, missing)).toBe(left);
});

test('a failed array (more missing than the level survives) has none left, never a negative count', () => {
    expect(failuresLeft('raid5', 4, null, [1, 2])).toBe(0);
    expect(failuresLeft('raid1', 2, null, [0, 1])).toBe(0);
});

test('raid10 near copies: the worst next failure is in the mirror group that already lost a member', () => {
    expect(failuresLeft('raid10', 4, near2, [])).toBe(1);
    // Slot 1 of the group {0, 1} is gone: losing slot 0 loses data, whatever the other group holds.
    expect(failuresLeft('raid10', 4, near2, [1])).toBe(0);
    // Three copies in groups of three: one lost in each group still leaves one more to lose.
    expect(failuresLeft('raid10', 6, 0x103, [0, 3])).toBe(1);
    expect(failuresLeft('raid10', 6, 0x103, [0, 1])).toBe(0);
});

test('raid10 without mirror groups (far or offset copies, an odd disk count): every missing slot counts against the copies', () => {
    expect(failuresLeft('raid10', 4, far2, [])).toBe(1);
    expect(failuresLeft('raid10', 4, far2, [3])).toBe(0);
    expect(failuresLeft('raid10', 4, offset2, [0])).toBe(0);
    expect(failuresLeft('raid10', 3, near2, [])).toBe(1);
    expect(failuresLeft('raid10', 3, near2, [2])).toBe(0);
});

test('unknown where the level or the disk count is', () => {
    expect(failuresLeft(null, 4, null, [])).toBeNull();
    expect(failuresLeft('raid1', null, null, [])).toBeNull();
    expect(failuresLeft('raid10', null, near2, [])).toBeNull();
    expect(failuresLeft('multipath', 2, null, [])).toBeNull();
});
