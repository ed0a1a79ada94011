// SPDX-License-Identifier: LGPL-2.1-or-later
// What mismatch_cnt counts, from the running sync and last_sync_action (both spellings of a
// recovery: 6.1 "recovery", 7.3 "recover"), and when the card shows it.

import { mismatchExplanation, mismatchesShown, mismatchMeaning } from '../../../src/md/mismatches';

test('while a sync runs, the running one decides', () => {
    expect(mismatchMeaning('check', 'check')).toBe('check-so-far');
    expect(mismatchMeaning('repair', 'repair')).toBe('repair-so-far');
    for (const action of ['resync', 'recover', 'reshape'] as const) expect(mismatchMeaning(action, 'check')).toBe('during-sync');
});

test('afterwards, last_sync_action decides', () => {
    expect(mismatchMeaning(null, 'check')).toBe('check');
    expect(mismatchMeaning(null, 'repair')).toBe('repair');
    for (const last of ['resync', 'recovery', 'recover', 'reshape']) expect(mismatchMeaning(null, last)).toBe('after-sync');
    // No sync since assembly ("none" in 6.1, "idle" in 7.3), or a kernel without the file.
    for (const last of ['none', 'idle', null]) expect(mismatchMeaning(null, last)).toBe('unknown');
});

test('shown when not zero, and at zero when a check or repair counted it', () => {
    for (const meaning of ['check-so-far', 'repair-so-far', 'check', 'repair'] as const) expect(mismatchesShown(0, meaning)).toBe(true);
    for (const meaning of ['during-sync', 'after-sync', 'unknown'] as const) expect(mismatchesShown(0, meaning)).toBe(false);
    expect(mismatchesShown(8, 'after-sync')).toBe(true);
    expect(mismatchesShown(null, null)).toBe(false);
});

test('a count a check or repair found is explained by level: mirrors rarely mean damage, parity levels a parity mismatch', () => {
    const mirror = mismatchExplanation('raid1', 128, 'check');
    expect(mirror?.message).toMatch(/^On RAID1 and RAID10 copies often differ in areas rewritten while a write was on its way \(swap/);
    expect(mismatchExplanation('raid10', 8, 'repair')?.message).toMatch(/^On RAID1 and RAID10 the copies were made equal again\./);
    expect(mismatchExplanation('raid5', 8, 'check-so-far')).toEqual({
        message: expect.stringMatching(/^A parity mismatch on \$0: the parity does not match the data\./), args: ['RAID5'],
    });
    expect(mismatchExplanation('raid6', 8, 'repair')?.message).toMatch(/^A parity mismatch on \$0: the parity was recomputed/);
    // Nothing to explain: a clean check, a count no check made, a level without redundancy.
    expect(mismatchExplanation('raid6', 0, 'check')).toBeNull();
    expect(mismatchExplanation('raid1', 8, 'after-sync')).toBeNull();
    expect(mismatchExplanation('raid0', 8, 'check')).toBeNull();
});
