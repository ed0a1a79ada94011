// SPDX-License-Identifier: LGPL-2.1-or-later
import { useEffect, useState } from 'react';
import { watchAdminAccess } from '../../host/permission';

/** true / false once Cockpit knows; null while it does not yet. */
export function useAdminAccess(): boolean | null {
    const [allowed, setAllowed] = useState<boolean | null>(null);
    useEffect(() => watchAdminAccess(setAllowed), []);
    return allowed;
}
