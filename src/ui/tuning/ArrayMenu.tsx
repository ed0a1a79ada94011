// SPDX-License-Identifier: LGPL-2.1-or-later
// The menu of an array's less frequent actions (issue #33, item 6), in the later chunk
// (src/later.ts): PatternFly's Menu is ~10 KB of gzipped JavaScript that the first view does not
// need. Its toggle is the action
// bar's own button (ArrayActions.tsx), so the menu only places itself beside it.

import type { RefObject } from 'react';
import { Dropdown, DropdownItem, DropdownList } from '@patternfly/react-core/dist/esm/components/Dropdown/index.js';
import { _, fmt } from '../../host/i18n';
import type { ArrayAction } from '../../md/tuning/arrayActions';
import { guardedReason } from '../common/GuardedButton';
import { useAdmin } from '../common/HostContext';
import type { ShownAction } from './actionLabels';

export interface ArrayMenuProps {
    name: string;
    toggleRef: RefObject<HTMLButtonElement | null>;
    isOpen: boolean;
    onOpenChange: (isOpen: boolean) => void;
    actions: ShownAction[];
    onOpen: (open: ArrayAction) => void;
}

/**
 * Each item disabled without administrative access or where the kernel or the array cannot take
 * the action, with the reason in a tooltip, as the buttons beside it have theirs.
 */
export function ArrayMenu({ name, toggleRef, isOpen, onOpenChange, actions, onOpen }: ArrayMenuProps) {
    const admin = useAdmin();
    return (
        <Dropdown isOpen={isOpen} onOpenChange={onOpenChange} onSelect={() => onOpenChange(false)}
            toggle={{ toggleNode: null, toggleRef: toggleRef as RefObject<HTMLButtonElement> }}
            popperProps={{ position: 'right' }} className="raidtune-array-menu" data-array={name}
            aria-label={fmt(_('Actions for $0'), name)}>
            <DropdownList>
                {actions.map(a => {
                    const { reason, disabled } = guardedReason(admin, a.reason);
                    return (
                        <DropdownItem key={a.opens} isAriaDisabled={disabled}
                            tooltipProps={reason ? { content: reason } : undefined}
                            onClick={() => onOpen(a.opens)}>
                            {a.label}
                        </DropdownItem>
                    );
                })}
            </DropdownList>
        </Dropdown>
    );
}
