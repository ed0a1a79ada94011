// SPDX-License-Identifier: LGPL-2.1-or-later
// `wipefs --no-act [--json] DEVICE...` and `wipefs --all DEVICE...` on the simulated host, in
// util-linux 2.38.1's words (checked on this machine with loop devices and files): the signatures
// each device holds, or their erasure with the bytes erased. An erasure opens the device
// exclusively: a member of an array or a mounted device (a disk with such a partition) is busy.
// Erasing a disk's partition table makes the kernel drop its partitions; what was on them stays on
// the platter and shows again under a partition made at the same place (sfdisk.ts).

import type { HostState, Signature } from '../model/types';
import type { ProgramOutcome } from '../program';
import { busyReason, deviceSignatures, findDevice, leftoversOf, type HostDevice } from './devices';
import { failed, notSimulated, ok } from './outcome';
import { jsonTable, textTable } from './scols';
import { magicBytes } from './signatures';

export interface WipefsRequest {
    tool: 'wipefs';
    /** list: --no-act (print what is there); erase: --all. */
    mode: 'list' | 'erase';
    json: boolean;
    devices: string[];
}

export function parseWipefsArgs(argv: readonly string[]): { request: WipefsRequest } | { refused: ProgramOutcome } {
    let all = false;
    let noAct = false;
    let json = false;
    const devices: string[] = [];
    for (const arg of argv) {
        if (arg === '--all' || arg === '-a') all = true;
        else if (arg === '--no-act' || arg === '-n') noAct = true;
        else if (arg === '--json' || arg === '-J') json = true;
        else if (/^-[anJ]{2,}$/.test(arg)) {
            all ||= arg.includes('a');
            noAct ||= arg.includes('n');
            json ||= arg.includes('J');
        } else if (arg.startsWith('-')) return notSimulated('wipefs', `option ${arg}`);
        else devices.push(arg);
    }
    if (devices.length === 0) return { refused: failed('wipefs: no device specified\nTry \'wipefs --help\' for more information.\n') };
    if (all && noAct) return notSimulated('wipefs', '--all with --no-act');
    if (all && json) return notSimulated('wipefs', '--all with --json');
    // Without --all wipefs only prints, with or without --no-act.
    return { request: { tool: 'wipefs', mode: all ? 'erase' : 'list', json, devices } };
}

const hex = (offset: number) => `0x${offset.toString(16)}`;

/** libblkid's probe of a path that is not there. */
function probeFailed(device: string, reason: string): ProgramOutcome {
    return failed(`wipefs: error: ${device}: probing initialization failed: ${reason}\n`);
}

function listSignatures(state: HostState, request: WipefsRequest): ProgramOutcome {
    const found: { device: HostDevice; signature: Signature }[] = [];
    for (const path of request.devices) {
        const device = findDevice(state, path);
        // The table is printed at the end: a device that cannot be opened leaves none at all.
        if (!device) return probeFailed(path, 'No such file or directory');
        for (const signature of deviceSignatures(device)) found.push({ device, signature });
    }
    if (request.json) {
        return ok(jsonTable('signatures', found.map(({ device, signature: s }) => ({
            fields: [['device', device.name], ['offset', hex(s.offset)], ['type', s.type], ['uuid', s.uuid], ['label', s.label]],
        }))));
    }
    if (found.length === 0) return ok('');
    const columns = ['DEVICE', 'OFFSET', 'TYPE', 'UUID', 'LABEL'].map(header => ({ header }));
    return ok(textTable(columns, found.map(({ device, signature: s }) => [device.name, hex(s.offset), s.type, s.uuid ?? '', s.label ?? ''])));
}

/** "/dev/sdh: 2 bytes were erased at offset 0x00000438 (ext4): 53 ef" */
function erasedLine(path: string, signature: Signature): string {
    const bytes = magicBytes(signature.type);
    const count = bytes.split(' ').length;
    return `${path}: ${count} byte${count === 1 ? '' : 's'} were erased at offset 0x${signature.offset.toString(16).padStart(8, '0')} ` +
        `(${signature.type}): ${bytes}\n`;
}

/** The device holds nothing any more; a disk's partitions go with its table, their contents stay where they were. */
function erase(device: HostDevice): void {
    if (device.partition) {
        device.partition.signatures = [];
        return;
    }
    const disk = device.disk;
    disk.signatures = [];
    if (!disk.table) return;
    disk.leftovers.push(...leftoversOf(disk));
    disk.partitions = [];
    disk.table = null;
}

function eraseSignatures(state: HostState, request: WipefsRequest): ProgramOutcome {
    let stdout = '';
    for (const path of request.devices) {
        const device = findDevice(state, path);
        if (!device) return probeFailed(path, 'No such file or directory');
        if (busyReason(state, device)) return failed(`wipefs: error: ${path}: probing initialization failed: Device or resource busy\n`, stdout);
        const signatures = deviceSignatures(device);
        for (const signature of signatures) stdout += erasedLine(path, signature);
        const hadTable = !device.partition && device.disk.table !== null;
        erase(device);
        if (hadTable) stdout += `${path}: calling ioctl to re-read partition table: Success\n`;
    }
    return ok(stdout);
}

export function runWipefs(state: HostState, request: WipefsRequest): ProgramOutcome {
    return request.mode === 'list' ? listSignatures(state, request) : eraseSignatures(state, request);
}
