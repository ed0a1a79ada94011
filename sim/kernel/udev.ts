// SPDX-License-Identifier: LGPL-2.1-or-later
// udev's database as systemd-udevd keeps it in /run/udev/data: a file per block device named
// bMAJOR:MINOR, with its links (S:), when udev first saw it (I:), its properties (E:) and tags (G:,
// Q:). raidtune reads the ID_PATH lines (its gather script); the other lines are there so that it
// must pick them out, ID_PATH_TAG and ID_PATH_ATA_COMPAT among them, as on a real host.

import { diskIdentity, diskIdPath } from '../model/identity';
import type { Disk, HostState } from '../model/types';
import type { FileSet } from './files';

export const UDEV_DATA = 'run/udev/data';

const BUS: Record<Disk['kind'], string> = { sata: 'ata', sas: 'scsi', nvme: 'nvme', virtio: 'virtio' };

/** The properties a disk and its partitions share, ID_PATH's among them. */
function sharedProperties(disk: Disk, index: number): string[] {
    const idPath = diskIdPath(disk, index);
    const serial = diskIdentity(disk, index).serial;
    return [
        'ID_TYPE=disk', `ID_BUS=${BUS[disk.kind]}`, ...(serial ? [`ID_SERIAL_SHORT=${serial}`] : []),
        `ID_PATH=${idPath}`, `ID_PATH_TAG=${idPath.replace(/[^A-Za-z0-9_-]/g, '_')}`,
        // Older udev named SATA ports without the device number: its links stay for compatibility.
        ...(disk.kind === 'sata' ? [`ID_PATH_ATA_COMPAT=${idPath.replace(/\.0$/, '')}`] : []),
    ];
}

function databaseFile(link: string, properties: string[]): string {
    return [`S:disk/by-path/${link}`, 'I:4211042', ...properties.map(p => `E:${p}`), 'G:systemd', 'Q:systemd', 'V:1', '']
        .join('\n');
}

export function renderUdevDatabase(files: FileSet, state: HostState): void {
    state.disks.forEach((disk, index) => {
        const shared = sharedProperties(disk, index);
        const idPath = diskIdPath(disk, index);
        files.file(`${UDEV_DATA}/b${disk.major}:${disk.minor}`, databaseFile(idPath, ['DEVTYPE=disk', ...shared]));
        for (const partition of disk.partitions) {
            files.file(`${UDEV_DATA}/b${partition.major}:${partition.minor}`, databaseFile(`${idPath}-part${partition.number}`,
                ['DEVTYPE=partition', ...shared, `PARTN=${partition.number}`]));
        }
    });
}
