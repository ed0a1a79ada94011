// SPDX-License-Identifier: LGPL-2.1-or-later
// The block-device tools' requests to the simulator (through the inbox of sim/mdadm/protocol.ts):
// each program parses its command line like the real tool, the simulator answers from its state.

import type { HostState } from '../model/types';
import type { ProgramOutcome } from '../program';
import { parseLedctlArgs, runLedctl, type LedctlRequest } from './ledctl';
import { parseLsblkArgs, runLsblk, type LsblkRequest } from './lsblk';
import { parseSfdiskArgs, runSfdisk, type SfdiskRequest } from './sfdisk';
import { parseWipefsArgs, runWipefs, type WipefsRequest } from './wipefs';

export const BLOCKDEV_TOOLS = ['lsblk', 'wipefs', 'sfdisk', 'ledctl'] as const;
export type BlockdevTool = typeof BLOCKDEV_TOOLS[number];

export interface BlockdevRequest {
    blockdev: LsblkRequest | WipefsRequest | SfdiskRequest | LedctlRequest;
}

export function isBlockdevRequest(data: unknown): data is BlockdevRequest {
    const request = (data as BlockdevRequest)?.blockdev;
    return typeof request === 'object' && request !== null && BLOCKDEV_TOOLS.includes(request.tool);
}

const PARSERS = { lsblk: parseLsblkArgs, wipefs: parseWipefsArgs, sfdisk: parseSfdiskArgs, ledctl: parseLedctlArgs };

export function parseBlockdevArgs(tool: BlockdevTool, argv: readonly string[]):
    { request: BlockdevRequest } | { refused: ProgramOutcome } {
    const parsed = PARSERS[tool](argv);
    return 'refused' in parsed ? parsed : { request: { blockdev: parsed.request } };
}

export function applyBlockdevRequest(state: HostState, { blockdev: request }: BlockdevRequest): ProgramOutcome {
    switch (request.tool) {
        case 'lsblk': return runLsblk(state, request);
        case 'wipefs': return runWipefs(state, request);
        case 'sfdisk': return runSfdisk(state, request);
        case 'ledctl': return runLedctl(state, request);
    }
}
