// SPDX-License-Identifier: LGPL-2.1-or-later
// What `make bench` (tools/bench.ts) and `make soak` (tools/soak.ts) share: the cores they pin the
// browser and the simulated server to, the page's refresh counter, bench/results.json.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { processesTagged, repoRoot } from './cockpit/proc';

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * The browser on one core, the simulated server (mdsim, cockpit-ws, cockpit-bridge and what it
 * spawns) on the other, as when an admin's browser shows a remote server: else the simulator's
 * ticks and the bridge's grep take the page's core too, and the page's timings measure them.
 * Children inherit the affinity: this process (and the browser it launches) gets core 0 first;
 * the server side is moved to core 1 once the page has logged in (the bridge exists then).
 */
export const PINNED = availableParallelism() >= 2;
const BROWSER_CORE = '0';
const SERVER_CORE = '1';

function pin(pid: number, core: string): void {
    execFileSync('taskset', ['-a', '-p', '-c', core, String(pid)], { stdio: 'ignore' });
}

/** Pins this process (and so the browser it launches next) to the browser's core; says how. */
export function pinBrowserSide(): string {
    if (PINNED) pin(process.pid, BROWSER_CORE);
    return PINNED ? `browser on core ${BROWSER_CORE}, simulated server on core ${SERVER_CORE}` : 'one core: browser and simulated server share it';
}

export function pinServerSide(run: string): void {
    if (!PINNED) return;
    for (const { pid, cmd } of processesTagged(run)) {
        if (/chrom/i.test(cmd)) continue;
        try {
            pin(pid, SERVER_CORE);
        } catch {
            // ended meanwhile
        }
    }
}

/** Number of the last refresh the page rendered (src/ui/app/refreshTiming.ts); 0 before the first. */
export async function lastRefreshSeq(page: Page): Promise<number> {
    return page.evaluate(() => {
        const entries = performance.getEntriesByName('raidtune:render') as PerformanceMeasure[];
        return entries.length ? (entries[entries.length - 1].detail as { seq: number }).seq : 0;
    });
}

/** Polls the page: seldom while its main-thread CPU time is measured, as each poll adds to it. */
export async function waitForSeq(page: Page, seq: number, pollMs = 50): Promise<void> {
    while (await lastRefreshSeq(page) < seq) await new Promise(r => setTimeout(r, pollMs));
}

export const RESULTS = () => join(repoRoot(), 'bench/results.json');

/** The committed bench/results.json ({} when missing or unreadable). */
export function previousResults(): Record<string, unknown> {
    try {
        return JSON.parse(readFileSync(RESULTS(), 'utf8')) as Record<string, unknown>;
    } catch {
        return {};
    }
}
