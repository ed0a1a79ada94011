// SPDX-License-Identifier: LGPL-2.1-or-later
// Partition tables as sfdisk (util-linux 2.38) makes them: a GPT's usable blocks, its 1 MiB
// alignment, the partition types sfdisk names, and the identifiers it makes up.

import { uuidFromText } from '../random';
import type { Disk, PartitionTable } from '../model/types';

export const LINUX_RAID_GUID = 'A19D880F-05FC-4D3B-A006-743F0F84911E';

/** The GPT types sfdisk's summary names, and the shortcuts its scripts accept (sfdisk(8): L, S, R...). */
const GPT_TYPES: { guid: string; name: string; alias?: string }[] = [
    { guid: '0FC63DAF-8483-4772-8E79-3D69D8477DE4', name: 'Linux filesystem', alias: 'L' },
    { guid: '0657FD6D-A4AB-43C4-84E5-0933C84B4F4F', name: 'Linux swap', alias: 'S' },
    { guid: 'C12A7328-F81F-11D2-BA4B-00A0C93EC93B', name: 'EFI System', alias: 'U' },
    { guid: LINUX_RAID_GUID, name: 'Linux RAID', alias: 'R' },
    { guid: 'E6D6D379-F507-44C2-A23C-238F2A3DF928', name: 'Linux LVM', alias: 'V' },
    { guid: '21686148-6449-6E6F-744E-656564454649', name: 'BIOS boot' },
];

const DOS_TYPES: { code: string; name: string; alias?: string }[] = [
    { code: '83', name: 'Linux', alias: 'L' },
    { code: '82', name: 'Linux swap / Solaris', alias: 'S' },
    { code: 'ef', name: 'EFI (FAT-12/16/32)', alias: 'U' },
    { code: 'fd', name: 'Linux raid autodetect', alias: 'R' },
    { code: '8e', name: 'Linux LVM', alias: 'V' },
];

/** A script's type= (a GUID, a dos code, or a shortcut) as the table stores it; null when sfdisk would not know it. */
export function partitionType(label: PartitionTable['label'], text: string | undefined): string | null {
    if (label === 'gpt') {
        if (text === undefined) return GPT_TYPES[0].guid;
        const upper = text.toUpperCase();
        const known = GPT_TYPES.find(t => t.alias === upper || t.guid === upper);
        return known?.guid ?? (/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/.test(upper) ? upper : null);
    }
    if (text === undefined) return DOS_TYPES[0].code;
    const lower = text.toLowerCase().replace(/^0x/, '');
    const known = DOS_TYPES.find(t => t.alias === text.toUpperCase() || t.code === lower);
    return known?.code ?? (/^[0-9a-f]{1,2}$/.test(lower) ? lower : null);
}

export function partitionTypeName(label: PartitionTable['label'], type: string): string {
    const name = label === 'gpt' ? GPT_TYPES.find(t => t.guid === type)?.name : DOS_TYPES.find(t => t.code === type)?.name;
    return name ?? 'unknown';
}

/** The disk's size in its own logical blocks. */
export function logicalBlocks(disk: Disk): number {
    return disk.sizeSectors * 512 / disk.logicalBlockBytes;
}

/** sfdisk's default alignment: 1 MiB, in logical blocks. */
export function grainBlocks(disk: Disk): number {
    return (1024 * 1024) / disk.logicalBlockBytes;
}

/** The last block a partition may use: before the backup GPT (its header and 16 KiB of entries). */
export function gptLastLba(disk: Disk): number {
    return logicalBlocks(disk) - 2 - 16384 / disk.logicalBlockBytes;
}

/** A new table like sfdisk's: partitions from 1 MiB; `seed` makes the made-up identifier stable. */
export function newTable(disk: Disk, label: PartitionTable['label'], seed: string, id?: string): PartitionTable {
    const made = uuidFromText(`${disk.name}/${seed}/label-id`);
    return {
        label,
        id: id ?? (label === 'gpt' ? made.toUpperCase() : `0x${made.slice(0, 8)}`),
        firstLba: grainBlocks(disk),
        lastLba: label === 'gpt' ? gptLastLba(disk) : logicalBlocks(disk) - 1,
    };
}

/** A GPT partition's GUID, made up as sfdisk does for each new partition (stable per seed). */
export function newPartitionUuid(disk: Disk, number: number, seed: string): string {
    return uuidFromText(`${disk.name}/${seed}/${number}/uuid`).toUpperCase();
}
