// SPDX-License-Identifier: LGPL-2.1-or-later
// Shown while raidtune's record of the original values exists on the host (the way back), or
// while an automatic restore is armed.

import { useState } from 'react';
import { Alert, AlertActionLink } from '../pf';
import { _, fmt, ngettext } from '../../host/i18n';
import { cancelPlan } from '../../md/autoRestore';
import { restorePlan, restoreSteps, type Journal } from '../../md/journal';
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

export function RestoreBanner() {
    const { model, config, admin } = useHost();
    // The change being made, fixed when its dialog opens: a successful restore, arm or cancel
    // changes what the host says (the banner may go), and the dialog must stay to say how it went.
    const [change, setChange] = useState<BannerChange | null>(null);
    const journal = model.journal;
    const count = journal?.entries.length ?? 0;
    return (
        <>
            {(journal || model.autoRestore.size > 0) && (
                <Alert isInline variant="info" className="raidtune-restore"
                    title={journal
                        ? fmt(ngettext('raidtune changed $0 setting on this host.', 'raidtune changed $0 settings on this host.', count), count)
                        : _('An automatic restore is armed on this host.')}
                    actionLinks={admin && journal
                        ? <AlertActionLink onClick={() => setChange(restoreChange(journal, model, config))}>{_('Restore previous settings')}</AlertActionLink>
                        : undefined}>
                    {journal && <p>{journal.entries.map(e => text(e.setting)).join(', ')}</p>}
                    <AutoRestore onChange={setChange} />
                </Alert>
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
