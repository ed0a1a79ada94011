// SPDX-License-Identifier: LGPL-2.1-or-later
// Words for model values. Apart from the components so every view says the same thing.

import { _, fmt, ngettext } from '../../host/i18n';
import type { MismatchMeaning } from '../../md/modelTypes';
import type { ArrayHealth, ArrayModel, BitmapKind, MemberModel, SyncAction } from '../../md/modelTypes';
import { isStripeCacheFull } from '../../md/stripeCacheUse';

export const HEALTH_LABEL: Record<ArrayHealth, { text: () => string; color: 'green' | 'orange' | 'red' | 'grey' | 'blue' }> = {
    clean: { text: () => _('Clean'), color: 'green' },
    degraded: { text: () => _('Degraded'), color: 'orange' },
    failed: { text: () => _('Failed'), color: 'red' },
    inactive: { text: () => _('Inactive'), color: 'grey' },
    'read-only': { text: () => _('Read-only'), color: 'blue' },
};

/** md's names of its operations, "rebuild" for what the kernel calls recovery (as mdadm's man page does). */
export function syncActionName(action: SyncAction): string {
    switch (action) {
    case 'resync': return _('Resync');
    case 'recover': return _('Rebuild');
    case 'check': return _('Check');
    case 'repair': return _('Repair');
    case 'reshape': return _('Reshape');
    }
}

export function levelName(level: string | null): string {
    if (!level) return _('Unknown level');
    const raid = level.match(/^raid(\d+)$/);
    return raid ? fmt(_('RAID $0'), raid[1]) : level === 'linear' ? _('Linear') : level;
}

export function memberRoleText(member: MemberModel): string {
    switch (member.role) {
    case 'active': return member.slot === null ? _('Active') : fmt(_('Active, slot $0'), member.slot);
    case 'rebuilding': return fmt(_('Rebuilding into slot $0'), member.slot ?? '?');
    case 'spare': return _('Spare');
    case 'faulty': return _('Faulty');
    case 'journal': return _('Journal');
    case 'replacement': return member.slot === null ? _('Replacement') : fmt(_('Replacement for slot $0'), member.slot);
    }
}

const BITMAP_KIND_LABEL: Record<BitmapKind, () => string> = {
    internal: () => _('Internal'),
    file: () => _('File'),
    llbitmap: () => _('Lockless (llbitmap)'),
};

export function bitmapText(array: ArrayModel): string {
    if (!array.bitmap) return _('None');
    const kind = BITMAP_KIND_LABEL[array.bitmap.kind]();
    return array.bitmap.chunkKiB === null ? kind : fmt(_('$0, $1 chunks'), kind, formatChunk(array.bitmap.chunkKiB));
}

export function formatChunk(kib: number): string {
    return kib >= 1024 && kib % 1024 === 0 ? `${kib / 1024} MiB` : `${kib} KiB`;
}

/**
 * "256 entries, 242 in use: full", full by the diagnosis's own rule. Not "raise it" (the usual
 * tuning tip): a larger cache helps only where the disks wait for it, which the diagnosis judges.
 */
export function stripeCacheText(cache: { size: number; active: number | null }): string {
    if (cache.active === null) return fmt(_('$0 entries'), cache.size);
    const full = isStripeCacheFull(cache.size, cache.active);
    return fmt(full ? _('$0 entries, $1 in use: full') : _('$0 entries, $1 in use'), cache.size, cache.active);
}

/** The kernel's mismatch_cnt in the words of what it counts now (src/md/mismatches.ts). */
export function mismatchText(count: number, meaning: MismatchMeaning): string {
    switch (meaning) {
    case 'check-so-far':
        return fmt(ngettext('$0 sector found inconsistent so far by the running check', '$0 sectors found inconsistent so far by the running check', count), count);
    case 'repair-so-far':
        return fmt(ngettext('$0 sector found inconsistent and rewritten so far by the running repair',
            '$0 sectors found inconsistent and rewritten so far by the running repair', count), count);
    case 'check':
        return fmt(ngettext('$0 sector found inconsistent by the last check', '$0 sectors found inconsistent by the last check', count), count);
    case 'repair':
        return fmt(ngettext('$0 sector found inconsistent and rewritten by the last repair',
            '$0 sectors found inconsistent and rewritten by the last repair', count), count);
    case 'during-sync':
        return fmt(_('$0 (not meaningful during a resync, rebuild or reshape: only a check or repair counts inconsistent sectors)'), count);
    case 'after-sync':
        return fmt(_('$0 (not meaningful after a resync, rebuild or reshape: only a check or repair counts inconsistent sectors)'), count);
    case 'unknown':
        return fmt(_('$0 (counted by the last check, repair or resync: the kernel does not say which)'), count);
    }
}
