// What any component that changes something needs: where the host's files are, whether the user
// may write, the current model (for plans' "from" values and the journal), and a way to refresh.

import { createContext, useContext } from 'react';
import type { HostConfig } from '../../host/config';
import type { HostModel } from '../../md/model';

export interface HostContextValue {
    config: HostConfig;
    admin: boolean | null;
    model: HostModel;
    refreshNow: () => void;
}

export const HostContext = createContext<HostContextValue | null>(null);

export function useHost(): HostContextValue {
    const value = useContext(HostContext);
    if (!value) throw new Error('useHost() outside <HostContext>');
    return value;
}

/**
 * Whether the user may write (null: not known yet), apart from HostContext: the buttons that only
 * need this must not re-render at every refresh (a new model), or the array cards' memo is moot.
 */
export const AdminContext = createContext<boolean | null>(null);

export function useAdmin(): boolean | null {
    return useContext(AdminContext);
}
