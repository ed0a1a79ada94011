// SPDX-License-Identifier: LGPL-2.1-or-later
// `lsblk --json [--bytes] [--output COLUMNS] [DEVICE...]` on the simulated host, as util-linux 2.38
// prints it on a host with udev: each disk with its partitions, each member with the md arrays that
// hold it (an array is listed under every member, not at the top), keys the columns' names in lower
// case, numbers and booleans as JSON types (checked against this machine's lsblk with loop devices).

import { arrayBlockBytes, isStarted } from '../model/array';
import { diskIdentity, type DiskIdentity } from '../model/identity';
import { arraySectors } from '../model/levels';
import type { Disk, HostState, MdArray, Partition } from '../model/types';
import { findDevice, holdersOf } from './devices';
import { humanSize } from './humanSize';
import { failed, notSimulated, ok } from './outcome';
import { jsonTable, type Cell, type JsonRow } from './scols';
import type { ProgramOutcome } from '../program';

export interface LsblkRequest {
    tool: 'lsblk';
    bytes: boolean;
    /** Upper case, as given. */
    columns: string[];
    devices: string[];
}

/** One row before its columns are picked. */
interface View {
    name: string;
    majMin: string;
    type: string;
    sizeBytes: number;
    rotational: boolean;
    blocks: { logical: number; physical: number };
    mountpoint: string | null;
    fstype: string | null;
    pttype: string | null;
    uuid: string | null;
    label: string | null;
    identity: DiskIdentity;
    children: View[];
}

const NO_IDENTITY: DiskIdentity = { serial: null, wwn: null, hctl: null, transport: null };

const COLUMNS: Record<string, (v: View, bytes: boolean) => Cell> = {
    NAME: v => v.name,
    KNAME: v => v.name,
    PATH: v => `/dev/${v.name}`,
    'MAJ:MIN': v => v.majMin,
    RM: () => false,
    SIZE: (v, bytes) => (bytes ? v.sizeBytes : humanSize(v.sizeBytes, { style: 'letter' })),
    RO: () => false,
    TYPE: v => v.type,
    MOUNTPOINT: v => v.mountpoint,
    MOUNTPOINTS: v => [v.mountpoint],
    FSTYPE: v => v.fstype,
    PTTYPE: v => v.pttype,
    UUID: v => v.uuid,
    LABEL: v => v.label,
    'LOG-SEC': v => v.blocks.logical,
    'PHY-SEC': v => v.blocks.physical,
    ROTA: v => v.rotational,
    SERIAL: v => v.identity.serial,
    WWN: v => v.identity.wwn,
    HCTL: v => v.identity.hctl,
    TRAN: v => v.identity.transport,
};

/** lsblk 2.38's default columns. */
const DEFAULT_COLUMNS = ['NAME', 'MAJ:MIN', 'RM', 'SIZE', 'RO', 'TYPE', 'MOUNTPOINTS'];

export function parseLsblkArgs(argv: readonly string[]): { request: LsblkRequest } | { refused: ProgramOutcome } {
    let json = false;
    let bytes = false;
    let columns = DEFAULT_COLUMNS;
    const devices: string[] = [];
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        if (arg === '--json' || arg === '-J') json = true;
        else if (arg === '--bytes' || arg === '-b') bytes = true;
        else if (arg === '--output' || arg === '-o') columns = (argv[++i] ?? '').split(',');
        else if (arg.startsWith('--output=')) columns = arg.slice('--output='.length).split(',');
        else if (/^-o./.test(arg)) columns = arg.slice(2).split(',');
        else if (arg.startsWith('-')) return notSimulated('lsblk', `option ${arg}`);
        else devices.push(arg);
    }
    if (!json) return notSimulated('lsblk', 'output other than --json');
    const unknown = columns.find(c => !(c.toUpperCase() in COLUMNS));
    if (unknown !== undefined) return { refused: failed(`lsblk: unknown column: ${unknown}\n`) };
    return { request: { tool: 'lsblk', bytes, columns: columns.map(c => c.toUpperCase()), devices } };
}

