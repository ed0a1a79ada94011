// SPDX-License-Identifier: LGPL-2.1-or-later
// What the Replace disk dialog reads when it opens (issue #34): the host's block devices (lsblk),
// the array's component size and logical block size (sysfs), the signatures on each device that
// could take the member's place (wipefs, which opens the devices: as root), and where the members
// are partitions, the partition table of a working member's disk (sfdisk --dump). Read-only: every
// write goes through a plan.

import { cockpitApi, type CockpitProblem } from './cockpit';
import type { HostConfig } from './config';
import { hostPath } from './executor';
import { _, fmt } from './i18n';
import { LSBLK_COLUMNS, parseLsblk, parseWipefs, type BlockDevice, type Signature } from '../md/replace/blockDevices';
import type { ArrayBlockFacts } from '../md/replace/candidates';
import { parseSfdiskDump, type PartitionTable } from '../md/replace/partitionCopy';
import { devicesToProbe, partitionSourceDisk, replaceChoices, type ReplaceReads, type ReplaceSituation } from '../md/replace/replaceDisk';

const ENVIRON = ['LC_ALL=C'];

function problemText(error: unknown): string {
    const problem = error as CockpitProblem;
    return (problem.message || problem.problem || String(error)).trim();
}

/** What lsblk lists, each device with what sits on it. */
export async function readBlockDevices(config: HostConfig): Promise<BlockDevice[]> {
    const argv = [config.lsblk, '--json', '--bytes', '--output', LSBLK_COLUMNS.join(',')];
    try {
        return parseLsblk(await cockpitApi().spawn(argv, { superuser: 'try', err: 'message', environ: ENVIRON }));
    } catch (error) {
        throw new Error(fmt(_('Listing the block devices (lsblk) failed: $0'), problemText(error)));
    }
}

/** md/component_size (KiB) and queue/logical_block_size of the array. */
export async function readArrayBlockFacts(config: HostConfig, array: string): Promise<ArrayBlockFacts> {
    const paths = [`/sys/block/${array}/md/component_size`, `/sys/block/${array}/queue/logical_block_size`]
        .map(path => hostPath(config, path));
    const output = await cockpitApi().spawn(['cat', ...paths], { err: 'message' });
    const [componentKiB, logicalBlockBytes] = output.trim().split('\n').map(line => Number(line.trim()));
    if (!Number.isSafeInteger(componentKiB) || !Number.isSafeInteger(logicalBlockBytes) || logicalBlockBytes <= 0) {
        throw new Error(fmt(_('$0 reports no component size or logical block size.'), array));
    }
    return { componentKiB, logicalBlockBytes };
}

/** One device's signatures; the reason when wipefs could not read it. */
export type SignatureRead = { device: string; signatures: Signature[] } | { device: string; failed: string };

/**
 * The signatures on each device, one wipefs per device: given several, wipefs prints nothing at
 * all when one of them cannot be opened.
 */
export function readSignatures(config: HostConfig, devices: string[]): Promise<SignatureRead[]> {
    return Promise.all(devices.map(async (device): Promise<SignatureRead> => {
        try {
            const output = await cockpitApi().spawn([config.wipefs, '--no-act', '--json', `/dev/${device}`],
                { superuser: 'require', err: 'message', environ: ENVIRON });
            // wipefs names a block device without /dev/; the read is keyed by what was asked.
            return { device, signatures: parseWipefs(output).map(s => ({ ...s, device })) };
        } catch (error) {
            return { device, failed: problemText(error) };
        }
    }));
}

/** The partition table of `disk`, as sfdisk --dump prints it. */
export async function readPartitionTable(config: HostConfig, disk: string): Promise<PartitionTable> {
    try {
        const output = await cockpitApi().spawn([config.sfdisk, '--dump', `/dev/${disk}`],
            { superuser: 'require', err: 'message', environ: ENVIRON });
        return parseSfdiskDump(output);
    } catch (error) {
        throw new Error(fmt(_('Reading the partition table of $0 (sfdisk --dump) failed: $1'), disk, problemText(error)));
    }
}

/**
 * Everything the dialog decides from: the devices and the array's facts first, then the source
 * disk's table where the members are partitions, then the signatures of the devices left.
 */
export async function readForReplacement(config: HostConfig, situation: ReplaceSituation): Promise<ReplaceReads> {
    const [devices, facts] = await Promise.all([
        readBlockDevices(config), readArrayBlockFacts(config, situation.array.name),
    ]);
    const sourceDisk = partitionSourceDisk(situation);
    const table = sourceDisk === null ? null : await readPartitionTable(config, sourceDisk);
    const unprobed: ReplaceReads = { devices, facts, table, signatures: new Map() };
    const probed = await readSignatures(config, devicesToProbe(replaceChoices(situation, unprobed)));
    return { ...unprobed, signatures: new Map(probed.map(r => [r.device, 'failed' in r ? { failed: r.failed } : r.signatures])) };
}
