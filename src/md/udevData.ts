// SPDX-License-Identifier: LGPL-2.1-or-later
// The disks' by-path addresses from udev's database (/run/udev/data), as the gather script reads it
// (src/host/gatherScript.ts): the ID_PATH line of each block device's file, bMAJOR:MINOR. That name
// has a colon, so a record `b8:16:E:ID_PATH=pci-0000:00:17.0-ata-2.0` is filed under /udev/b8 with
// the value `16:E:ID_PATH=pci-0000:00:17.0-ata-2.0`: one file per major, a line per minor.

import { filesUnder, type Snapshot } from './snapshot';

/** The gather script's section (and canonical folder) of udev's database. */
export const UDEV_ROOT = 'udev';
/** The property udev's path_id sets and names /dev/disk/by-path/ links after. */
export const UDEV_ID_PATH = 'E:ID_PATH=';

const MAJOR_FILE = new RegExp(`^/${UDEV_ROOT}/b(\\d+)$`);
const MINOR_LINE = new RegExp(`^(\\d+):${UDEV_ID_PATH}(.+)$`);

/**
 * Each block device's ID_PATH by its number ("8:16"). Empty where the host has no udev database
 * (containers) and for devices udev gave none (a loop device, md itself).
 */
export function parseIdPaths(files: ReadonlyMap<string, string>): Map<string, string> {
    const paths = new Map<string, string>();
    for (const [path, content] of files) {
        const major = MAJOR_FILE.exec(path)?.[1];
        if (major === undefined) continue;
        for (const line of content.split('\n')) {
            const record = MINOR_LINE.exec(line);
            const value = record?.[2].trim();
            if (record && value) paths.set(`${major}:${record[1]}`, value);
        }
    }
    return paths;
}

/** The snapshot's by-path addresses (parseIdPaths). */
export function readIdPaths(snapshot: Snapshot): Map<string, string> {
    return parseIdPaths(filesUnder(snapshot, UDEV_ROOT));
}

/** Paths under udev's database among a refresh's changed paths: the disks' addresses may have moved. */
export function udevChanged(paths: ReadonlySet<string>): boolean {
    const prefix = `/${UDEV_ROOT}/`;
    for (const path of paths) if (path.startsWith(prefix)) return true;
    return false;
}
