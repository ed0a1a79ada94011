// SPDX-License-Identifier: LGPL-2.1-or-later
// A button that says why it cannot be used: no administrative access, or a reason from the core
// (Cockpit's idiom: a disabled control carries a tooltip, and stays focusable to show it).
//
// The tooltip is mounted only once the pointer or the focus reaches the button. PatternFly's Tooltip
// reads the computed text direction at every render, which forces a style recalculation right after
// React's DOM updates: with a few disabled buttons on each syncing card of a 128-array host that was
// about a third of a refresh's main-thread time. It is attached by `triggerRef`, beside the button
// rather than around it, so mounting it does not remount the button (a focused button keeps focus).

import { useRef, useState } from 'react';
import { Button, Tooltip, type ButtonProps } from '../pf';
import { _ } from '../../host/i18n';
import { useAdmin } from './HostContext';

export function GuardedButton({ disabledReason, children, onMouseEnter, onFocus, ...props }:
    ButtonProps & { disabledReason?: string | null }) {
    const admin = useAdmin();
    const reason = admin === false ? _('Requires administrative access. Turn it on in Cockpit\'s top bar.') : disabledReason ?? null;
    const buttonRef = useRef<HTMLButtonElement>(null);
    const [reached, setReached] = useState(false);
    return (
        <>
            <Button {...props} ref={buttonRef} isAriaDisabled={reason !== null || admin === null}
                onMouseEnter={event => { setReached(true); onMouseEnter?.(event); }}
                onFocus={event => { setReached(true); onFocus?.(event); }}>
                {children}
            </Button>
            {reason && reached && <Tooltip triggerRef={buttonRef} content={reason} isVisible />}
        </>
    );
}
