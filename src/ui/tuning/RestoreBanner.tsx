// Shown while raidtune's record of the original values exists on the host: the way back.

import { useState } from 'react';
import { Alert, AlertActionLink } from '../pf';
import { _, fmt, ngettext } from '../../host/i18n';
import { cancelPlan } from '../../md/autoRestore';
import { restorePlan, restoreSteps, type Journal } from '../../md/journal';
import { useHost } from '../app/HostContext';
import { text } from '../common/message';
import { ChangeModal } from '../plan/ChangeModal';
import { AutoRestore } from './AutoRestore';

export function RestoreBanner() {
    const { model, config, admin } = useHost();
    // The journal being restored, kept while the dialog is open: a successful restore removes it
    // from the host, and the dialog must stay to say so.
    const [restoring, setRestoring] = useState<Journal | null>(null);
    const journal = model.journal;
    const count = journal?.entries.length ?? 0;
    // Restoring by hand makes the armed waiters pointless: they are cancelled with it.
    const cancelArmed = [...model.autoRestore].flatMap(([array, armed]) => cancelPlan(array, armed, config, model.systemd).steps);
    return (
        <>
            {(journal || model.autoRestore.size > 0) && (
                <Alert isInline variant="info" className="raidtune-restore"
                    title={journal
                        ? fmt(ngettext('raidtune changed $0 setting on this host.', 'raidtune changed $0 settings on this host.', count), count)
                        : _('An automatic restore is armed on this host.')}
                    actionLinks={admin && journal ? <AlertActionLink onClick={() => setRestoring(journal)}>{_('Restore previous settings')}</AlertActionLink> : undefined}>
                    {journal && <p>{journal.entries.map(e => text(e.setting)).join(', ')}</p>}
                    <AutoRestore />
                </Alert>
            )}
            {restoring && (
                <ChangeModal title={_('Restore previous settings')} plan={restorePlan(restoring)} steps={[...restoreSteps(restoring, config.stateDir), ...cancelArmed]}
                    recordOriginals={false} applyLabel={_('Restore')} onClose={() => setRestoring(null)} />
            )}
        </>
    );
}
