// SPDX-License-Identifier: LGPL-2.1-or-later
// The diagnosis in a few words: each finding's title, each fix's label, and what the overview's row
// says sets the pace and offers as its one action. Apart from findingTexts.ts: the overview loads
// these before its first view, the full sentences only with an array's page.

import { _, fmt } from '../../host/i18n';
import { formatRate, formatShare } from '../../md/format';
import type { Diagnosis, Finding, FixIntent } from '../../md/diagnosis/findings';
import type { SyncAction } from '../../md/modelTypes';

/** The arrays on the same disks whose I/O it is, as a list of names. */
export const arrayNames = (siblings: readonly { array: string }[]): string => siblings.map(s => s.array).join(', ');

export function findingTitle(finding: Finding): string {
    switch (finding.kind) {
    case 'capped-by-max': return _('Capped by the maximum');
    case 'starved':
        return finding.siblings.length ? fmt(_('Starved by I/O on $0'), arrayNames(finding.siblings)) : _('Starved by other I/O');
    case 'slowed':
        return finding.siblings.length ? fmt(_('Slowed by I/O on $0'), arrayNames(finding.siblings)) : _('Slowed by other I/O');
    case 'scrub': return finding.action === 'check' ? _('A check runs in the background') : _('A repair runs in the background');
    case 'slow-member': return _('One member holds the sync back');
    case 'cache-bound': return _('The stripe cache holds it back');
    case 'frozen': return _('Paused');
    case 'delayed': return _('Waiting for another array');
    case 'background-jobs': return _('Background jobs on the host');
    }
}

export function fixLabel(fix: FixIntent): string {
    switch (fix.kind) {
    case 'speed-limits':
        return fix.minKiBs !== null
            ? fmt(_('Raise the minimum to $0…'), formatRate(fix.minKiBs))
            : fmt(_('Raise the maximum to $0…'), formatRate(fix.maxKiBs));
    case 'lower-max':
        return fmt(_('Lower the maximum to $0…'), formatRate(fix.maxKiBs));
    case 'stripe-cache':
        return fmt(_('Raise the stripe cache to $0 entries…'), fix.entries);
    case 'resume':
        return _('Resume…');
    case 'release-sync-max':
        return _('Raise sync_max to "max"…');
    }
}

/** What sets the pace in a few words, for the overview's row: the first finding, else the verdict. */
export function paceWords(diagnosis: Diagnosis): string {
    if (diagnosis.gathering) return _('measuring…');
    if (diagnosis.findings.length) return findingTitle(diagnosis.findings[0]);
    const pace = diagnosis.verdict?.pace;
    switch (pace?.kind) {
    case undefined: return '—';
    case 'members': return fmt(_('The member disks ($0 busy $1)'), pace.bound.disk, formatShare(pace.bound.busyShare));
    case 'minimum': return fmt(_('Its minimum of $0'), formatRate(pace.minKiBs));
    case 'gives-way': return _('Other I/O');
    case 'maximum': return fmt(_('Its maximum of $0'), formatRate(pace.maxKiBs));
    case 'nothing': return _('Nothing measured');
    }
}

/**
 * The overview's primary action: what it does for the operation ("Speed up rebuild…") where the
 * fix makes it faster, else the fix's own label. The dialog it opens shows the exact change.
 */
export function primaryFixLabel(fix: FixIntent, action: SyncAction): string {
    if (fix.kind === 'speed-limits' || fix.kind === 'stripe-cache') {
        switch (action) {
        case 'recover': return _('Speed up rebuild…');
        case 'resync': return _('Speed up resync…');
        case 'reshape': return _('Speed up reshape…');
        case 'check': case 'repair': break;
        }
    }
    return fixLabel(fix);
}
