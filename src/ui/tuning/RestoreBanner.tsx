// SPDX-License-Identifier: LGPL-2.1-or-later
// Shown while raidtune's record of the original values exists on the host (the way back), or
// while an automatic restore is armed: a StackItem of the page then.

import { useState } from 'react';
import { Alert, AlertActionLink, StackItem } from '../pf';
import { _, fmt, ngettext } from '../../host/i18n';
import { cancelPlan } from '../../md/autoRestore';
import { restorePlan, restoreSteps, type Journal } from '../../md/journal';
import { entriesDiffering } from '../../md/journalChanges';
import type { HostModel } from '../../md/modelTypes';
import { useHost } from '../common/HostContext';
import { text } from '../common/message';
import { ChangeModal } from '../plan/lazyChangeModal';
import { AutoRestore, type BannerChange } from './AutoRestore';
import type { HostConfig } from '../../host/config';

function restoreChange(journal: Journal, model: HostModel, config: HostConfig): BannerChange {
    // Restoring by hand makes the armed waiters pointless: they are cancelled with it.
    const cancelArmed = [...model.autoRestore]
        .flatMap(([array, armed]) => cancelPlan(array, armed, config, model.systemd).steps);
    return {
        title: _('Restore previous settings'), plan: restorePlan(journal), applyLabel: _('Restore'),
        steps: [...restoreSteps(journal, config.stateDir), ...cancelArmed],
    };
}

function journalTitle(journal: Journal | null, count: number): string {
    if (!journal) return _('An automatic restore is armed on this host.');
    return count
        ? fmt(ngettext('raidtune changed $0 setting on this host.', 'raidtune changed $0 settings on this host.', count), count)
        : _('Every setting raidtune changed on this host is back to its previous value.');
}

export function RestoreBanner() {
    const { model, config, admin } = useHost();
    // The change being made, fixed when its dialog opens: a successful restore, arm or cancel
    // changes what the host says (the banner may go), and the dialog must stay to say how it went.
    const [change, setChange] = useState<BannerChange | null>(null);
    const journal = model.journal;
    // Counted as they are now: the record keeps every setting a change tried, undone or not.
    const differing = journal ? entriesDiffering(journal, model) : [];
    const count = differing.length;
    return (
        <>
            {/* A page's stack item only while it shows: an empty one would still take the stack's gap. */}
            {(journal || model.autoRestore.size > 0) && (
                <StackItem>
                    <Alert isInline variant="info" className="raidtune-restore"
                        title={journalTitle(journal, count)}
                        actionLinks={admin && journal
                            ? <AlertActionLink onClick={() => setChange(restoreChange(journal, model, config))}>{_('Restore previous settings')}</AlertActionLink>
                            : undefined}>
                        {count > 0 && <p>{differing.map(e => text(e.setting)).join(', ')}</p>}
                        <AutoRestore onChange={setChange} />
                    </Alert>
                </StackItem>
            )}
            {change && (
                <ChangeModal title={change.title} plan={change.plan} steps={change.steps} recordOriginals={false}
                    applyLabel={change.applyLabel} onClose={() => setChange(null)}>
                    {change.explanation}
                </ChangeModal>
            )}
        </>
    );
}