/** blkid's first find names the filesystem (an md superblock comes before a filesystem). */
function firstSignature(signatures: Disk['signatures']) {
    return signatures[0] ?? null;
}

function arrayView(array: MdArray): View {
    const started = isStarted(array);
    return {
        name: array.name, majMin: `9:${array.minor}`,
        // An array that is not running has no level: lsblk calls it "md".
        type: started ? array.level : 'md',
        sizeBytes: started ? arraySectors(array) * 512 : 0,
        rotational: array.queue.rotational, blocks: arrayBlockBytes(array),
        mountpoint: null, fstype: null, pttype: started && array.partitions.length ? 'gpt' : null, uuid: null, label: null,
        identity: NO_IDENTITY,
        children: started ? array.partitions.map((p, i) => ({
            ...arrayView(array), name: p.name, majMin: `259:${array.minor * 16 + i}`, type: 'part',
            sizeBytes: p.sizeSectors * 512, pttype: 'gpt', children: [],
        })) : [],
    };
}

function holderViews(state: HostState, name: string): View[] {
    return holdersOf(state, name).map(arrayView);
}

function partitionView(state: HostState, partition: Partition, disk: View): View {
    const signature = firstSignature(partition.signatures);
    return {
        ...disk, name: partition.name, majMin: `${partition.major}:${partition.minor}`, type: 'part',
        sizeBytes: partition.sizeSectors * 512, mountpoint: partition.mountpoint,
        fstype: signature?.type ?? null, uuid: signature?.uuid ?? null, label: signature?.label ?? null,
        // udev gives partitions their disk's serial and WWN; the SCSI address and transport are the disk's alone.
        identity: { ...disk.identity, hctl: null, transport: null },
        children: holderViews(state, partition.name),
    };
}

function diskView(state: HostState, disk: Disk, index: number): View {
    const signature = firstSignature(disk.signatures);
    const view: View = {
        name: disk.name, majMin: `${disk.major}:${disk.minor}`, type: 'disk', sizeBytes: disk.sizeSectors * 512,
        rotational: disk.queue.rotational,
        blocks: { logical: disk.logicalBlockBytes, physical: disk.physicalBlockBytes },
        mountpoint: disk.mountpoint, fstype: signature?.type ?? null, pttype: disk.table?.label ?? null,
        uuid: signature?.uuid ?? null, label: signature?.label ?? null,
        identity: diskIdentity(disk, index), children: [],
    };
    view.children = [...disk.partitions.map(p => partitionView(state, p, view)), ...holderViews(state, disk.name)];
    return view;
}

function row(view: View, request: LsblkRequest): JsonRow {
    return {
        fields: request.columns.map(c => [c.toLowerCase(), COLUMNS[c](view, request.bytes)]),
        children: view.children.map(child => row(child, request)),
    };
}

/** Every view and its descendants, depth first (a device named on the command line may be a partition). */
function allViews(views: View[]): View[] {
    return views.flatMap(v => [v, ...allViews(v.children)]);
}

export function runLsblk(state: HostState, request: LsblkRequest): ProgramOutcome {
    const disks = state.disks.map((disk, index) => diskView(state, disk, index));
    if (request.devices.length === 0) return ok(jsonTable('blockdevices', disks.map(v => row(v, request))));
    const views = allViews(disks);
    let stderr = '';
    const shown: View[] = [];
    for (const device of request.devices) {
        const name = findDevice(state, device)?.name;
        const view = views.find(v => v.name === name);
        if (view) shown.push(view);
        else stderr += `lsblk: ${device}: not a block device\n`;
    }
    const stdout = jsonTable('blockdevices', shown.map(v => row(v, request)));
    // lsblk(8): 32 when none of the devices was found, 64 when some were not.
    const exitCode = !stderr ? 0 : shown.length ? 64 : 32;
    return { exitCode, stdout, stderr };
}
