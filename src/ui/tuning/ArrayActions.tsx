// The changes an admin can make to one array: its speed limits, its stripe cache, its read-ahead,
// worker threads and disk queues, and its sync.

import { useState } from 'react';
import { Flex, FlexItem } from '../pf';
import { _ } from '../../host/i18n';
import { hasStripeCache } from '../../md/levels';
import type { ArrayModel, HostModel } from '../../md/model';
import { diskQueueSettingsOffered, diskQueueUnavailable } from '../../md/tuning/diskQueue';
import { groupThreadsUnavailable } from '../../md/tuning/groupThreads';
import { readAheadUnavailable } from '../../md/tuning/readAhead';
import { syncControlPlan, syncControlUnavailable, type SyncControl } from '../../md/tuning/syncControl';
import { GuardedButton } from '../common/GuardedButton';
import { text } from '../common/message';
import { ChangeModal } from '../plan/ChangeModal';
import { ArrayLimitsChange } from './ArrayLimitsChange';
import { BitmapButton } from './BitmapChange';
import { DiskQueueChange } from './DiskQueueChange';
import { GroupThreadsChange } from './GroupThreadsChange';
import { ReadAheadChange } from './ReadAheadChange';
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
    if (array.syncFrozen) return ['resume'];
    if (!sync) return ['check', 'repair'];
    if (sync.action === 'check' || sync.action === 'repair') return ['pause', 'stop'];
    return ['pause', 'restart'];
}

type Open = null | 'limits' | 'stripe-cache' | 'read-ahead' | 'worker-threads' | 'disk-queues' | SyncControl;

const isSyncControl = (open: Open): open is SyncControl => open !== null && open in CONTROL_LABELS;

// `host` comes from the card, not from useHost(): a context read would re-render the actions of
// all cards at every refresh, bypassing the card's memo (src/ui/arrays/cardProps.ts).
export function ArrayActions({ array, host }: { array: ArrayModel; host: HostModel }) {
    const [open, setOpen] = useState<Open>(null);
    const close = () => setOpen(null);
    const redundant = array.level !== 'raid0' && array.level !== 'linear';
    const controlPlan = isSyncControl(open) ? syncControlPlan(array, open) : null;
    const threadsReason = groupThreadsUnavailable(array);
    // Disabled only when no setting of any member disk can be changed; the dialog says which can.
    const disksReason = diskQueueSettingsOffered(host, array).length ? null : diskQueueUnavailable(host, array, 'nrRequests');
    return (
        <>
            <Flex className="raidtune-array-actions" spaceItems={{ default: 'spaceItemsSm' }}>
                {redundant && (
                    <FlexItem><GuardedButton variant="secondary" onClick={() => setOpen('limits')}>{_('Speed limits…')}</GuardedButton></FlexItem>
                )}
                {hasStripeCache(array.level) && (
                    <FlexItem><GuardedButton variant="secondary" onClick={() => setOpen('stripe-cache')}>{_('Stripe cache…')}</GuardedButton></FlexItem>
                )}
                {readAheadUnavailable(array) === null && (
                    <FlexItem><GuardedButton variant="secondary" onClick={() => setOpen('read-ahead')}>{_('Read-ahead…')}</GuardedButton></FlexItem>
                )}
                {hasStripeCache(array.level) && (
                    <FlexItem>
                        <GuardedButton variant="secondary" disabledReason={threadsReason && text(threadsReason)} onClick={() => setOpen('worker-threads')}>
                            {_('Worker threads…')}
                        </GuardedButton>
                    </FlexItem>
                )}
                <FlexItem>
                    <GuardedButton variant="secondary" disabledReason={disksReason && text(disksReason)} onClick={() => setOpen('disk-queues')}>
                        {_('Disk queues…')}
                    </GuardedButton>
                </FlexItem>
                {redundant && <BitmapButton array={array} />}
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
            {open === 'read-ahead' && <ReadAheadChange array={array} onClose={close} />}
            {open === 'worker-threads' && <GroupThreadsChange array={array} onClose={close} />}
            {open === 'disk-queues' && <DiskQueueChange array={array} onClose={close} />}
            {controlPlan && (
                <ChangeModal title={'plan' in controlPlan ? text(controlPlan.plan.title) : CONTROL_LABELS[open as SyncControl]()}
                    plan={'plan' in controlPlan ? controlPlan.plan : null} recordOriginals={false} onClose={close}>
                    {'error' in controlPlan && text(controlPlan.error)}
                </ChangeModal>
            )}
        </>
    );
}
