// SPDX-License-Identifier: LGPL-2.1-or-later
// The changes an admin can make to one array: its speed limits, its stripe cache, its read-ahead,
// worker threads and disk queues, and its sync.

import { memo, useCallback } from 'react';
import { Flex, FlexItem } from '../pf';
import { _ } from '../../host/i18n';
import { hasStripeCache } from '../../md/levels';
import type { ArrayModel, HostModel } from '../../md/modelTypes';
import { diskQueueSettingsOffered, diskQueueUnavailable } from '../../md/tuning/diskQueue';
import { groupThreadsUnavailable } from '../../md/tuning/groupThreads';
import { readAheadUnavailable } from '../../md/tuning/readAhead';
import { syncControlPlan, syncControlUnavailable, type SyncControl } from '../../md/tuning/syncControl';
import { useOpenArrayDialog } from '../common/arrayDialog';
import { GuardedButton } from '../common/GuardedButton';
import { text } from '../common/message';
import { ChangeModal } from '../plan/lazyChangeModal';
import {
    ArrayLimitsChange, BitmapChange, DiskQueueChange, GroupThreadsChange, preloadChanges, ReadAheadChange,
    StripeCacheChange,
} from './lazyChanges';
import { bitmapUnavailable, type BitmapAction } from '../../md/tuning/bitmap';
import type { Message } from '../../md/message';

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

type Open = 'limits' | 'stripe-cache' | 'read-ahead' | 'worker-threads' | 'disk-queues' | `bitmap-${BitmapAction}` | SyncControl;

/** One button of the bar: what it says, why it is disabled (null: it is not), what it opens. */
interface ActionButton {
    opens: Open;
    label: string;
    reason: string | null;
}

/** The buttons the array's state calls for, with md's or raidtune's reason where one would be refused. */
function actionButtons(array: ArrayModel, host: HostModel): ActionButton[] {
    const redundant = array.level !== 'raid0' && array.level !== 'linear';
    const stripeCache = hasStripeCache(array.level);
    const reason = (message: Message | null) => message && text(message);
    const buttons: (ActionButton | false)[] = [
        redundant && { opens: 'limits', label: _('Speed limits…'), reason: null },
        stripeCache && { opens: 'stripe-cache', label: _('Stripe cache…'), reason: null },
        readAheadUnavailable(array) === null && { opens: 'read-ahead', label: _('Read-ahead…'), reason: null },
        stripeCache && { opens: 'worker-threads', label: _('Worker threads…'), reason: reason(groupThreadsUnavailable(array)) },
        // Disabled only when no setting of any member disk can be changed; the dialog says which can.
        {
            opens: 'disk-queues', label: _('Disk queues…'),
            reason: diskQueueSettingsOffered(host, array).length ? null : reason(diskQueueUnavailable(host, array, 'nrRequests')),
        },
    ];
    if (redundant) {
        const bitmap: BitmapAction = array.bitmap ? 'remove' : 'add';
        buttons.push({
            opens: `bitmap-${bitmap}`, label: bitmap === 'add' ? _('Add bitmap…') : _('Remove bitmap…'),
            reason: reason(bitmapUnavailable(array, bitmap)),
        });
        for (const control of offeredControls(array)) {
            buttons.push({
                opens: control, label: CONTROL_LABELS[control](),
                reason: reason(syncControlUnavailable(array, control)),
            });
        }
    }
    return buttons.filter((b): b is ActionButton => b !== false);
}

const sameButtons = (a: { buttons: ActionButton[] }, b: { buttons: ActionButton[] }) =>
    a.buttons.length === b.buttons.length &&
    a.buttons.every((x, i) =>
        x.opens === b.buttons[i].opens && x.label === b.buttons[i].label && x.reason === b.buttons[i].reason);

// A syncing array is a new object at every refresh, its buttons rarely change: they render again
// only when one does (a dozen PatternFly buttons on each of two dozen syncing cards add up).
const ActionBar = memo(function ActionBar({ buttons, onOpen }: {
    buttons: ActionButton[]; onOpen: (open: Open) => void;
}) {
    return (
        <Flex className="raidtune-array-actions" spaceItems={{ default: 'spaceItemsSm' }}>
            {buttons.map(b => (
                <FlexItem key={b.opens}>
                    <GuardedButton variant="secondary" disabledReason={b.reason} onClick={() => onOpen(b.opens)}
                        onMouseEnter={preloadChanges} onFocus={preloadChanges}>{b.label}</GuardedButton>
                </FlexItem>
            ))}
        </Flex>
    );
}, sameButtons);

/** The dialog a button opens, for the array as the page has it now (useOpenArrayDialog). */
function ArrayDialog({ array, open, onClose }: { array: ArrayModel; open: Open; onClose: () => void }) {
    switch (open) {
    case 'limits': return <ArrayLimitsChange array={array} onClose={onClose} />;
    case 'stripe-cache': return <StripeCacheChange array={array} onClose={onClose} />;
    case 'read-ahead': return <ReadAheadChange array={array} onClose={onClose} />;
    case 'worker-threads': return <GroupThreadsChange array={array} onClose={onClose} />;
    case 'disk-queues': return <DiskQueueChange array={array} onClose={onClose} />;
    case 'bitmap-add':
    case 'bitmap-remove':
        return <BitmapChange array={array} action={open === 'bitmap-add' ? 'add' : 'remove'} onClose={onClose} />;
    default: {
        const controlPlan = syncControlPlan(array, open);
        return (
            <ChangeModal
                title={controlPlan.plan ? text(controlPlan.plan.title) : CONTROL_LABELS[open]()}
                plan={controlPlan.plan ?? null} recordOriginals={false} onClose={onClose}>
                {controlPlan.errors?.control && text(controlPlan.errors.control)}
            </ChangeModal>
        );
    }
    }
}

// `host` comes from the card, not from useHost(): a store read would re-render the actions of
// all cards at every refresh, bypassing the card's memo (src/ui/common/cardProps.ts). The dialogs
// render above the cards (src/ui/common/arrayDialog.tsx), so one outlives an array that stops: the
// sync controls follow the array at every refresh; the settings dialogs hold the values they
// opened with (useHostAsOpened) and check them at Apply.
export function ArrayActions({ array, host }: { array: ArrayModel; host: HostModel }) {
    const openDialog = useOpenArrayDialog();
    const name = array.name;
    const onOpen = useCallback((open: Open) => openDialog(name, (current, close) => (
        <ArrayDialog array={current} open={open} onClose={close} />
    )), [openDialog, name]);
    return <ActionBar buttons={actionButtons(array, host)} onOpen={onOpen} />;
}
