// SPDX-License-Identifier: LGPL-2.1-or-later
// A running sync that has made no progress for a while (src/md/stall.ts): for how long, why where
// the page can tell, and the safe way on where there is one (its dialog belongs to the card).

import { Alert } from '../pf';
import { _, fmt } from '../../host/i18n';
import type { FixIntent } from '../../md/diagnosis/findings';
import type { StallReason, SyncStall } from '../../md/modelTypes';
import { GuardedButton } from '../common/GuardedButton';
import { durationText } from '../common/syncTexts';

function reasonText(reason: StallReason | null): string {
    switch (reason?.kind) {
    case 'sync-max':
        return fmt(_('It reached sync_max = $0: md waits there until sync_max is raised.'), reason.sectors);
    case 'stripe-cache':
        return fmt(_('The reshape needs at least $0 stripe cache entries and the cache has $1: it waits for room.'),
            reason.needed, reason.size);
    default:
        return _('md shows the sync running, yet its position does not move. A member disk that stopped answering looks like this: see the kernel log (journalctl -k) and the disks\' state.');
    }
}

function fixOf(reason: StallReason | null): { fix: FixIntent; label: string } | null {
    switch (reason?.kind) {
    case 'sync-max':
        return { fix: { kind: 'release-sync-max' }, label: _('Raise sync_max to "max"…') };
    case 'stripe-cache':
        return { fix: { kind: 'stripe-cache', entries: reason.needed }, label: fmt(_('Raise the stripe cache to $0 entries…'), reason.needed) };
    default:
        return null;
    }
}

export function StallAlert({ stall, onFix }: { stall: SyncStall; onFix: (fix: FixIntent) => void }) {
    const fix = fixOf(stall.reason);
    return (
        <Alert isInline variant="warning" component="h3" className="raidtune-stall"
            title={fmt(_('No progress for $0'), durationText(Math.floor(stall.forMs / 1000)))}
            actionLinks={fix && (
                <GuardedButton variant="secondary" size="sm" className="raidtune-stall-fix" onClick={() => onFix(fix.fix)}>
                    {fix.label}
                </GuardedButton>
            )}>
            {reasonText(stall.reason)}
        </Alert>
    );
}
