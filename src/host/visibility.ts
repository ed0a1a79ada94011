// SPDX-License-Identifier: LGPL-2.1-or-later
// Whether the page is on screen. Inside the shell, Cockpit hides frames of other pages without
// the browser knowing; on the bare page the document's own visibility applies.

import { cockpitApi } from './cockpit';

export function isPageHidden(): boolean {
    return document.visibilityState === 'hidden' || (window.cockpit ? cockpitApi().hidden : false);
}

export function onVisibilityChange(listener: () => void): () => void {
    document.addEventListener('visibilitychange', listener);
    window.cockpit?.addEventListener('visibilitychange', listener);
    return () => {
        document.removeEventListener('visibilitychange', listener);
        window.cockpit?.removeEventListener('visibilitychange', listener);
    };
}
