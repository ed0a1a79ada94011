// SPDX-License-Identifier: LGPL-2.1-or-later
// How each simulated disk identifies itself: the WWID and serial number sysfs shows (sim/kernel/sysfs.ts)
// and lsblk's WWN and SERIAL columns repeat (sim/blockdev/lsblk.ts), and the by-path address udev's
// database holds (sim/kernel/udev.ts).

import { letterIndex } from './devices';
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

const hex2 = (n: number) => n.toString(16).padStart(2, '0');

/**
 * udev's ID_PATH (its /dev/disk/by-path/ name), in path_id's formats, where the disk hangs: each
 * SATA disk on its own port of one AHCI controller (port N+1 is SCSI host N, lsblk's HCTL), the SAS
 * disks behind one HBA's expander on the phy of their enclosure slot, each NVMe controller on a PCI
 * bus of its own, virtio-blk disks in the PCI slots after QEMU's first three.
 */
export function diskIdPath(disk: Disk, index: number): string {
    switch (disk.kind) {
    case 'sata': return `pci-0000:00:17.0-ata-${index + 1}.0`;
    case 'sas': return `pci-0000:03:00.0-sas-exp0x500304801f3e8b7f-phy${disk.enclosureSlot?.number ?? index}-lun-0`;
    case 'nvme': {
        // Scenario validation holds nvme disks to this name (devices.ts).
        const [, controller, namespace] = /^nvme(\d+)n(\d+)$/.exec(disk.name)!;
        return `pci-0000:${hex2(Number(controller) + 1)}:00.0-nvme-${namespace}`;
    }
    case 'virtio': return `pci-0000:00:${hex2(3 + letterIndex(disk.name.slice(2)))}.0`;
    }
}
