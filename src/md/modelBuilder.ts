// The refresh loop's parse and build, one after the other, each keeping what the previous refresh
// made of input that did not change: the parser updates only the records that differ, the build
// keeps idle arrays and disks whose inputs are the same (src/md/model.ts buildModelKeeping). With
// 128 arrays, a refresh then costs the ~25 syncing arrays' work instead of all 128 arrays'.

import { buildModelKeeping, type BuiltModel, type HostModel } from './model';
import { GatherParser, type Snapshot } from './snapshot';

export class ModelBuilder {
    private readonly parser = new GatherParser();
    private last: (BuiltModel & { snapshotId: number | undefined; sysPaths: readonly string[] | undefined }) | null = null;

    parse(output: string): Snapshot {
        return this.parser.parse(output);
    }

    /** The model of `snapshot`, which must be this builder's latest parse. */
    build(snapshot: Snapshot, takenAt: number): HostModel {
        const last = this.last;
        // Keep only when the changes are counted from the snapshot last built (not when a build
        // failed in between) and the /sys paths are the same (then so is the sysfs index).
        const comparable = last !== null && snapshot.changed !== undefined && last.snapshotId === snapshot.changed.since &&
            snapshot.sysPaths !== undefined && snapshot.sysPaths === last.sysPaths;
        const built = buildModelKeeping(snapshot, takenAt, last?.model ?? null,
            comparable ? { changedPaths: snapshot.changed!.paths, mdstat: last.mdstat, index: last.index } : null);
        this.last = { ...built, snapshotId: snapshot.id, sysPaths: snapshot.sysPaths };
        return built.model;
    }
}
