// A finding's one-click fix: the matching plan dialog, prefilled, with its usual preview, confirm
// and undo (nothing here writes anything itself).

import { useState } from 'react';
import { _ } from '../../host/i18n';
import type { FixIntent } from '../../md/diagnosis/findings';
import type { ArrayModel } from '../../md/model';
import { syncControlPlan } from '../../md/tuning/syncControl';
import { GuardedButton } from '../common/GuardedButton';
import { text } from '../common/message';
import { ChangeModal } from '../plan/ChangeModal';
import { ArrayLimitsChange } from '../tuning/ArrayLimitsChange';
import { StripeCacheChange } from '../tuning/StripeCacheChange';
import { fixLabel } from './findingTexts';

function FixDialog({ array, fix, onClose }: { array: ArrayModel; fix: FixIntent; onClose: () => void }) {
    switch (fix.kind) {
    case 'speed-limits':
        return <ArrayLimitsChange array={array} onClose={onClose} suggested={fix} />;
    case 'stripe-cache':
        return <StripeCacheChange array={array} onClose={onClose} suggested={fix.entries} />;
    case 'resume': {
        const result = syncControlPlan(array, 'resume');
        return (
            <ChangeModal title={'plan' in result ? text(result.plan.title) : _('Resume')} plan={'plan' in result ? result.plan : null}
                recordOriginals={false} onClose={onClose}>
                {'error' in result && text(result.error)}
            </ChangeModal>
        );
    }
    }
}

export function FixButton({ array, fix }: { array: ArrayModel; fix: FixIntent }) {
    const [open, setOpen] = useState(false);
    return (
        <>
            <GuardedButton variant="secondary" size="sm" className="raidtune-diagnosis-fix" onClick={() => setOpen(true)}>
                {fixLabel(fix)}
            </GuardedButton>
            {open && <FixDialog array={array} fix={fix} onClose={() => setOpen(false)} />}
        </>
    );
}
