// Shown while raidtune's record of the original values exists on the host: the way back.

import { useState } from 'react';
import { Alert, AlertActionLink } from '../pf';
import { _, fmt, ngettext } from '../../host/i18n';
import { restorePlan, restoreSteps, type Journal } from '../../md/journal';
import { useHost } from '../app/HostContext';
import { text } from '../common/message';
import { ChangeModal } from '../plan/ChangeModal';

export function RestoreBanner() {
    const { model, config, admin } = useHost();
    // The journal being restored, kept while the dialog is open: a successful restore removes it
    // from the host, and the dialog must stay to say so.
    const [restoring, setRestoring] = useState<Journal | null>(null);
    const journal = model.journal;
    const count = journal?.entries.length ?? 0;
    return (
        <>
            {journal && (
                <Alert isInline variant="info" className="raidtune-restore"
                    title={fmt(ngettext('raidtune changed $0 setting on this host.', 'raidtune changed $0 settings on this host.', count), count)}
                    actionLinks={admin ? <AlertActionLink onClick={() => setRestoring(journal)}>{_('Restore previous settings')}</AlertActionLink> : undefined}>
                    {journal.entries.map(e => text(e.setting)).join(', ')}
                </Alert>
            )}
            {restoring && (
                <ChangeModal title={_('Restore previous settings')} plan={restorePlan(restoring)} steps={restoreSteps(restoring, config.stateDir)}
                    recordOriginals={false} applyLabel={_('Restore')} onClose={() => setRestoring(null)} />
            )}
        </>
    );
}
