// SPDX-License-Identifier: LGPL-2.1-or-later
// The refresh loop's parse and build, one after the other, each reusing what the previous refresh
// made of input that did not change: the parser updates only the records that differ, the build
// reuses idle arrays and disks whose inputs are the same (src/md/model.ts buildModelReusing). With
// 128 arrays, a refresh then costs the ~25 syncing arrays' work instead of all 128 arrays'.
//
// It also says which reads may be fast ones (src/host/gatherScript.ts): while something syncs,
// most refreshes need only what a sync changes (about a ninth of the bytes at 128 arrays). A full read
// comes at least every FULL_READ_EVERY refreshes, after each change raidtune makes, whenever
// nothing syncs (reads are 10 s apart then), and at once when /proc/mdstat shows an array or a
// member that changed otherwise than by a sync's progress (a disk failed, a rebuild ended) or
// when the /sys files a fast read takes came or went (an array stopped).

import { buildModelReusing, type BuiltModel } from './model';
import type { HostModel } from './modelTypes';
import type { MdstatArray } from './mdstat';
import { shareUnchanged } from './share';
import { GatherParser, type Snapshot } from './snapshot';
import { siblingArrays } from './diagnosis/samples';

export const FULL_READ_EVERY = 5;

const PLAIN_DISK_NAME = /^[A-Za-z0-9_-]+$/;

export class ModelBuilder {
    private readonly parser = new GatherParser();
    private last: (BuiltModel & { snapshotId: number | undefined; sysPaths: readonly string[] | undefined }) | null =
        null;
    private fastReadsInARow = 0;
    private fullReadDue = true;
    // A change made while a full read is under way may have landed after the host answered it (a
    // new scheduler's nr_requests, any setting): only a read started after the request counts.
    private fullReadRequests = 0;
    private requestsAtReadStart = 0;

    /** Called as a read starts: whether it must be a full one. */
    fullReadWanted(): boolean {
        this.requestsAtReadStart = this.fullReadRequests;
        if (this.fullReadDue || !this.last || !this.last.model.arrays.some(a => a.sync)) return true;
        return this.fastReadsInARow >= FULL_READ_EVERY - 1;
    }

    /**
     * The disks a fast read takes /proc/diskstats lines of, as the gather script's "sda|sdb": the
     * members of running syncs and the other arrays on their disks (what the diagnosis reads). Empty
     * (all lines) when a name is not a plain kernel name, so that nothing but letters, digits, _ and
     * - goes into grep's pattern.
     */
    diskstatsFilter(): string {
        const arrays = this.last?.model.arrays ?? [];
        const disks = new Set(arrays.flatMap(a => (a.sync?.runState === 'running'
            ? [...a.members.map(m => m.disk), ...siblingArrays(a, arrays)] : [])));
        return [...disks].every(name => PLAIN_DISK_NAME.test(name)) ? [...disks].join('|') : '';
    }

    /** A full read is due now, not at its turn: the refresh loop reads again at once. */
    fullReadPending(): boolean {
        return this.fullReadDue;
    }

    /** After a change: its effects anywhere (disk queues, array settings) show at the next read. */
    requestFullRead(): void {
        this.fullReadDue = true;
        this.fullReadRequests++;
    }

    parse(output: string): Snapshot {
        return this.parser.parse(output);
    }

    /** The model of `snapshot`, which must be this builder's latest parse. */
    build(snapshot: Snapshot, takenAt: number): HostModel {
        const last = this.last;
        // Reuse only when the changes are counted from the snapshot last built (not when a build
        // failed in between) and the /sys paths are the same (then so is the sysfs index).
        const comparable = last !== null && snapshot.changed !== undefined &&
            last.snapshotId === snapshot.changed.since &&
            snapshot.sysPaths !== undefined && snapshot.sysPaths === last.sysPaths;
        const built = buildModelReusing(snapshot, takenAt, last?.model ?? null,
            comparable ? {
                changedPaths: snapshot.changed!.paths, mdstat: last.mdstat, mdstatReused: last.mdstatReused,
                index: last.index, diskstats: last.diskstats,
            } : null);
        const fast = (snapshot.reusedSections?.length ?? 0) > 0;
        this.fastReadsInARow = fast ? this.fastReadsInARow + 1 : 0;
        if (!fast && this.requestsAtReadStart === this.fullReadRequests) this.fullReadDue = false;
        // Paths that every read takes came or went (an array stopped or started): the settings kept
        // from the last full read no longer describe the host.
        const sysPathsChanged = snapshot.sysPaths !== last?.sysPaths;
        if (fast && last && (sysPathsChanged || arraysChangedBeyondSync(last.mdstat, built.mdstat))) {
            this.fullReadDue = true;
        }
        // The /proc/diskstats lines known for the next parse: a full read's, all disks' (a fast
        // read has only the syncing members' lines, which change at every read anyway).
        const diskstats = fast && last ? last.diskstats : built.diskstats;
        this.last = { ...built, diskstats, snapshotId: snapshot.id, sysPaths: snapshot.sysPaths };
        return built.model;
    }
}

/** Arrays came or went, or one changed in more than its sync line and bitmap counters. */
function arraysChangedBeyondSync(before: ReadonlyMap<string, MdstatArray>,
    now: ReadonlyMap<string, MdstatArray>): boolean {
    if (before.size !== now.size) return true;
    for (const [name, array] of now) {
        const previous = before.get(name);
        if (!previous) return true;
        // The same stanza text gives the same object (src/md/mdstatReuse.ts).
        if (previous === array) continue;
        const was = withoutProgress(previous);
        if (shareUnchanged(was, withoutProgress(array)) !== was) return true;
    }
    return false;
}

/** An mdstat entry without what a sync's progress changes: its sync line and bitmap counters. */
function withoutProgress(array: MdstatArray): MdstatArray {
    return { ...array, sync: null, bitmap: null };
}
