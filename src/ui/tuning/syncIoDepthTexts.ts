// SPDX-License-Identifier: LGPL-2.1-or-later
// The sync I/O depth as the page states it next to the limits (the field itself, for the dialogs
// loaded later, is SyncIoDepthField.tsx).

import { _, fmt } from '../../host/i18n';
import type { LocalOrSystem } from '../../md/sysfs';
import { KERNEL_DEFAULT_SYNC_IO_DEPTH } from '../../md/settings/registry';

/** The depth as shown next to the speed limits. */
export function syncIoDepthText(depth: number | null): string {
    if (depth === null) return _('unknown');
    return depth === KERNEL_DEFAULT_SYNC_IO_DEPTH ? fmt(_('$0, the kernel default'), depth) : String(depth);
}

/** An array's depth: its own or the system's, like its speed limits. */
export function arraySyncIoDepthText(depth: LocalOrSystem): string {
    return fmt(depth.source === 'local' ? _('$0, set for this array') : _('$0, from the system setting'), depth.value);
}

export function syncIoDepthHelp(): string {
    return _('How much sync I/O md keeps in flight while the array has other I/O, in 4 KiB stripes on RAID 4/5/6 and 64 KiB blocks on other levels. It applies only while a sync runs between the minimum and the maximum speed; a larger depth takes more of the disks from the other I/O.');
}
