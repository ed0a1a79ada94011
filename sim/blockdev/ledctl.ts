// SPDX-License-Identifier: LGPL-2.1-or-later
// `ledctl locate=/dev/X` and `ledctl locate_off=/dev/X` (ledmon's ledctl) on the simulated host:
// the locate LED of the enclosure slot the disk sits in, which the ses attribute then reads back
// (/sys/class/enclosure/ENCLOSURE/COMPONENT/locate). Devices as ledctl takes them: one, or a list
// separated by commas. Success prints nothing. The refusals' words were not checked on a real
// ledctl (no enclosure on this machine).

import type { HostState } from '../model/types';
import type { ProgramOutcome } from '../program';
import { findDevice } from './devices';
import { failed, notSimulated, ok } from './outcome';

export interface LedctlRequest {
    tool: 'ledctl';
    on: boolean;
    devices: string[];
}

const PATTERNS: Record<string, boolean> = { locate: true, locate_off: false };

export function parseLedctlArgs(argv: readonly string[]): { request: LedctlRequest } | { refused: ProgramOutcome } {
    const match = argv.length === 1 ? /^([a-z_]+)=(.+)$/.exec(argv[0]) : null;
    if (!match) return notSimulated('ledctl', `"${argv.join(' ')}" (only PATTERN=/dev/X[,/dev/Y])`);
    if (!(match[1] in PATTERNS)) return notSimulated('ledctl', `the pattern ${match[1]} (only locate, locate_off)`);
    return { request: { tool: 'ledctl', on: PATTERNS[match[1]], devices: match[2].split(',') } };
}

export function runLedctl(state: HostState, request: LedctlRequest): ProgramOutcome {
    const slots = [];
    for (const path of request.devices) {
        const device = findDevice(state, path);
        if (!device) return failed(`ledctl: ${path}: device not found\n`);
        const slot = device.partition ? null : device.disk.enclosureSlot;
        if (!slot) return failed(`ledctl: ${path}: device not supported\n`);
        slots.push(slot);
    }
    for (const slot of slots) slot.locate = request.on;
    return ok('');
}
