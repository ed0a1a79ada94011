// Where raidtune reads the kernel from. The manifest's `config` holds the defaults; Cockpit's
// standard <pkg>.override.json can point them at a simulated host. Nothing else knows about it.

import { cockpitApi } from './cockpit';

export interface HostConfig {
    procRoot: string;
    sysRoot: string;
    mdadm: string;
}

export const DEFAULT_CONFIG: HostConfig = { procRoot: '/proc', sysRoot: '/sys', mdadm: 'mdadm' };

function isAbsolutePath(value: unknown): value is string {
    return typeof value === 'string' && value.startsWith('/') && !value.split('/').includes('..');
}

export function readHostConfig(): { config: HostConfig; problems: string[] } {
    const raw = cockpitApi().manifests.raidtune?.config ?? {};
    const problems: string[] = [];
    const config = { ...DEFAULT_CONFIG };
    for (const key of ['procRoot', 'sysRoot'] as const) {
        if (raw[key] === undefined) continue;
        if (isAbsolutePath(raw[key])) config[key] = raw[key];
        else problems.push(`Ignoring configured ${key} ${JSON.stringify(raw[key])}: not an absolute path.`);
    }
    if (typeof raw.mdadm === 'string' && raw.mdadm.trim()) config.mdadm = raw.mdadm;
    return { config, problems };
}
