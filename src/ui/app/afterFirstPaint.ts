// SPDX-License-Identifier: LGPL-2.1-or-later
// Work the first view does not need, held until it is on screen: started with it, the monitor's
// read, the host settings and the dialogs' code took the main thread and the bridge from it.

import { useEffect, useState } from 'react';

/**
 * A page loading where the browser does not draw it (another page of Cockpit's shell in front)
 * gets no animation frame: it goes on after this long.
 */
const UNDRAWN_PAGE_MS = 250;

/** True from the first frame after `shown` became true (the first view painted), and from then on. */
export function useAfterFirstPaint(shown: boolean): boolean {
    const [painted, setPainted] = useState(false);
    useEffect(() => {
        if (!shown || painted) return;
        // The frame's callback runs before its paint; the task after it, once it is painted.
        let afterPaint: ReturnType<typeof setTimeout> | undefined;
        const frame = requestAnimationFrame(() => { afterPaint = setTimeout(() => setPainted(true), 0); });
        const undrawn = setTimeout(() => setPainted(true), UNDRAWN_PAGE_MS);
        return () => {
            cancelAnimationFrame(frame);
            clearTimeout(afterPaint);
            clearTimeout(undrawn);
        };
    }, [shown, painted]);
    return painted;
}
