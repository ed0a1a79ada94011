// SPDX-License-Identifier: LGPL-2.1-or-later
// When a lazily mounted tooltip shows (GuardedButton.tsx says why it is mounted late and shown by
// our own events rather than PatternFly's): shared by the disabled buttons and the overview's estimate.

import { useState } from 'react';

/**
 * Shown when the pointer (on the button or its tooltip) or the focus arrives; hidden when either
 * leaves, or on Escape (WCAG 1.4.13: dismissible without moving). The last event wins, as in
 * PatternFly's own triggers: a clicked button keeps its focus, and its tooltip still goes with the pointer.
 */
export function useTooltipReach() {
    const [shown, setShown] = useState(false);
    const [reached, setReached] = useState(false);
    const show = () => { setShown(true); setReached(true); };
    const hide = () => setShown(false);
    return { reached, shown, show, hide };
}
