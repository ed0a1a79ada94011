// SPDX-License-Identifier: LGPL-2.1-or-later
// A finding's one-click fix: the matching plan dialog, prefilled, with its usual preview, confirm
// and undo (nothing here writes anything itself). The dialog belongs to the page (arrayDialog.tsx),
// not to the finding or the sync panel: applying a fix changes the verdict, and resuming a frozen
// sync leaves the array without a sync for a moment, yet the dialog must stay to show the outcome.
// The button is FixButton.tsx, with the diagnosis (a chunk loaded apart).

import { useCallback } from 'react';
import { _ } from '../../host/i18n';
import type { FixIntent } from '../../md/diagnosis/findings';
import type { ArrayModel } from '../../md/modelTypes';
import { syncControlPlan } from '../../md/tuning/syncControl';
import { syncMaxReleasePlan } from '../../md/tuning/syncMax';
import { useOpenArrayDialog } from '../common/arrayDialog';
import { text } from '../common/message';
import { ChangeModal } from '../plan/lazyChangeModal';
import { ArrayLimitsChange, StripeCacheChange } from '../tuning/lazyChanges';

function FixDialog({ array, fix, onClose }: { array: ArrayModel; fix: FixIntent; onClose: () => void }) {
    switch (fix.kind) {
    case 'speed-limits':
        return <ArrayLimitsChange array={array} onClose={onClose} suggested={fix} />;
    case 'lower-max':
        return (
            <ArrayLimitsChange array={array} onClose={onClose} suggested={{ minKiBs: null, maxKiBs: fix.maxKiBs }} />
        );
    case 'stripe-cache':
        return <StripeCacheChange array={array} onClose={onClose} suggested={fix.entries} />;
    case 'resume': {
        const result = syncControlPlan(array, 'resume');
        return (
            <ChangeModal title={result.plan ? text(result.plan.title) : _('Resume')} plan={result.plan ?? null}
                recordOriginals={false} onClose={onClose}>
                {result.errors?.control && text(result.errors.control)}
            </ChangeModal>
        );
    }
    case 'release-sync-max': {
        const result = syncMaxReleasePlan(array);
        return (
            <ChangeModal title={result.plan ? text(result.plan.title) : _('Raise sync_max')} plan={result.plan ?? null}
                recordOriginals={false} onClose={onClose}>
                {result.errors?.syncMax ? text(result.errors.syncMax)
                    : _('md goes on at once. There is no undo while the sync runs: md refuses a lower sync_max then. When the sync completes, md resets sync_max to "max" itself.')}
            </ChangeModal>
        );
    }
    }
}

/** For the array's card: the function a fix button calls, which opens the fix's dialog above the cards. */
export function useFixDialog(array: ArrayModel): (fix: FixIntent) => void {
    const openDialog = useOpenArrayDialog();
    const name = array.name;
    return useCallback((fix: FixIntent) => openDialog(name, (current, close) => (
        <FixDialog array={current} fix={fix} onClose={close} />
    )), [openDialog, name]);
}
