// SPDX-License-Identifier: LGPL-2.1-or-later
// Where the /sys paths of a snapshot say arrays' members, partitions and disks are: found in one
// pass over the paths, and reused from one refresh to the next while the paths stay the same.

import type { Snapshot } from './snapshot';

/** What the sysfs paths of a snapshot name, found in one pass (128 arrays x 16 members = 26k paths). */
export interface SysfsIndex {
    /** Array -> member names from its dev-* entries. */
    membersOf: Map<string, Set<string>>;
    /** Partition -> its disk, from /sys/block/DISK/PART/partition. */
    partitionsOf: Map<string, string>;
    /** Disk -> its partitions (the inverse of partitionsOf). */
    partitionsByDisk: Map<string, string[]>;
    /** Block devices other than md with a queue. */
    disks: string[];
}

export const SYS_BLOCK = '/sys/block/';

export function indexSysfs(snapshot: Snapshot): SysfsIndex {
    const index: SysfsIndex = { membersOf: new Map(), partitionsOf: new Map(), partitionsByDisk: new Map(), disks: [] };
    const from = SYS_BLOCK.length;
    // /sys/block/DEVICE/SECOND/THIRD[/...], cut by index, not split('/'): 26k paths per refresh.
    for (const path of snapshot.sysPaths ?? snapshot.files.keys()) {
        if (!path.startsWith(SYS_BLOCK)) continue;
        const deviceEnd = path.indexOf('/', from);
        const secondEnd = deviceEnd < 0 ? -1 : path.indexOf('/', deviceEnd + 1);
        if (secondEnd < 0) continue;
        const next = path.indexOf('/', secondEnd + 1);
        const thirdEnd = next < 0 ? path.length : next;
        const second = (word: string) => isSegment(path, deviceEnd + 1, secondEnd, word);
        const third = (word: string) => isSegment(path, secondEnd + 1, thirdEnd, word);
        if (second('md') && path.startsWith('dev-', secondEnd + 1)) {
            const device = path.slice(from, deviceEnd);
            let members = index.membersOf.get(device);
            if (!members) index.membersOf.set(device, members = new Set());
            members.add(path.slice(secondEnd + 1 + 'dev-'.length, thirdEnd));
        } else if (third('partition')) {
            const partition = path.slice(deviceEnd + 1, secondEnd);
            const disk = path.slice(from, deviceEnd);
            index.partitionsOf.set(partition, disk);
            index.partitionsByDisk.set(disk, [...index.partitionsByDisk.get(disk) ?? [], partition]);
        } else if (second('queue') && third('scheduler') && !path.startsWith('md', from)) {
            index.disks.push(path.slice(from, deviceEnd));
        }
    }
    return index;
}

/** path[start, end) is exactly `word`. */
function isSegment(path: string, start: number, end: number, word: string): boolean {
    return end - start === word.length && path.startsWith(word, start);
}
