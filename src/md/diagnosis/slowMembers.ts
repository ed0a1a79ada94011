// SPDX-License-Identifier: LGPL-2.1-or-later
// A member the sync waits for: far slower per MiB than the members doing the same work. The
// diagnosis names it as what holds the sync back; the health alert and the members table name it
// as a disk that may be failing, since losing it during a rebuild costs the redundancy left.

import type { ArrayModel } from '../modelTypes';
import { syncWindow, type MemberWindow } from './window';

/**
 * A member is slow when the sync waits for it nearly all the time (busy at least 85%) and it needs
 * at least twice its peers' I/O time per MiB. Busy time, not the ratio, tells a slow disk from a
 * busy one: on disks capped by a token bucket (QEMU's throttling, a cloud volume's limits) busy
 * time is time queued at the cap, so of identical disks all near their cap the one given a few
 * percent more of a random load queues most, 0.73-0.79 busy at 3.8-5.9x its peers' time per MiB,
 * while a disk capped at half its peers' speed was busy 0.89-1 at 2.2-3.8x (`make bench-rebuild`,
 * hdd-raid6-load, Linux 6.1 and 7.3; doc/benchmarks.md, issue #14).
 */
export const SLOW_RATIO = 2;
export const SLOW_MIN_BUSY = 0.85;

export interface SlowMember {
    member: string;
    disk: string;
    busyShare: number;
    peerBusyShare: number;
    msPerMiB: number;
    peerMsPerMiB: number;
    kiBs: number;
    peerKiBs: number;
}

export function median(values: number[]): number | null {
    if (!values.length) return null;
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Each member is compared with the members doing the same work: the in-sync ones read (and serve
 * the other I/O), a rebuilding one only writes, which costs a disk a different time per MiB. A
 * lone rebuilding disk has no peer: when it is the slow part, it caps the what-if (its capacity
 * bound) rather than being named here.
 */
export function slowMembers(members: MemberWindow[]): SlowMember[] {
    const slow: SlowMember[] = [];
    for (const m of members) {
        if (m.msPerMiB === null || m.busyShare < SLOW_MIN_BUSY) continue;
        const peers = members.filter(p => p !== m && p.role === m.role && p.msPerMiB !== null);
        const peerMsPerMiB = median(peers.map(p => p.msPerMiB!));
        if (peerMsPerMiB === null || m.msPerMiB < peerMsPerMiB * SLOW_RATIO) continue;
        slow.push({
            member: m.member, disk: m.disk, busyShare: m.busyShare, peerBusyShare: median(peers.map(p => p.busyShare))!,
            msPerMiB: m.msPerMiB, peerMsPerMiB, kiBs: m.kiBs, peerKiBs: median(peers.map(p => p.kiBs))!,
        });
    }
    return slow;
}

/** The slow members of an array's running sync, over the diagnosis's window; none before it has one. */
export function slowMembersOf(array: ArrayModel): SlowMember[] {
    const sync = array.sync;
    if (!sync || sync.runState !== 'running') return [];
    const window = syncWindow(array, sync.ioSamples);
    return 'facts' in window ? slowMembers(window.facts.members) : [];
}

/** Their names, space-separated: a value that stays the same while the same members are slow. */
export function slowMemberNames(array: ArrayModel): string {
    return slowMembersOf(array).map(m => m.member).join(' ');
}
