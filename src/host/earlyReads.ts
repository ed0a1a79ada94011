// SPDX-License-Identifier: LGPL-2.1-or-later
// The two reads the first view waits for (the host's md state, the alerts' monitor), started as
// the page's script runs (index.tsx) rather than in React effects, which run only after the first
// render and paint: on a busy machine that is a few hundred milliseconds sooner. The first refresh
// and the alerts card's first read take these instead of starting their own.

import { readHostConfig } from './config';
import { readMonitorState } from './monitorAlerts';
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

export function startEarlyReads(): void {
    const { config } = readHostConfig();
    // As the first refresh reads: in full, with the page size (useHostModel.ts).
    gather ??= heldForLater(marked('early-gather', readGatherOutput(config, true, { full: true })));
    monitor ??= heldForLater(marked('early-monitor', readMonitorState(config)));
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
