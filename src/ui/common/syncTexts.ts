// SPDX-License-Identifier: LGPL-2.1-or-later
// Sentences that explain a sync's state and the numbers behind it.

import { _, fmt } from '../../host/i18n';
import { shownEstimate } from '../../md/eta';
import { formatDuration, formatRateWithRaw, type DurationWords } from '../../md/format';
import type { SpeedLimit } from '../../md/sysfs';
import type { SyncModel } from '../../md/modelTypes';

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

// Unit symbols as the language writes them ("22 h 5 min", "22 Std. 5 Min.", "22 小时 5 分钟").
const DURATION_WORDS: DurationWords = {
    daysHours: (d, h) => fmt(_('$0 d $1 h'), d, h),
    hoursMinutes: (h, m) => fmt(_('$0 h $1 min'), h, m),
    minutesSeconds: (m, s) => fmt(_('$0 min $1 s'), m, s),
    seconds: s => fmt(_('$0 s'), s),
};

export function durationText(seconds: number | null): string {
    return formatDuration(seconds, DURATION_WORDS);
}

export function kernelEstimateText(sync: SyncModel): string {
    return sync.kernelFinishMinutes === null ? '—' : durationText(sync.kernelFinishMinutes * 60);
}

export function smoothedEstimateText(sync: SyncModel): string {
    const shown = shownEstimate(sync);
    if (shown?.basis === 'predicted') {
        return fmt(_('$0 by the what-if (re-learning the speed since the limits changed)'), durationText(shown.seconds));
    }
    if (!sync.eta) return sync.relearning ? _('re-learning the speed since the limits changed…') : _('measuring…');
    return fmt(_('$0 (at the average speed of the last $1)'), durationText(sync.eta.seconds), durationText(sync.eta.windowSeconds));
}

export function limitText(limit: SpeedLimit | null): string {
    if (!limit) return '—';
    return fmt(limit.source === 'local' ? _('$0, set for this array') : _('$0, from the system limit'), formatRateWithRaw(limit.kiBs));
}
