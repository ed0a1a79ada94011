// SPDX-License-Identifier: LGPL-2.1-or-later
// How each simulated disk identifies itself: the WWID and serial number sysfs shows (sim/kernel/sysfs.ts)
// and lsblk's WWN and SERIAL columns repeat (sim/blockdev/lsblk.ts).

import type { Disk } from './types';

/**
 * The World Wide ID each kind reports, in the kernel's formats: SCSI disks a NAA id and SATA disks
 * behind libata the padded "t10.ATA <model> <serial>" (both in device/wwid), NVMe namespaces an
 * EUI-64 in their own wwid; virtio-blk none. Derived from the device number, so stable per scenario.
 */
export function diskWwid(disk: Disk): { file: string; value: string } | null {
    const id = (0x5000c50000000000n + BigInt(disk.major * 256 + disk.minor)).toString(16);
    switch (disk.kind) {
    case 'sata': return { file: 'device/wwid', value: `t10.ATA     SIMDISK ST2000DM008-2FR102              ZFL${id.slice(-5).toUpperCase()}` };
    case 'sas': return { file: 'device/wwid', value: `naa.${id}` };
    case 'nvme': return { file: 'wwid', value: `eui.${id}` };
    case 'virtio': return null;
    }
}

/**
 * The serial number as text where the kernel has a file for it: virtio-blk's own `serial`, an NVMe
 * controller's `serial` (device/ is the controller). SATA and SAS disks have none (SATA's serial
 * is the last word of its t10 wwid; SAS keeps it in the binary vpd_pg80).
 */
export function diskSerial(disk: Disk): { file: string; value: string } | null {
    const id = (disk.major * 256 + disk.minor).toString(16).toUpperCase().padStart(6, '0');
    switch (disk.kind) {
    case 'nvme': return { file: 'device/serial', value: `SIMNVME${id}` };
    case 'virtio': return { file: 'serial', value: `SIMVIRT${id}` };
    default: return null;
    }
}

/** What lsblk shows for a disk with udev's database: SERIAL, WWN, HCTL (SCSI address), TRAN. */
export interface DiskIdentity {
    serial: string | null;
    wwn: string | null;
    hctl: string | null;
    transport: string | null;
}

export function diskIdentity(disk: Disk, index: number): DiskIdentity {
    const id = (0x5000c50000000000n + BigInt(disk.major * 256 + disk.minor)).toString(16);
    switch (disk.kind) {
        // Each SATA disk on its own port (host N), SAS disks behind one HBA (target N).
        case 'sata': return { serial: `ZFL${id.slice(-5).toUpperCase()}`, wwn: `0x${id}`, hctl: `${index}:0:0:0`, transport: 'sata' };
        case 'sas': return { serial: `ZC1${id.slice(-5).toUpperCase()}`, wwn: `0x${id}`, hctl: `6:0:${index}:0`, transport: 'sas' };
        case 'nvme': return { serial: diskSerial(disk)!.value, wwn: `eui.${id}`, hctl: null, transport: 'nvme' };
        case 'virtio': return { serial: diskSerial(disk)!.value, wwn: null, hctl: null, transport: null };
    }
}
