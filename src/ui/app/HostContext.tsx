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
