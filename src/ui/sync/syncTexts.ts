// Sentences that explain a sync's state and the numbers behind it.

import { _, fmt } from '../../host/i18n';
import { formatDuration, formatRateWithRaw } from '../../md/format';
import type { SpeedLimit } from '../../md/sysfs';
import type { SyncModel } from '../../md/model';

export function syncStateExplanation(sync: SyncModel): string | null {
    switch (sync.runState) {
    case 'running':
        return null;
    case 'frozen':
        return _('Paused (frozen): the sync makes no progress until it is resumed.');
    case 'delayed':
        return sync.waitingFor.length
            ? fmt(_('Waiting: another array on the same disks is syncing ($0). This one starts when it finishes.'), sync.waitingFor.join(', '))
            : _('Waiting: another array on the same disks is syncing. This one starts when it finishes.');
    case 'pending':
        return sync.pendingReason === 'auto-read-only'
            ? _('Pending: the array is read-only (auto-read-only) and starts syncing at its first write, or after "mdadm --readwrite".')
            : _('Pending: the array has not started this sync yet.');
    }
}

export function kernelEstimateText(sync: SyncModel): string {
    return sync.kernelFinishMinutes === null ? '—' : formatDuration(sync.kernelFinishMinutes * 60);
}

export function smoothedEstimateText(sync: SyncModel): string {
    if (!sync.eta) return _('measuring…');
    return fmt(_('$0 (average of $1 samples over $2)'),
        formatDuration(sync.eta.seconds), sync.eta.samples, formatDuration(sync.eta.windowSeconds));
}

export function limitText(limit: SpeedLimit | null): string {
    if (!limit) return '—';
    return fmt(limit.source === 'local' ? _('$0, set for this array') : _('$0, from the system limit'), formatRateWithRaw(limit.kiBs));
}
