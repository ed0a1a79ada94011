// SPDX-License-Identifier: LGPL-2.1-or-later
// Whether the user may change things (Cockpit's administrative access). The page stays useful
// read-only without it. Cockpit reloads a page that created a permission when superuser changes.

import { cockpitApi } from './cockpit';

export function watchAdminAccess(listener: (allowed: boolean | null) => void): () => void {
    if (!window.cockpit) {
        listener(null);
        return () => undefined;
    }
    const permission = cockpitApi().permission({ admin: true });
    const changed = () => listener(permission.allowed);
    permission.addEventListener('changed', changed);
    changed();
    return () => {
        permission.removeEventListener('changed', changed);
        permission.close();
    };
}
