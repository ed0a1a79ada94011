// SPDX-License-Identifier: LGPL-2.1-or-later
// The host's real cockpit-ws whose local session is the cockpit-bridge INSIDE the test guest:
//
//   chromium --ws--> cockpit-ws --local-session=<run>/local-session.sh --stdio--> socat
//     --> <run>/bridge.sock (QEMU chardev) --> virtio-serial "bridge" --> guest cockpit-bridge
//
// Everything the page reads or spawns (cockpit.js, manifests, the plugin from the 9p share,
// /proc, /sys, mdadm) comes from the guest. ws itself only serves /cockpit/static/ from the host.
// The manifest override (`config`) is a file the GUEST's bridge reads: guest-init points the
// bridge's XDG_CONFIG_HOME at <run>/share/config (the 9p share "host"), written here before the
// session starts (the bridge reads packages once, when it starts).
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startCockpit, type Cockpit, type RaidtuneConfig } from '../cockpit/ws';
import { recordRunChild, shellQuote, type GuestInfo } from './vm';

export interface GuestCockpitOptions {
    address?: string;
    /** Default: a free port. */
    port?: number;
    /** Package name (URL path segment); the guest serves the plugin as "raidtune". */
    pluginName?: string;
    /**
     * The plugin's manifest `config` override for the guest bridge, e.g. `{ stateDir: '/run/x' }`:
     * paths are the GUEST's. Omitted: no override (the manifest's defaults, in the guest).
     */
    config?: RaidtuneConfig;
    /** For cockpit-ws to answer, and for the guest bridge to send its init (default 60 s: TCG). */
    timeoutMs?: number;
}

export type GuestCockpit = Pick<Cockpit, 'pid' | 'port' | 'origin' | 'url' | 'barePageUrl' | 'startMs' | 'logs' | 'lost' |
    'sessionAlive' | 'stop'>;

/** Where the guest bridge's manifest overrides live on the host (see guest-init: XDG_CONFIG_HOME). */
export function guestOverrideDir(runDir: string): string {
    return join(runDir, 'share', 'config', 'cockpit');
}

export async function startGuestCockpit(guest: Pick<GuestInfo, 'bridgeSocket'> & Partial<Pick<GuestInfo, 'runDir'>>,
    options: GuestCockpitOptions = {}): Promise<GuestCockpit> {
    const runDir = guest.runDir ?? dirname(guest.bridgeSocket);
    const pluginName = options.pluginName ?? 'raidtune';
    // --local-session takes a program; ws gives it the session on stdin/stdout.
    const script = join(runDir, 'local-session.sh');
    writeFileSync(script, `#!/bin/sh\nexec socat STDIO UNIX-CONNECT:${shellQuote(guest.bridgeSocket)}\n`);
    chmodSync(script, 0o755);
    const override = join(guestOverrideDir(runDir), `${pluginName}.override.json`);
    rmSync(override, { force: true });
    if (options.config) {
        mkdirSync(dirname(override), { recursive: true });
        writeFileSync(override, JSON.stringify({ config: options.config }, null, 2) + '\n');
    }
    // The first websocket (startCockpit's keep-alive) starts the local session: socat connects, the
    // guest sees the host connected and starts cockpit-bridge, whose init completes the keep-alive.
    return startCockpit({
        localSession: script,
        pluginName,
        address: options.address,
        port: options.port,
        timeoutMs: options.timeoutMs ?? 60000,
        onSpawn: pid => recordRunChild(runDir, pid, script),
    });
}
