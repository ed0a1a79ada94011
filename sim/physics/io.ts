// SPDX-License-Identifier: LGPL-2.1-or-later
// The /proc/diskstats counters: sectors, requests, merges and busy time grow with what each
// device carried during a step (sync I/O and application I/O), so per-member load can be read
// from them like on a real host.

import { loadActive } from '../model/array';
import type { Disk, HostState, IoStats, MemberDevice, Partition } from '../model/types';
import { foregroundTraffic, perDeviceShare, syncTrafficFactors } from './traffic';

/** Average request size the counters assume. */
const REQUEST_KIB = 128;
/** Share of requests the scheduler merges into a neighbour. */
const MERGE_RATIO = 0.25;
/** Extra service time per request on a rotating disk (some seeking between streams). */
const ROTATIONAL_OVERHEAD_MS = 0.5;

interface Flow {
    readKiBs: number;
    writeKiBs: number;
}

class FlowTable<K> {
    readonly flows = new Map<K, Flow>();

    add(key: K, readKiBs: number, writeKiBs: number): void {
        const flow = this.flows.get(key) ?? { readKiBs: 0, writeKiBs: 0 };
        flow.readKiBs += readKiBs;
        flow.writeKiBs += writeKiBs;
        this.flows.set(key, flow);
    }
}

/** Count `seconds` of a flow on a device that can move `bandwidthKiBs`. */
function account(stats: IoStats, flow: Flow, seconds: number, bandwidthKiBs: number, rotational: boolean): void {
    const serviceMs = REQUEST_KIB / bandwidthKiBs * 1000 + (rotational ? ROTATIONAL_OVERHEAD_MS : 0);
    const readIos = flow.readKiBs * seconds / REQUEST_KIB;
    const writeIos = flow.writeKiBs * seconds / REQUEST_KIB;
    stats.readSectors += flow.readKiBs * seconds * 2;
    stats.writeSectors += flow.writeKiBs * seconds * 2;
    stats.readIos += readIos;
    stats.writeIos += writeIos;
    stats.readMerges += readIos * MERGE_RATIO;
    stats.writeMerges += writeIos * MERGE_RATIO;
    stats.readMs += readIos * serviceMs;
    stats.writeMs += writeIos * serviceMs;
    stats.weightedMs += (readIos + writeIos) * serviceMs;
    const utilisation = Math.min(1, (flow.readKiBs + flow.writeKiBs) / bandwidthKiBs);
    stats.ioTicksMs += utilisation * seconds * 1000;
    stats.inFlight = utilisation > 0 ? Math.max(1, Math.round(utilisation * 4)) : 0;
}

const IDLE: Flow = { readKiBs: 0, writeKiBs: 0 };

/** Account one step of all I/O: application I/O on arrays and disks, and every running sync. */
export function accountIo(state: HostState, seconds: number): void {
    if (seconds <= 0) return;
    const disks = new FlowTable<Disk>();
    const partitions = new FlowTable<Partition>();
    // A partition's I/O is counted on the partition and on its whole disk, as the block layer does.
    const addToDevice = (device: MemberDevice, readKiBs: number, writeKiBs: number) => {
        if (device.kind === 'partition') partitions.add(device.partition, readKiBs, writeKiBs);
        disks.add(device.kind === 'disk' ? device.disk : device.partition.disk, readKiBs, writeKiBs);
    };
    for (const disk of state.disks) {
        if (loadActive(disk.backgroundIo, state.time)) {
            disks.add(disk, disk.backgroundIo.readKiBs, disk.backgroundIo.writeKiBs);
        }
    }

    for (const array of state.arrays) {
        const traffic = foregroundTraffic(array, state.time);
        for (const t of traffic) addToDevice(t.member.device, t.read, t.write);
        const slowest = Math.min(...array.members.map(m => m.disk.bandwidthKiBs));
        account(array.stats, traffic.length ? array.competingIo! : IDLE, seconds, slowest, false);

        const sync = array.sync;
        if (sync?.status !== 'running' || sync.rateKiBs <= 0) continue;
        const perDevice = sync.rateKiBs * perDeviceShare(array);
        for (const t of syncTrafficFactors(array, sync.action)) {
            addToDevice(t.member.device, t.read * perDevice, t.write * perDevice);
        }
    }
    for (const disk of state.disks) {
        account(disk.stats, disks.flows.get(disk) ?? IDLE, seconds, disk.bandwidthKiBs, disk.queue.rotational);
        for (const partition of disk.partitions) {
            account(partition.stats, partitions.flows.get(partition) ?? IDLE, seconds, disk.bandwidthKiBs,
                disk.queue.rotational);
        }
    }
}
