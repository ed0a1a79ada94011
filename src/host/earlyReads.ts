// SPDX-License-Identifier: LGPL-2.1-or-later
// The page's two first reads (the host's md state, which the first view waits for, and the alerts'
// monitor, which the host settings below it wait for), started as the page's script runs
// (index.tsx) rather than in React effects, which run only after the first render and paint: on a
// busy machine that is a few hundred milliseconds sooner. The first refresh and the monitor's first
// read take these instead of starting their own.

import { readHostConfig, type HostConfig } from './config';
import type { MonitorState } from '../md/alerts/monitor';
import { readGatherOutput } from './readSnapshot';

let gather: Promise<string> | null = null;
let monitor: Promise<MonitorState> | null = null;

/** A promise read later: its failure is then handled there, not reported as unhandled meanwhile. */
function heldForLater<T>(promise: Promise<T>): Promise<T> {
    promise.catch(() => undefined);
    return promise;
}

/** Marks on the page's timeline (tools/pageLoadTimeline.ts shows them): when a read started and came in. */
function marked<T>(name: string, promise: Promise<T>): Promise<T> {
    performance.mark(`raidtune:${name}-start`);
    void promise.then(() => performance.mark(`raidtune:${name}-in`), () => undefined);
    return promise;
}

/** The monitor's state, its reading code a chunk of its own: the first view does not wait for it. */
export function readMonitorLater(config: HostConfig): Promise<MonitorState> {
    return import('./monitorAlerts').then(module => module.readMonitorState(config));
}

export function startEarlyReads(): void {
    const { config } = readHostConfig();
    // As the first refresh reads: in full, with the page size (useHostModel.ts).
    gather ??= heldForLater(marked('early-gather', readGatherOutput(config, true, { full: true })));
    monitor ??= heldForLater(marked('early-monitor', readMonitorLater(config)));
}

/** The early md read, once; null when there was none or it was taken. */
export function takeEarlyGather(): Promise<string> | null {
    const read = gather;
    gather = null;
    return read;
}

export function takeEarlyMonitor(): Promise<MonitorState> | null {
    const read = monitor;
    monitor = null;
    return read;
}
