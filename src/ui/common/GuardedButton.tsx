// SPDX-License-Identifier: LGPL-2.1-or-later
// A button that says why it cannot be used: no administrative access, or a reason from the core
// (Cockpit's idiom: a disabled control carries a tooltip, and stays focusable to show it).
//
// The tooltip is mounted only once the pointer or the focus reaches the button. PatternFly's Tooltip
// reads the computed text direction at every render, which forces a style recalculation right after
// React's DOM updates: with a few disabled buttons on each syncing card of a 128-array host that was
// about a third of a refresh's main-thread time. It is attached by `triggerRef`, beside the button
// rather than around it, so mounting it does not remount the button (a focused button keeps focus).
//
// Its visibility is ours (trigger "manual"), not PatternFly's listeners: those are attached only after
// the tooltip has mounted, so a pointer that left before then was never seen leaving, and the tooltip
// stayed on screen for good.

import { useRef } from 'react';
import { Button, Tooltip, type ButtonProps } from '../pf';
import { _ } from '../../host/i18n';
import { useAdmin } from './HostContext';
import { useTooltipReach } from './useTooltipReach';

/** Why a control that changes the host is disabled without administrative access. */
const ADMIN_REASON = () => _('Requires administrative access. Turn it on in Cockpit\'s top bar.');

/**
 * Why a control that changes the host is disabled: no administrative access, else `reason`;
 * `disabled` also while Cockpit has not yet said whether there is access (admin null).
 */
export function guardedReason(admin: boolean | null, reason: string | null | undefined):
    { reason: string | null; disabled: boolean } {
    const why = admin === false ? ADMIN_REASON() : reason ?? null;
    return { reason: why, disabled: why !== null || admin === null };
}

export function GuardedButton({
    disabledReason, children, onMouseEnter, onMouseLeave, onFocus, onBlur, onKeyDown, ...props
}: ButtonProps & { disabledReason?: string | null }) {
    const admin = useAdmin();
    const { reason, disabled } = guardedReason(admin, disabledReason);
    const buttonRef = useRef<HTMLButtonElement>(null);
    const reach = useTooltipReach();
    return (
        <>
            <Button {...props} ref={buttonRef} isAriaDisabled={disabled}
                onMouseEnter={event => { reach.show(); onMouseEnter?.(event); }}
                onMouseLeave={event => { reach.hide(); onMouseLeave?.(event); }}
                onFocus={event => { reach.show(); onFocus?.(event); }}
                onBlur={event => { reach.hide(); onBlur?.(event); }}
                onKeyDown={event => {
                    if (event.key === 'Escape') reach.hide();
                    onKeyDown?.(event);
                }}>
                {children}
            </Button>
            {reason && reach.reached &&
                <Tooltip triggerRef={buttonRef} trigger="manual" isVisible={reach.shown} content={
                    <span onMouseEnter={reach.show} onMouseLeave={reach.hide}>{reason}</span>
                } />}
        </>
    );
}
