// SPDX-License-Identifier: LGPL-2.1-or-later
// One entry of `lsblk --json --bytes` with util-linux 2.38's columns (as raidtune asks for them),
// for the replace tests' device trees.

export type LsblkEntry = Record<string, unknown>;

/** A device with 512-byte logical blocks, rotating, writable, unmounted; `extra` overrides any column. */
export function lsblkEntry(name: string, type: string, size: number, extra: LsblkEntry = {},
    children: LsblkEntry[] = []): LsblkEntry {
    return {
        'name': name, 'path': `/dev/${name}`, type, size, 'log-sec': 512, 'phy-sec': 4096, 'rota': true, 'ro': false,
        'mountpoints': [null], 'fstype': null, 'pttype': null, 'serial': null, 'wwn': null, 'hctl': null, 'tran': null,
        ...extra, ...(children.length ? { children } : {}),
    };
}
