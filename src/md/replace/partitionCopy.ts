// SPDX-License-Identifier: LGPL-2.1-or-later
// Giving a blank disk the partition table of a working member's disk (issue #34): on the common
// RHEL/Fedora layout /boot, / and the data arrays are md arrays on partitions of the same disks, so a
// new disk needs the same partitions before each array can take its own.
//
// `sfdisk --dump` writes the table as a script that sfdisk reads back. What is copied: the label (gpt
// or dos), where partitions may start, and each partition's start, size, type, name and flags. What
// is not: the disk's identifier and each GPT partition's UUID (sfdisk makes new ones: two disks or
// partitions with one GUID confuse udev's by-partuuid links and the firmware), the source's device
// name, and its last usable sector (the new disk's own end decides it, so a larger disk works).

/** One line of the dump's header ("label: gpt"), as key and value. */
export interface DumpHeader {
    key: string;
    value: string;
}

export interface DumpedPartition {
    /** The number the kernel gives it (sda3: 3). */
    number: number;
    /** start=..., size=..., type=... and the rest, as sfdisk wrote them, uuid= left out. */
    fields: string[];
}

export interface PartitionTable {
    label: string | null;
    headers: DumpHeader[];
    partitions: DumpedPartition[];
}

/** The header lines sfdisk writes and reads (util-linux 2.32 to 2.40). */
const DUMP_HEADERS = new Set(['label', 'label-id', 'device', 'unit', 'first-lba', 'last-lba', 'table-length', 'grain', 'sector-size']);

/** Header keys that belong to the source disk alone. */
const SOURCE_ONLY_HEADERS = new Set(['label-id', 'device', 'last-lba']);

/** "sda3" -> 3; "nvme0n1p2" -> 2. */
function partitionNumber(name: string): number | null {
    const match = name.match(/(\d+)$/);
    return match ? Number(match[1]) : null;
}

/** Splits "start=2048, size=4096, type=..., name=\"a, b\"" on the commas outside quotes. */
function splitFields(text: string): string[] {
    const fields: string[] = [];
    let current = '';
    let quoted = false;
    for (const char of text) {
        if (char === '"') quoted = !quoted;
        if (char === ',' && !quoted) {
            fields.push(current.trim());
            current = '';
        } else {
            current += char;
        }
    }
    if (current.trim() !== '') fields.push(current.trim());
    return fields;
}

/** The table `sfdisk --dump DISK` printed; throws on text that is not such a dump. */
export function parseSfdiskDump(text: string): PartitionTable {
    const headers: DumpHeader[] = [];
    const partitions: DumpedPartition[] = [];
    for (const line of text.split('\n').map(l => l.trim()).filter(l => l !== '')) {
        const partition = line.match(/^(\S+)\s*:\s*(start=.*)$/);
        if (partition) {
            const number = partitionNumber(partition[1]);
            if (number === null) throw new Error(`sfdisk's dump names a partition without a number: ${partition[1]}`);
            partitions.push({ number, fields: splitFields(partition[2]).filter(f => !/^uuid=/i.test(f)) });
            continue;
        }
        const header = line.match(/^([a-z-]+):\s*(.*)$/);
        if (!header || !DUMP_HEADERS.has(header[1])) throw new Error(`not a line of sfdisk's dump: ${line}`);
        headers.push({ key: header[1], value: header[2] });
    }
    const label = headers.find(h => h.key === 'label')?.value ?? null;
    if (label === null) throw new Error('sfdisk\'s dump has no "label:" line');
    return { label, headers, partitions };
}

/** The script sfdisk gets for the new disk: the source's layout without what is the source's own. */
export function replicaScript(table: PartitionTable): string {
    const headers = table.headers.filter(h => !SOURCE_ONLY_HEADERS.has(h.key)).map(h => `${h.key}: ${h.value}`);
    const partitions = table.partitions.map(p => p.fields.join(', '));
    return `${[...headers, '', ...partitions].join('\n')}\n`;
}

/** The kernel's name for partition `number` of `disk`: sdd3, but nvme0n1p3 where the disk's name ends in a digit. */
export function partitionName(disk: string, number: number): string {
    return /\d$/.test(disk) ? `${disk}p${number}` : `${disk}${number}`;
}

/** The partition's number on its disk, from both names (sda3 on sda: 3); null when it is not one of its. */
export function partitionNumberOn(disk: string, partition: string): number | null {
    if (!partition.startsWith(disk) || partition === disk) return null;
    const rest = partition.slice(disk.length);
    const match = rest.match(/^p?(\d+)$/);
    return match && partitionName(disk, Number(match[1])) === partition ? Number(match[1]) : null;
}
