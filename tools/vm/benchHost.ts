// SPDX-License-Identifier: LGPL-2.1-or-later
// What the benchmarks on the real kernel (benchRebuild.ts, benchEta.ts) do as the page does:
// read the guest with raidtune's gather script into a HostModel, write an attribute with tee and
// read it back.
import { GATHER_SCRIPT } from '../../src/host/gatherScript';
import { buildModel } from '../../src/md/model';
import type { HostModel } from '../../src/md/modelTypes';
import { readBackMatches } from '../../src/md/readBack';
import { parseGatherOutput } from '../../src/md/snapshot';
import { shellQuote, type GuestControl } from './vm';

const STATE_DIR = '/run/raidtune-state';

/** raidtune's view of the guest, keeping the samples of `previous` (the page's refresh). */
export async function readModel(guest: GuestControl, previous: HostModel | null): Promise<HostModel> {
    const argv = ['/usr/bin/sh', '-c', GATHER_SCRIPT, 'raidtune-gather', '/proc', '/sys', 'pagesize', STATE_DIR,
        '/etc/sysctl.d', '/etc/udev/rules.d'];
    const out = await guest.runOk(`LC_ALL=C ${argv.map(shellQuote).join(' ')}`);
    return buildModel(parseGatherOutput(out), performance.now(), previous);
}

/** Writes one attribute as the product does (tee, then read back). */
export async function writeAttribute(guest: GuestControl, path: string, value: string): Promise<void> {
    if (!/^[\w/.-]+$/.test(path) || !/^(\d+|system)$/.test(value)) throw new Error(`refusing to write ${value} to ${path}`);
    const readBack = await guest.runOk(`printf '%s\\n' ${shellQuote(value)} | /usr/bin/tee ${shellQuote(path)} >/dev/null && cat ${shellQuote(path)}`);
    if (!readBackMatches(path, value, readBack)) throw new Error(`${path}: wrote ${value}, reads ${readBack.trim()}`);
}
