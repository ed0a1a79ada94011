// SPDX-License-Identifier: LGPL-2.1-or-later
// `sfdisk --dump DISK` and `sfdisk DISK < script` on the simulated host, in util-linux 2.38.1's
// words and layout (checked on this machine with loop devices of 64 MiB and 2 TB): the dump sfdisk
// reads back, and the write's report (the disk, each partition made, the new situation), or its
// refusals (the disk in use, a partition past the last usable sector). A write replaces the table:
// the kernel then lists the new partitions (sysfs, /proc/diskstats); a partition made where an old
// one was finds what the old one left (an md superblock), as on a real disk.

import { newIoStats } from '../model/build';
import { partitionName } from '../model/devices';
import type { Disk, HostState, Partition, PartitionTable } from '../model/types';
import type { ProgramOutcome } from '../program';
import { busyReason, findDevice, leftoversOf } from './devices';
import { humanSize } from './humanSize';
import { failed, notSimulated, ok } from './outcome';
import { textTable, type Column } from './scols';
import { header, parseScript, type Script } from './sfdiskScript';
import { grainBlocks, logicalBlocks, newPartitionUuid, newTable, partitionType, partitionTypeName } from './table';

export interface SfdiskRequest {
    tool: 'sfdisk';
    mode: 'dump' | 'write';
    device: string;
    /** The script read from stdin (write). */
    script?: string;
}

export function parseSfdiskArgs(argv: readonly string[]): { request: SfdiskRequest } | { refused: ProgramOutcome } {
    let dump = false;
    const devices: string[] = [];
    for (const arg of argv) {
        if (arg === '--dump' || arg === '-d') dump = true;
        else if (arg.startsWith('-')) return notSimulated('sfdisk', `option ${arg}`);
        else devices.push(arg);
    }
    if (devices.length !== 1) return notSimulated('sfdisk', `${devices.length} devices (one disk only)`);
    return { request: { tool: 'sfdisk', mode: dump ? 'dump' : 'write', device: devices[0] } };
}

/** Partition geometry in the disk's logical blocks (the state keeps 512-byte sectors, as sysfs). */
function blocks(disk: Disk, sectors: number): number {
    return sectors * 512 / disk.logicalBlockBytes;
}

const pad12 = (n: number) => String(n).padStart(12);

function dump(disk: Disk, table: PartitionTable): string {
    const lines = [`label: ${table.label}`, `label-id: ${table.id}`, `device: /dev/${disk.name}`, 'unit: sectors'];
    if (table.label === 'gpt') lines.push(`first-lba: ${table.firstLba}`, `last-lba: ${table.lastLba}`);
    lines.push(`sector-size: ${disk.logicalBlockBytes}`, '');
    for (const p of disk.partitions) {
        const fields = [`start=${pad12(blocks(disk, p.startSector))}`, `size=${pad12(blocks(disk, p.sizeSectors))}`, `type=${p.typeId}`];
        if (p.uuid) fields.push(`uuid=${p.uuid}`);
        lines.push(`/dev/${p.name} : ${fields.join(', ')}`);
    }
    return `${lines.join('\n')}\n`;
}

function dumpTable(state: HostState, path: string): ProgramOutcome {
    const device = findDevice(state, path);
    if (!device) return failed(`sfdisk: cannot open ${path}: No such file or directory\n`);
    const table = device.partition ? null : device.disk.table;
    if (!table) return failed(`sfdisk: ${path}: does not contain a recognized partition table\n`);
    return ok(dump(device.disk, table));
}

/** fdisk's description of the disk, printed before anything is changed. */
function diskSummary(disk: Disk): string {
    const bytes = disk.sizeSectors * 512;
    const io = disk.physicalBlockBytes;
    return [
        `Disk /dev/${disk.name}: ${humanSize(bytes, { style: 'iec', twoDecimals: true })}, ${bytes} bytes, ${logicalBlocks(disk)} sectors`,
        `Units: sectors of 1 * ${disk.logicalBlockBytes} = ${disk.logicalBlockBytes} bytes`,
        `Sector size (logical/physical): ${disk.logicalBlockBytes} bytes / ${disk.physicalBlockBytes} bytes`,
        `I/O size (minimum/optimal): ${io} bytes / ${io} bytes`,
        '', '',
    ].join('\n');
}

