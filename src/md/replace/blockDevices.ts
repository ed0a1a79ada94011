// SPDX-License-Identifier: LGPL-2.1-or-later
// The host's block devices as a disk replacement sees them (issue #34): `lsblk --json --bytes` for
// the tree (sizes, block sizes, what sits on each device: partitions, md arrays, LVM, mounts) and
// `wipefs --no-act --json` for the signatures on each, which lsblk's FSTYPE misses without udev.
//
// lsblk 2.33 and later (Debian 12: 2.38, RHEL 9: 2.37) writes numbers and booleans as JSON types;
// older ones wrote strings ("1", "512"), which are read too.

/** The columns the read asks lsblk for, in its own names. */
export const LSBLK_COLUMNS = ['NAME', 'PATH', 'TYPE', 'SIZE', 'LOG-SEC', 'PHY-SEC', 'ROTA', 'RO', 'MOUNTPOINTS',
    'FSTYPE', 'PTTYPE', 'SERIAL', 'WWN', 'HCTL', 'TRAN'] as const;

export interface BlockDevice {
    name: string;
    path: string;
    /** disk, part, raid1, raid5, lvm, crypt, loop, rom... */
    type: string;
    sizeBytes: number;
    logicalBlockBytes: number | null;
    physicalBlockBytes: number | null;
    rotational: boolean | null;
    readOnly: boolean;
    /** Where it is mounted ("[SWAP]" for swap in use), none when not. */
    mountpoints: string[];
    fstype: string | null;
    pttype: string | null;
    serial: string | null;
    wwn: string | null;
    hctl: string | null;
    transport: string | null;
    /** What sits on it: its partitions, the md arrays or device-mapper devices that hold it. */
    children: BlockDevice[];
}

/** One signature wipefs found (a filesystem, a partition table, an md superblock, LVM's...). */
export interface Signature {
    /** The device's name as wipefs prints it (vdb, vdb1). */
    device: string;
    type: string;
    offset: string;
}

type Json = Record<string, unknown>;

function numberOf(value: unknown): number | null {
    if (typeof value === 'number') return Number.isFinite(value) ? value : null;
    if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value.trim());
    return null;
}

function booleanOf(value: unknown): boolean | null {
    if (typeof value === 'boolean') return value;
    if (value === '1' || value === 1) return true;
    if (value === '0' || value === 0) return false;
    return null;
}

function textOf(value: unknown): string | null {
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** lsblk 2.37+ lists MOUNTPOINTS (all of them, [null] for none); older ones one MOUNTPOINT. */
function mountpointsOf(entry: Json): string[] {
    const all = Array.isArray(entry.mountpoints) ? entry.mountpoints : [entry.mountpoint];
    return all.map(textOf).filter((m): m is string => m !== null);
}

function deviceOf(entry: Json): BlockDevice | null {
    const name = textOf(entry.name);
    const size = numberOf(entry.size);
    if (name === null || size === null) return null;
    return {
        name,
        path: textOf(entry.path) ?? `/dev/${name}`,
        type: textOf(entry.type) ?? 'unknown',
        sizeBytes: size,
        logicalBlockBytes: numberOf(entry['log-sec']),
        physicalBlockBytes: numberOf(entry['phy-sec']),
        rotational: booleanOf(entry.rota),
        readOnly: booleanOf(entry.ro) === true,
        mountpoints: mountpointsOf(entry),
        fstype: textOf(entry.fstype),
        pttype: textOf(entry.pttype),
        serial: textOf(entry.serial),
        wwn: textOf(entry.wwn),
        hctl: textOf(entry.hctl),
        transport: textOf(entry.tran),
        children: Array.isArray(entry.children) ? entry.children.flatMap(child => deviceOf(child as Json) ?? []) : [],
    };
}

/** The devices lsblk lists at the top (disks, loop devices...), each with what sits on it. */
export function parseLsblk(text: string): BlockDevice[] {
    const parsed = JSON.parse(text) as { blockdevices?: unknown };
    if (!Array.isArray(parsed.blockdevices)) throw new Error('lsblk printed no "blockdevices" list');
    return parsed.blockdevices.flatMap(entry => deviceOf(entry as Json) ?? []);
}

/** wipefs --no-act --json's signatures; an empty output (no signature at all) is none. */
export function parseWipefs(text: string): Signature[] {
    if (text.trim() === '') return [];
    const parsed = JSON.parse(text) as { signatures?: unknown };
    if (!Array.isArray(parsed.signatures)) return [];
    return parsed.signatures.flatMap(entry => {
        const e = entry as Json;
        const device = textOf(e.device);
        const type = textOf(e.type);
        return device && type ? [{ device, type, offset: textOf(e.offset) ?? '' }] : [];
    });
}

/** The device and everything on it, depth first. */
export function withDescendants(device: BlockDevice): BlockDevice[] {
    return [device, ...device.children.flatMap(withDescendants)];
}
