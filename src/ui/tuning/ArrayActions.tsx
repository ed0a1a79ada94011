// The changes an admin can make to one array: its speed limits, its stripe cache, and its sync.

import { useState } from 'react';
import { Flex, FlexItem } from '../pf';
import { _ } from '../../host/i18n';
import { hasStripeCache } from '../../md/levels';
import type { ArrayModel } from '../../md/model';
import { syncControlPlan, syncControlUnavailable, type SyncControl } from '../../md/tuning/syncControl';
import { GuardedButton } from '../common/GuardedButton';
import { text } from '../common/message';
import { ChangeModal } from '../plan/ChangeModal';
import { ArrayLimitsChange } from './ArrayLimitsChange';
import { StripeCacheChange } from './StripeCacheChange';

const CONTROL_LABELS: Record<SyncControl, () => string> = {
    pause: () => _('Pause'),
    resume: () => _('Resume'),
    restart: () => _('Restart sync'),
    stop: () => _('Stop check'),
    check: () => _('Start check'),
    repair: () => _('Start repair'),
};

/** The sync controls worth offering in the array's current state (others would only confuse). */
function offeredControls(array: ArrayModel): SyncControl[] {
    const sync = array.sync;
    if (!sync) return ['check', 'repair'];
    if (sync.runState === 'frozen') return ['resume'];
    if (sync.action === 'check' || sync.action === 'repair') return ['pause', 'stop'];
    return ['pause', 'restart'];
}

type Open = null | 'limits' | 'stripe-cache' | SyncControl;

export function ArrayActions({ array }: { array: ArrayModel }) {
    const [open, setOpen] = useState<Open>(null);
    const close = () => setOpen(null);
    const redundant = array.level !== 'raid0' && array.level !== 'linear';
    const controlPlan = open && open !== 'limits' && open !== 'stripe-cache' ? syncControlPlan(array, open) : null;
    return (
        <>
            <Flex className="raidtune-array-actions" spaceItems={{ default: 'spaceItemsSm' }}>
                {redundant && (
                    <FlexItem><GuardedButton variant="secondary" onClick={() => setOpen('limits')}>{_('Speed limits…')}</GuardedButton></FlexItem>
                )}
                {hasStripeCache(array.level) && (
                    <FlexItem><GuardedButton variant="secondary" onClick={() => setOpen('stripe-cache')}>{_('Stripe cache…')}</GuardedButton></FlexItem>
                )}
                {redundant && offeredControls(array).map(control => {
                    const reason = syncControlUnavailable(array, control);
                    return (
                        <FlexItem key={control}>
                            <GuardedButton variant="secondary" disabledReason={reason && text(reason)} onClick={() => setOpen(control)}>
                                {CONTROL_LABELS[control]()}
                            </GuardedButton>
                        </FlexItem>
                    );
                })}
            </Flex>
            {open === 'limits' && <ArrayLimitsChange array={array} onClose={close} />}
            {open === 'stripe-cache' && <StripeCacheChange array={array} onClose={close} />}
            {controlPlan && (
                <ChangeModal title={'plan' in controlPlan ? text(controlPlan.plan.title) : CONTROL_LABELS[open as SyncControl]()}
                    plan={'plan' in controlPlan ? controlPlan.plan : null} recordOriginals={false} onClose={close}>
                    {'error' in controlPlan && text(controlPlan.error)}
                </ChangeModal>
            )}
        </>
    );
}
