// SPDX-License-Identifier: LGPL-2.1-or-later
// Sentences that explain a sync's state and the numbers behind it.

import { _, fmt } from '../../host/i18n';
import { shownEstimate } from '../../md/eta';
import { formatDuration, formatKiB, formatPercent, formatRateWithRaw, type DurationWords } from '../../md/format';
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
    if (shown?.basis === 'bitmap') {
        return fmt(_('$0 for the $1 md has left to sync, at its speed now'), durationText(shown.seconds),
            formatKiB(sync.scope?.remainingKiB ?? null));
    }
    if (sync.scope) return _('measuring…');
    if (!sync.eta) return sync.relearning ? _('re-learning the speed since the limits changed…') : _('measuring…');
    return fmt(_('$0 (at the average speed of the last $1)'), durationText(sync.eta.seconds), durationText(sync.eta.windowSeconds));
}

/**
 * What md reads and writes on a lockless bitmap: the rest of the device it passes without a read.
 * A resync's marked chunks are counted; the written ones md counts but does not place, so what is
 * left of them is their share of the part not yet passed.
 */
export function syncScopeText(sync: SyncModel): string | null {
    const scope = sync.scope;
    if (!scope) return null;
    const percent = formatPercent(scope.share * 100);
    if (scope.basis === 'need-sync')
        return fmt(_('only the chunks the lockless bitmap marks "need sync": $0 left ($1 of the disk)'),
            formatKiB(scope.remainingKiB), percent);
    return fmt(_('only the chunks written since the array was created, $0 of the disk: about $1 left'),
        percent, formatKiB(scope.remainingKiB));
}

export function limitText(limit: SpeedLimit | null): string {
    if (!limit) return '—';
    return fmt(limit.source === 'local' ? _('$0, set for this array') : _('$0, from the system limit'), formatRateWithRaw(limit.kiBs));
}