interface NewPartition {
    number: number;
    /** Logical blocks. */
    start: number;
    size: number;
    typeId: string;
    uuid: string | null;
}

/** "Disklabel type: gpt", the identifier, then the partitions as fdisk lists them. */
function situation(disk: Disk, table: PartitionTable, partitions: NewPartition[]): string {
    const dos = table.label === 'dos';
    const columns: Column[] = [{ header: 'Device' }, ...(dos ? [{ header: 'Boot' }] : []),
        ...['Start', 'End', 'Sectors', 'Size'].map(h => ({ header: h, right: true, hint: 5 })),
        ...(dos ? [{ header: 'Id', right: true }] : []), { header: 'Type' }];
    const rows = partitions.map(p => [`/dev/${partitionName(disk.name, p.number)}`, ...(dos ? [''] : []),
        String(p.start), String(p.start + p.size - 1), String(p.size),
        humanSize(p.size * disk.logicalBlockBytes, { style: 'letter' }), ...(dos ? [p.typeId] : []), partitionTypeName(table.label, p.typeId)]);
    return `Disklabel type: ${table.label}\nDisk identifier: ${table.id}\n\n${textTable(columns, rows)}`;
}

function currentPartitions(disk: Disk): NewPartition[] {
    return disk.partitions.map(p => ({
        number: p.number, start: blocks(disk, p.startSector), size: blocks(disk, p.sizeSectors),
        typeId: p.typeId, uuid: p.uuid,
    }));
}

/** Lay out the script's partitions on the disk: the made-up parts, or sfdisk's refusal. */
function layOut(disk: Disk, script: Script, table: PartitionTable, seed: string):
    { partitions: NewPartition[]; report: string } | { failure: string; report: string } {
    // A script written for another sector size: sfdisk recalculates its sectors for the device's.
    const scale = Number(header(script, 'sector-size') ?? disk.logicalBlockBytes) / disk.logicalBlockBytes;
    const toBlocks = (value: number, bytes: boolean) => (bytes ? value / disk.logicalBlockBytes : value * scale);
    const grain = grainBlocks(disk);
    const partitions: NewPartition[] = [];
    let report = '';
    let next = table.firstLba;
    for (const [index, p] of script.partitions.entries()) {
        const number = index + 1;
        const path = `/dev/${partitionName(disk.name, number)}`;
        const start = p.start === null ? Math.ceil(next / grain) * grain : toBlocks(p.start, p.startBytes);
        // The rest of the disk ends on the grain too (sfdisk 2.38: 3907028991 on a 2 TB disk, not 3907029134).
        const size = p.size === null ? Math.floor((table.lastLba + 1) / grain) * grain - start
            : toBlocks(p.size, p.sizeBytes);
        const end = start + size - 1;
        const typeId = partitionType(table.label, p.type);
        if (end > table.lastLba) {
            const words = table.label === 'gpt' ? `The last usable GPT sector is ${table.lastLba}, but ${end} is requested.\n` : `Value out of range.\n`;
            return { failure: `${words}Failed to add #${number} partition: Invalid argument\n`, report: `${report}${path}: Leaving.\n\n` };
        }
        const misplaced = start < table.firstLba || start < next || size <= 0;
        if (misplaced || !Number.isInteger(start) || !Number.isInteger(size)) {
            return { failure: `Sector ${start} already used.\nFailed to add #${number} partition: Numerical result out of range\n`, report: `${report}${path}: Leaving.\n\n` };
        }
        if (typeId === null) return { failure: `sfdisk: ${path}: unknown partition type ${p.type}\n`, report };
        partitions.push({ number, start, size, typeId, uuid: table.label === 'gpt' ? (p.uuid?.toUpperCase() ?? newPartitionUuid(disk, number, seed)) : null });
        report += `${path}: Created a new partition ${number} of type '${partitionTypeName(table.label, typeId)}' and of size ` +
            `${humanSize(size * disk.logicalBlockBytes, { style: 'iec' })}.\n`;
        next = start + size;
    }
    return { partitions, report: `${report}/dev/${partitionName(disk.name, partitions.length + 1)}: Done.\n\n` };
}

/** The device numbers the kernel gives a new partition: the disk's own minors up to 15, then the extended major. */
function partitionNumbers(state: HostState, disk: Disk, number: number): { major: number; minor: number } {
    if (disk.kind !== 'nvme' && number < 16) return { major: disk.major, minor: disk.minor + number };
    const ext = state.disks.flatMap(d => [d, ...d.partitions]).filter(d => d.major === 259).map(d => d.minor);
    return { major: 259, minor: Math.max(-1, ...ext) + 1 };
}

