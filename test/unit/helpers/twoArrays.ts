// SPDX-License-Identifier: LGPL-2.1-or-later
// Two real-kernel arrays (md0 raid0 on vda+vdb, md1 linear on vdc+vdd) with their member disks'
// queues and I/O counters: a host small enough to follow object by object between refreshes.

import { buildModel } from '../../../src/md/model';
import type { HostModel } from '../../../src/md/modelTypes';
import { loadCaptureFiles } from './realKernelCapture';

export const DISKS = ['vda', 'vdb', 'vdc', 'vdd'];

export function hostFiles(): Map<string, string> {
    const files = loadCaptureFiles('raid0-and-linear');
    for (const disk of DISKS) {
        files.set(`/sys/block/${disk}/queue/scheduler`, '[none] mq-deadline\n');
        files.set(`/sys/block/${disk}/queue/nr_requests`, '256\n');
    }
    files.set('/proc/diskstats', DISKS.map((d, i) => diskstatsLine(d, 100 + i)).join(''));
    return files;
}

export function diskstatsLine(disk: string, reads: number): string {
    return ` 253 0 ${disk} ${reads} 0 800 10 5 0 40 2 0 20 12 0 0 0 0 0 0\n`;
}

export function modelOf(files: Map<string, string>, previous: HostModel | null = null): HostModel {
    return buildModel({ files, pageSize: 4096, missingRoots: [], complete: true }, 1000, previous);
}
