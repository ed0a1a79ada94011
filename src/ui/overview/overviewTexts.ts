// SPDX-License-Identifier: LGPL-2.1-or-later
// The overview's words: md's names of its operations, the redundancy left, and one estimate of
// the end as a duration and a clock time in the page's language.

import { _, documentLanguage, fmt, ngettext } from '../../host/i18n';
import type { SyncRunState } from '../../md/modelTypes';
import type { CheckDue } from '../../md/alerts/checkDue';
import type { OverviewEstimate, OverviewRow, Redundancy } from '../../md/overview';
import { durationText } from '../common/syncTexts';

/** Why a sync that does not run has no end to tell. */
export function heldText(runState: SyncRunState): string | null {
    switch (runState) {
    case 'running': return null;
    case 'delayed': return _('Waiting for another array on the same disks');
    case 'pending': return _('Pending');
    case 'frozen': return _('Paused (frozen)');
    }
}

export function redundancyText(row: OverviewRow): string {
    const redundancy: Redundancy = row.redundancy;
    switch (redundancy.kind) {
    case 'survives':
        return fmt(ngettext('Survives $0 more failure', 'Survives $0 more failures', redundancy.failures), redundancy.failures);
    case 'none-left': return fmt(_('None left: one more failure loses $0'), row.name);
    case 'failed': return fmt(_('None: $0 has failed'), row.name);
    case 'not-running': return _('Not running');
    case 'by-design': return _('None at this level');
    case 'unknown': return '—';
    }
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * "Sat 16:40" within the next six days; further out the date alone ("Jan 25"): the hour of an end
 * weeks away means nothing, and the column stays one short line.
 */
export function clockText(at: Date, now: Date): string {
    const far = at.getTime() - now.getTime() >= 6 * DAY_MS;
    return new Intl.DateTimeFormat(documentLanguage(), far
        ? { day: 'numeric', month: 'short' }
        : { weekday: 'short', hour: '2-digit', minute: '2-digit' }).format(at);
}

/** "about 21 h 50 min, Sat 16:40". */
export function estimateText(estimate: OverviewEstimate, now: Date): string {
    const at = new Date(now.getTime() + estimate.seconds * 1000);
    return fmt(_('about $0, $1'), durationText(estimate.seconds), clockText(at, now));
}

/** The kernel's own figure, beside the one shown (its finish= swings with every burst of other I/O). */
export function kernelFigureText(estimate: OverviewEstimate): string | null {
    if (estimate.kernelSeconds === null) return null;
    return fmt(_('Kernel estimate: $0'), durationText(estimate.kernelSeconds));
}

/** The overview's note on an array whose periodic check is overdue (src/md/alerts/checkDue.ts). */
export function checkDueText(due: CheckDue): string {
    if (due.kind === 'late') {
        const last = new Intl.DateTimeFormat(documentLanguage(), { day: 'numeric', month: 'short', year: 'numeric' })
            .format(new Date(due.lastEnd * 1000));
        return fmt(_('The last completed check ended $0, longer ago than its schedule\'s $1 days.'), last, due.periodDays);
    }
    switch (due.why) {
    case 'none': return _('No periodic check was found: md finds unreadable sectors only when a disk fails.');
    case 'disabled': return _('The periodic check is disabled.');
    case 'left-out': return _('The periodic check leaves this array out.');
    }
}