/** The kernel re-reads the table: the old partitions go (what they held stays on the disk), the new ones come. */
function applyTable(state: HostState, disk: Disk, table: PartitionTable, partitions: NewPartition[]): void {
    disk.leftovers.push(...leftoversOf(disk));
    disk.partitions = [];
    // The new GPT's entries cover what sat in the disk's first 16 KiB: an md 1.2 superblock, ext4's, swap's.
    disk.signatures = [];
    disk.table = table;
    for (const p of partitions) {
        const startSector = p.start * disk.logicalBlockBytes / 512;
        const leftover = disk.leftovers.findIndex(l => l.startSector === startSector);
        const signatures = leftover < 0 ? [] : disk.leftovers.splice(leftover, 1)[0].signatures;
        const partition: Partition = {
            name: partitionName(disk.name, p.number), number: p.number, ...partitionNumbers(state, disk, p.number),
            startSector, sizeSectors: p.size * disk.logicalBlockBytes / 512, disk, stats: newIoStats(),
            typeId: p.typeId, uuid: p.uuid, signatures, mountpoint: null,
        };
        disk.partitions.push(partition);
    }
}

const IN_USE = 'This disk is currently in use - repartitioning is probably a bad idea.\n' +
    'Umount all file systems, and swapoff all swap partitions on this disk.\n' +
    'Use the --no-reread flag to suppress this check.\n\nsfdisk: Use the --force flag to overrule all checks.\n';

function writeTable(state: HostState, path: string, text: string): ProgramOutcome {
    const device = findDevice(state, path);
    if (!device) return failed(`sfdisk: cannot open ${path}: No such file or directory\n`);
    if (device.partition) return notSimulated('sfdisk', 'a partition table on a partition').refused;
    const disk = device.disk;
    let stdout = 'Checking that no-one is using this disk right now ... ';
    if (busyReason(state, device)) return failed(IN_USE, `${stdout}FAILED\n\n`);
    stdout += `OK\n\n${diskSummary(disk)}`;
    if (disk.table) stdout += `Old situation:\n\n${situation(disk, disk.table, currentPartitions(disk))}\n`;
    const script = parseScript(text);
    if (typeof script === 'string') return failed(`sfdisk (simulated): ${script}\n`, stdout);
    stdout += '>>> Script header accepted.\n'.repeat(script.headers.length);
    const label = header(script, 'label') ?? 'dos';
    if (label !== 'gpt' && label !== 'dos') return notSimulated('sfdisk', `label ${label}`).refused;
    if (Number(header(script, 'sector-size') ?? disk.logicalBlockBytes) !== disk.logicalBlockBytes)
        stdout += 'The script and device sector size differ; the sizes will be recalculated to match the device.\n';
    // Each write makes new identifiers, unless the script gives them (a dump applied as it is).
    const seed = `sfdisk-${state.time}-${disk.partitions.length}-${disk.leftovers.length}`;
    const table = newTable(disk, label, seed, header(script, 'label-id')?.toUpperCase().replace(/^0X/, '0x'));
    const firstLba = header(script, 'first-lba');
    if (firstLba !== undefined) table.firstLba = Math.max(Number(firstLba) * Number(header(script, 'sector-size') ?? disk.logicalBlockBytes) / disk.logicalBlockBytes, 2);
    stdout += label === 'gpt' ? `>>> Created a new GPT disklabel (GUID: ${table.id}).\n`
        : `>>> Created a new DOS disklabel with disk identifier ${table.id}.\n`;
    const laidOut = layOut(disk, script, table, seed);
    stdout += laidOut.report;
    if ('failure' in laidOut) return failed(laidOut.failure, stdout);
    applyTable(state, disk, table, laidOut.partitions);
    stdout += `New situation:\n${situation(disk, table, laidOut.partitions)}\n` +
        'The partition table has been altered.\nCalling ioctl() to re-read partition table.\nSyncing disks.\n';
    return ok(stdout);
}

export function runSfdisk(state: HostState, request: SfdiskRequest): ProgramOutcome {
    return request.mode === 'dump' ? dumpTable(state, request.device) : writeTable(state, request.device, request.script ?? '');
}
