// SPDX-License-Identifier: LGPL-2.1-or-later
// Running the simulated lsblk, wipefs, sfdisk and mdadm against a test host that does not tick by
// itself: the request is written before the first wait, so serving (or ticking) once answers it.

import type { SimulatedHost } from '../../../sim';
import { runSimulatedBlockdev } from '../../../sim/blockdev/client';
import { runSimulatedMdadm } from '../../../sim/mdadm/client';
import type { ProgramOutcome } from '../../../sim/program';
import { LSBLK_COLUMNS } from '../../../src/md/replace/blockDevices';

const FAST = { pollMs: 1, timeoutMs: 2000 };

/** lsblk, wipefs or sfdisk (`stdin`: sfdisk's script); no simulated time passes. */
export function tool(host: SimulatedHost, name: string, argv: string[], stdin?: string): Promise<ProgramOutcome> {
    const answer = runSimulatedBlockdev(name, argv, host.root, { ...FAST, stdin });
    host.serveRequests();
    return answer;
}

/** The simulated mdadm; no simulated time passes either. */
export function mdadm(host: SimulatedHost, ...argv: string[]): Promise<ProgramOutcome> {
    const answer = runSimulatedMdadm(argv, host.root, FAST);
    host.serveRequests();
    return answer;
}

export const said = (...lines: string[]) => ({ exitCode: 0, stdout: '', stderr: lines.map(l => `mdadm: ${l}\n`).join('') });
export const refused = (...lines: string[]) => ({ exitCode: 1, stdout: '', stderr: lines.map(l => `mdadm: ${l}\n`).join('') });

/** What raidtune's Replace disk dialog runs (src/host/replaceReads.ts). */
export const LSBLK = ['--json', '--bytes', '--output', LSBLK_COLUMNS.join(',')];
