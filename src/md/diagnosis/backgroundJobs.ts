// SPDX-License-Identifier: LGPL-2.1-or-later
// Programs known for heavy disk I/O of their own, found by name among the host's processes
// (/proc/PID/comm, read in the refresh's one grep). A rebuild held at the minimum by other I/O is
// often one of these (admins report a new ext4 file system's lazy init and nightly cron jobs). raidtune
// cannot tell which disks a process uses, so the diagnosis names them as candidates, no more.

/** Why each one does I/O, by the name the kernel gives the process (comm: at most 15 characters). */
export const KNOWN_IO_JOBS: Readonly<Record<string, 'ext4-lazyinit' | 'file-index' | 'fs-check' | 'backup'>> = {
    ext4lazyinit: 'ext4-lazyinit',
    updatedb: 'file-index',
    'updatedb.plocat': 'file-index',
    'plocate-build': 'file-index',
    e2fsck: 'fs-check',
    'fsck.ext4': 'fs-check',
    xfs_scrub: 'fs-check',
    rsync: 'backup',
    borg: 'backup',
    restic: 'backup',
};

export type IoJobKind = (typeof KNOWN_IO_JOBS)[string];

export interface BackgroundJob {
    name: string;
    kind: IoJobKind;
    /** How many processes of that name run. */
    count: number;
}

const COMM_PATH = /^\/proc\/\d+\/comm$/;

/** The known I/O-heavy programs among the processes in a snapshot's /proc/PID/comm files, by name. */
export function backgroundJobs(files: ReadonlyMap<string, string>): BackgroundJob[] {
    const counts = new Map<string, number>();
    for (const [path, content] of files) {
        if (!path.startsWith('/proc/') || !COMM_PATH.test(path)) continue;
        const name = content.trim();
        if (Object.hasOwn(KNOWN_IO_JOBS, name)) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    return [...counts].sort(([a], [b]) => a.localeCompare(b))
        .map(([name, count]) => ({ name, kind: KNOWN_IO_JOBS[name], count }));
}
