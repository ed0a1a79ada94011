// SPDX-License-Identifier: LGPL-2.1-or-later
// The changes an admin can make to one array (its speed limits, stripe cache, read-ahead, worker
// threads, disk queues, bitmap and sync), by weight: what the state calls for as buttons, the rest in
// its menu (src/md/tuning/arrayActions.ts decides which).

import { memo, useCallback, useRef, useState } from 'react';
import EllipsisVIcon from '@patternfly/react-icons/dist/esm/icons/ellipsis-v-icon';
import { Button } from '../pf';
import { Flex, FlexItem } from '../pfDetails';
import { _, fmt } from '../../host/i18n';
import type { ArrayModel, HostModel } from '../../md/modelTypes';
import { offeredArrayActions, type ArrayAction } from '../../md/tuning/arrayActions';
import { syncControlEffect, syncControlPlan } from '../../md/tuning/syncControl';
import { useOpenArrayDialog } from '../common/arrayDialog';
import { GuardedButton } from '../common/GuardedButton';
import { lazyPart } from '../common/lazyPart';
import { text } from '../common/message';
import { ChangeModal } from '../plan/lazyChangeModal';
import { CONTROL_LABELS, sameActions, shownActions, type ShownAction } from './actionLabels';
import {
    ArrayLimitsChange, BitmapChange, DiskQueueChange, GroupThreadsChange, preloadChanges, ReadAheadChange,
    StripeCacheChange,
} from './lazyChanges';

const ArrayMenu = lazyPart(() => import('../../later').then(later => later.arrayMenu.ArrayMenu));

/** The menu's code and the dialogs', fetched once the pointer or the focus reaches the toggle. */
function preloadMenu(): void {
    void ArrayMenu.preload();
    preloadChanges();
}

/**
 * The kebab toggle and, once it was first opened, its menu. The toggle is ours, not the menu's, so
 * that it is in the first view and keeps its focus while the menu's code comes; it only shows, so it
 * stays usable without administrative access.
 */
function MoreActions({ name, actions, onOpen }: {
    name: string; actions: ShownAction[]; onOpen: (open: ArrayAction) => void;
}) {
    const toggleRef = useRef<HTMLButtonElement>(null);
    const [isOpen, setOpen] = useState(false);
    const [wanted, setWanted] = useState(false);
    return (
        <>
            <Button ref={toggleRef} variant="plain" icon={<EllipsisVIcon />} aria-label={fmt(_('More actions for $0'), name)}
                aria-haspopup="menu" aria-expanded={isOpen} onMouseEnter={preloadMenu} onFocus={preloadMenu}
                onClick={() => {
                    setWanted(true);
                    setOpen(!isOpen);
                }} />
            {wanted && (
                <ArrayMenu name={name} toggleRef={toggleRef} isOpen={isOpen} onOpenChange={setOpen}
                    actions={actions} onOpen={onOpen} />
            )}
        </>
    );
}

// A syncing array is a new object at every refresh, its actions rarely change: they render again
// only when one does (a few PatternFly buttons on each of two dozen syncing cards add up).
const ActionBar = memo(function ActionBar({ name, buttons, menu, onOpen }: {
    name: string; buttons: ShownAction[]; menu: ShownAction[]; onOpen: (open: ArrayAction) => void;
}) {
    return (
        <Flex className="raidtune-array-actions" spaceItems={{ default: 'spaceItemsSm' }}
            alignItems={{ default: 'alignItemsCenter' }}>
            {buttons.map(b => (
                <FlexItem key={b.opens}>
                    <GuardedButton variant="secondary" disabledReason={b.reason} onClick={() => onOpen(b.opens)}
                        onMouseEnter={preloadChanges} onFocus={preloadChanges}>{b.label}</GuardedButton>
                </FlexItem>
            ))}
            {menu.length > 0 && <FlexItem><MoreActions name={name} actions={menu} onOpen={onOpen} /></FlexItem>}
        </Flex>
    );
}, (a, b) => a.name === b.name && a.onOpen === b.onOpen &&
    sameActions(a.buttons, b.buttons) && sameActions(a.menu, b.menu));

/** The dialog a button opens, for the array as the page has it now (useOpenArrayDialog). */
function ArrayDialog({ array, open, onClose }: { array: ArrayModel; open: ArrayAction; onClose: () => void }) {
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
                {controlPlan.errors?.control ? text(controlPlan.errors.control) : text(syncControlEffect(array, open))}
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
    const onOpen = useCallback((open: ArrayAction) => openDialog(name, (current, close) => (
        <ArrayDialog array={current} open={open} onClose={close} />
    )), [openDialog, name]);
    const offered = offeredArrayActions(array, host);
    return (
        <ActionBar name={name} buttons={shownActions(offered.buttons)} menu={shownActions(offered.menu)}
            onOpen={onOpen} />
    );
}
