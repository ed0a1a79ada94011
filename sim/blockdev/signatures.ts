// SPDX-License-Identifier: LGPL-2.1-or-later
// The signatures wipefs (libblkid) finds on a simulated device: where each sits and the magic bytes
// `wipefs --all` erases, as util-linux 2.38 reports them (checked on this machine's wipefs with loop
// devices and files: ext4, swap, gpt; the md superblock's in test/vm/README.md). A partition table's
// signatures follow from the disk's table; the others are kept per device in the state.

import { uuidFromText } from '../random';
import type { SignatureSpec } from '../scenario/types';
import type { Disk, MdArray, Signature } from '../model/types';

/** Where blkid finds each type and the bytes of its magic (what wipefs prints when it erases it). */
const MAGIC: Record<string, { offset: number; bytes: string }> = {
    ext4: { offset: 0x438, bytes: '53 ef' },
    xfs: { offset: 0, bytes: '58 46 53 42' },
    btrfs: { offset: 0x10040, bytes: '5f 42 48 52 66 53 5f 4d' },
    // "SWAPSPACE2" at the end of the first 4 KiB page.
    swap: { offset: 0xff6, bytes: '53 57 41 50 53 50 41 43 45 32' },
    LVM2_member: { offset: 0x218, bytes: '4c 56 4d 32 20 30 30 31' },
    crypto_LUKS: { offset: 0, bytes: '4c 55 4b 53 ba be' },
    // md's magic 0xa92b4efc, little-endian; the offset depends on the metadata version.
    linux_raid_member: { offset: 0x1000, bytes: 'fc 4e 2b a9' },
    gpt: { offset: 0x200, bytes: '45 46 49 20 50 41 52 54' },
    PMBR: { offset: 0x1fe, bytes: '55 aa' },
    dos: { offset: 0x1fe, bytes: '55 aa' },
};

export function magicBytes(type: string): string {
    return MAGIC[type]?.bytes ?? '';
}

/** The scenario's signature on a device; `seed` names it, for a stable uuid. */
export function signatureFromSpec(spec: SignatureSpec, seed: string): Signature {
    const { type, uuid, label } = typeof spec === 'string' ? { type: spec, uuid: undefined, label: undefined } : spec;
    return { type, offset: MAGIC[type].offset, uuid: uuid ?? uuidFromText(`${seed}/${type}`), label: label ?? null };
}

/** Where mdadm writes the superblock of each metadata version (super1.c, super0.c), in bytes. */
function superblockOffset(metadata: string, deviceSectors: number): number {
    switch (metadata) {
        case '1.1': return 0;
        case '1.0': return ((deviceSectors - 8 * 2) & ~(4 * 2 - 1)) * 512;
        case '0.90': return ((deviceSectors & ~127) - 128) * 512;
        default: return 0x1000;
    }
}

/** The md superblock on a member: blkid reads the array's uuid and its name (mdadm's "host:N"). */
export function superblockSignature(array: MdArray, deviceSectors: number): Signature {
    return {
        type: 'linux_raid_member', offset: superblockOffset(array.metadata, deviceSectors),
        uuid: array.uuid, label: `mdsim:${array.minor}`,
    };
}

/** A GPT sits in block 1 with its backup in the last block, behind a protective MBR; dos in the MBR. */
export function tableSignatures(disk: Disk): Signature[] {
    if (!disk.table) return [];
    const none = { uuid: null, label: null };
    if (disk.table.label === 'dos') return [{ type: 'dos', offset: MAGIC.dos.offset, ...none }];
    const lastBlock = disk.sizeSectors * 512 / disk.logicalBlockBytes - 1;
    return [
        { type: 'gpt', offset: disk.logicalBlockBytes, ...none },
        { type: 'gpt', offset: lastBlock * disk.logicalBlockBytes, ...none },
        { type: 'PMBR', offset: MAGIC.PMBR.offset, ...none },
    ];
}
