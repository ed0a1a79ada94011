// SPDX-License-Identifier: LGPL-2.1-or-later
// `mdadm /dev/mdN --replace /dev/OLD --with /dev/NEW` as mdadm 4.2's Manage_replace and Manage_with
// do it: OLD (a working member) is marked want_replacement in sysfs, then NEW (a spare of the array)
// has its slot set to OLD's, which md's personality takes as OLD's replacement: it rebuilds next to
// OLD while OLD keeps serving (the array is never degraded); at the end md fails OLD and NEW takes
// its slot (model/sync.ts). mdadm freezes the array for the change and sets it idle afterwards.

import type { MdArray } from '../model/types';

/** Mark `name` for replacement; its slot, or mdadm's words for a refusal. */
export function markForReplacement(array: MdArray, name: string, path: string,
    arrayPath: string): { slot: number } | { refused: string } {
    const member = array.members.find(m => m.name === name);
    if (!member) return { refused: `${path} not found in ${arrayPath} so cannot --replace it` };
    if (member.slot === null || member.faulty) return { refused: `${path} is not active and so cannot be replaced.` };
    member.flags.add('want_replacement');
    return { slot: member.slot };
}

/** Make the spare `name` the replacement of the member in `slot` (slot_store, then the personality's hot_add_disk). */
export function makeReplacement(array: MdArray, name: string, slot: number, path: string,
    arrayPath: string): string | null {
    const member = array.members.find(m => m.name === name);
    if (!member) return `${path} not found in ${arrayPath} so cannot make it preferred replacement`;
    if (member.faulty) return `${path} is faulty and cannot be a replacement`;
    if (member.slot !== null) return `${path} is active and cannot be a replacement`;
    member.slot = slot;
    member.inSync = false;
    member.recoveryOffset = 0;
    member.flags.add('replacement');
    return null;
}
