// SPDX-License-Identifier: LGPL-2.1-or-later
// The page's first read, the host's md state that the first view waits for, started by index.tsx
// before the page's code (React, PatternFly, the model) has come rather than in a React effect: it
// runs while that code comes. The first refresh takes it instead of starting its own. (The alerts'
// monitor, which only the host settings below the first view show, is read once the first view is
// painted: App.tsx.)

import { readHostConfig } from './config';
import { readGatherOutput } from './readSnapshot';

let gather: Promise<string> | null = null;

/** A promise read later: its failure is then handled there, not reported as unhandled meanwhile. */
function heldForLater<T>(promise: Promise<T>): Promise<T> {
    promise.catch(() => undefined);
    return promise;
}

/** Marks on the page's timeline (tools/pageLoadTimeline.ts shows them): when the read started and came in. */
function marked<T>(name: string, promise: Promise<T>): Promise<T> {
    performance.mark(`raidtune:${name}-start`);
    void promise.then(() => performance.mark(`raidtune:${name}-in`), () => undefined);
    return promise;
}

export function startEarlyGather(): void {
    const { config } = readHostConfig();
    // As the first refresh reads: in full, with the page size (useHostModel.ts).
    gather ??= heldForLater(marked('early-gather', readGatherOutput(config, true, { full: true })));
}

/** The early md read, once; null when there was none or it was taken. */
export function takeEarlyGather(): Promise<string> | null {
    const read = gather;
    gather = null;
    return read;
}
