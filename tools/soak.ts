// SPDX-License-Identifier: LGPL-2.1-or-later
// `make soak`: does the page stay healthy open for days? It runs the built plugin in the same real
// cockpit-ws + cockpit-bridge + Chromium as `make bench`, on the simulated host rebuilding the
// seed's RAID6 (raid6-recovery: ~22 hours at 2 s a refresh), with the page's refreshes and the
// simulator's clock sped up alike, and samples through Chromium's DevTools protocol, after a
// forced garbage collection:
//
//   heapBytes   JS heap in use (Runtime.getHeapUsage)
//   nodes       DOM nodes alive, attached or not (Performance.getMetrics: Nodes)
//   listeners   JS event listeners (Performance.getMetrics: JSEventListeners)
//   timers      setTimeout/setInterval callbacks pending (counted by an init script that wraps them)
//   channels    Cockpit channels open: opened minus closed, from the control messages on the
//               page's websocket (what the bridge holds for the page)
//
// It prints each one's first sample after the warm-up, the last, the growth and the trend (least
// squares, per 10,000 refreshes), next to the previous run's (bench/results.json's `soak`), and
// writes them there under `soak`, keeping the other keys. A measurement, never a test.
//
//   node build/soak.mjs [--refreshes N] [--interval-ms N] [--samples N] [--warmup N]

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CDPSession, Page } from 'playwright-core';
import { launchBrowser, simulatedHostConfig, startCockpit, startSimulatedHost, type SimulatedHost } from './cockpit';
import { HARNESS_RUN, repoRoot } from './cockpit/proc';
import { lastRefreshSeq, pinBrowserSide, pinServerSide, previousResults, RESULTS, round } from './benchShared';

const SCENARIO = 'raid6-recovery';
/** The page's own pace while something syncs (src/ui/app/useHostModel.ts BUSY_INTERVAL_MS). */
const PRODUCTION_INTERVAL_MS = 2000;
/**
 * What a refresh costs besides its interval (read round trip, parse, render) on 2 shared cores,
 * so that the simulated clock advances about 2 s per refresh, as it does for an admin.
 */
const REFRESH_COST_MS = 60;
const POLL_MS = 250;

const FIGURES = ['heapBytes', 'nodes', 'listeners', 'timers', 'channels'] as const;
type Figure = typeof FIGURES[number];
type Sample = Record<Figure, number> & { refresh: number; seconds: number };

interface Options { refreshes: number; intervalMs: number; samples: number; warmup: number }

function options(): Options {
    const { values } = parseArgs({
        options: {
            refreshes: { type: 'string', default: '10000' },
            'interval-ms': { type: 'string', default: '20' },
            samples: { type: 'string', default: '20' },
            warmup: { type: 'string', default: '500' },
        },
    });
    const int = (name: keyof typeof values, min: number) => {
        const n = Number(values[name]);
        if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number >= ${min}, not ${values[name]}`);
        return n;
    };
    return {
        refreshes: int('refreshes', 1), intervalMs: int('interval-ms', 10), samples: int('samples', 2), warmup: int('warmup', 1),
    };
}

// Runs before the page's own scripts: every pending timer callback is in `live` until it ran or
// was cleared. Browsers share one id pool between timeouts and intervals, so either clear works.
const TIMER_COUNTER = `(() => {
    const live = new Set();
    const { setTimeout: st, clearTimeout: ct, setInterval: si, clearInterval: ci } = window;
    window.setTimeout = function (callback, ...rest) {
        if (typeof callback !== 'function') return st.call(window, callback, ...rest);
        const id = st.call(window, function (...args) { live.delete(id); return callback.apply(this, args); }, ...rest);
        live.add(id);
        return id;
    };
    window.setInterval = function (...args) {
        const id = si.apply(window, args);
        live.add(id);
        return id;
    };
    window.clearTimeout = function (id) { live.delete(id); return ct.call(window, id); };
    window.clearInterval = function (id) { live.delete(id); return ci.call(window, id); };
    window.__soakLiveTimers = () => live.size;
})();`;

/** Channels open between the page and the bridge, from the control messages on the websocket. */
function countOpenChannels(page: Page): () => number {
    const open = new Set<string>();
    const control = (payload: string | Buffer) => {
        const text = typeof payload === 'string' ? payload : payload.toString();
        if (!text.startsWith('\n')) return null; // a channel's data, "<channel>\n<data>"
        try {
            return JSON.parse(text.slice(1)) as { command?: string; channel?: string };
        } catch {
            return null;
        }
    };
    page.on('websocket', ws => {
        ws.on('framesent', ({ payload }) => {
            const message = control(payload);
            if (message?.command === 'open' && message.channel) open.add(message.channel);
            else if (message?.command === 'close' && message.channel) open.delete(message.channel);
        });
        ws.on('framereceived', ({ payload }) => {
            const message = control(payload);
            if (message?.command === 'close' && message.channel) open.delete(message.channel);
        });
    });
    return () => open.size;
}

async function sample(page: Page, cdp: CDPSession, channels: () => number, started: number): Promise<Sample> {
    // Twice: what a first collection finalises, a second one frees.
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (name: string) => metrics.find(m => m.name === name)?.value ?? NaN;
    const timers = await page.evaluate(() =>
        (window as unknown as { __soakLiveTimers: () => number }).__soakLiveTimers());
    return {
        refresh: await lastRefreshSeq(page),
        seconds: round((performance.now() - started) / 1000, 0),
        heapBytes: usedSize,
        nodes: metric('Nodes'),
        listeners: metric('JSEventListeners'),
        timers,
        channels: channels(),
    };
}

/** Least-squares slope of a figure over the refreshes, per 10,000 refreshes. */
function trendPer10k(samples: Sample[], figure: Figure): number {
    const n = samples.length;
    const mx = samples.reduce((s, p) => s + p.refresh, 0) / n;
    const my = samples.reduce((s, p) => s + p[figure], 0) / n;
    const sxy = samples.reduce((s, p) => s + (p.refresh - mx) * (p[figure] - my), 0);
    const sxx = samples.reduce((s, p) => s + (p.refresh - mx) ** 2, 0);
    return sxx ? round((sxy / sxx) * 10000, 1) : 0;
}

/** The rebuild's progress in the simulated host, from its /proc/mdstat ("recovery = 12.3%"). */
function rebuildProgress(sim: SimulatedHost): string {
    const mdstat = readFileSync(join(sim.procRoot, 'mdstat'), 'utf8');
    return /(?:recovery|resync|reshape|check|repair)\s*=\s*([\d.]+%)/.exec(mdstat)?.[1] ?? 'done';
}

interface SoakResults {
    date: string; scenario: string; refreshes: number; intervalMs: number; timeScale: number;
    minutes: number; simulatedHours: number; rebuild: [string, string]; pageErrors: number;
    first: Sample; last: Sample; growth: Record<Figure, number>; trendPer10k: Record<Figure, number>;
    samples: Sample[];
}

function printComparison(now: SoakResults, previous: SoakResults | undefined): void {
    const was = previous ? ` (previous run: ${previous.refreshes} refreshes)` : '';
    console.log(`soak: ${now.refreshes} refreshes in ${now.minutes} min, ${now.simulatedHours} simulated hours, ` +
        `rebuild ${now.rebuild[0]} -> ${now.rebuild[1]}, page errors ${now.pageErrors}${was}`);
    console.log(`  ${'figure'.padEnd(10)} ${'first'.padStart(10)} ${'last'.padStart(10)} ${'growth'.padStart(10)} ${'per 10k'.padStart(10)}` +
        (previous ? `   previous growth, per 10k` : ''));
    for (const figure of FIGURES) {
        const cells = [now.first[figure], now.last[figure], now.growth[figure], now.trendPer10k[figure]]
            .map(v => String(v).padStart(10));
        const before = previous ? `   ${previous.growth[figure]}, ${previous.trendPer10k[figure]}` : '';
        console.log(`  ${figure.padEnd(10)} ${cells.join(' ')}${before}`);
    }
}

async function main() {
    const opts = options();
    const run = `soak-${process.pid}`;
    process.env[HARNESS_RUN] = run;
    console.log(pinBrowserSide());
    // The simulated clock passes what 2 s of an admin's page would see per refresh.
    const timeScale = round((PRODUCTION_INTERVAL_MS + REFRESH_COST_MS) / (opts.intervalMs + REFRESH_COST_MS), 2);
    const sim = await startSimulatedHost({
        scenario: SCENARIO, args: ['--time-scale', String(timeScale), '--tick-ms', '100', '--quiet'],
    });
    const cockpit = await startCockpit({ config: { ...simulatedHostConfig(sim), refreshIntervalMs: opts.intervalMs } });
    const browser = await launchBrowser();
    try {
        const context = await browser.newContext();
        await context.addInitScript({ content: TIMER_COUNTER });
        const page = await context.newPage();
        let pageErrors = 0;
        page.on('pageerror', error => {
            pageErrors++;
            console.error(`page error: ${error.message}`);
        });
        page.on('console', message => {
            if (message.type() !== 'error') return;
            pageErrors++;
            console.error(`console error: ${message.text()}`);
        });
        const channels = countOpenChannels(page);
        const cdp = await context.newCDPSession(page);
        await cdp.send('Performance.enable');
        await page.goto(cockpit.barePageUrl);
        await page.waitForSelector('#array-md0');
        pinServerSide(run);
        const started = performance.now();
        const rebuildBefore = rebuildProgress(sim);

        const total = opts.warmup + opts.refreshes;
        const every = opts.refreshes / (opts.samples - 1);
        const marks = [opts.warmup,
            ...Array.from({ length: opts.samples - 1 }, (_, i) => Math.round(opts.warmup + every * (i + 1)))];
        const samples: Sample[] = [];
        for (const mark of marks) {
            while (await lastRefreshSeq(page) < mark) await new Promise(r => setTimeout(r, POLL_MS));
            const s = await sample(page, cdp, channels, started);
            samples.push(s);
            console.log(`  refresh ${s.refresh}/${total} (${s.seconds} s): ${FIGURES.map(f => `${f} ${s[f]}`).join(', ')}`);
        }
        const minutes = round((performance.now() - started) / 60000);
        const first = samples[0];
        const last = samples[samples.length - 1];
        const results: SoakResults = {
            date: new Date().toISOString(),
            scenario: SCENARIO,
            refreshes: last.refresh - first.refresh,
            intervalMs: opts.intervalMs,
            timeScale,
            minutes,
            simulatedHours: round((minutes / 60) * timeScale),
            rebuild: [rebuildBefore, rebuildProgress(sim)],
            pageErrors,
            first,
            last,
            growth: Object.fromEntries(FIGURES.map(f => [f, last[f] - first[f]])) as Record<Figure, number>,
            trendPer10k: Object.fromEntries(FIGURES.map(f => [f, trendPer10k(samples, f)])) as Record<Figure, number>,
            samples,
        };
        const previous = previousResults();
        printComparison(results, previous.soak as SoakResults | undefined);
        mkdirSync(join(repoRoot(), 'bench'), { recursive: true });
        writeFileSync(RESULTS(), JSON.stringify({ ...previous, soak: results }, null, 2) + '\n');
        console.log('written: bench/results.json (soak)');
        await context.close();
    } finally {
        await browser.stop();
        await cockpit.stop();
        await sim.stop();
    }
}

main().catch(error => {
    console.error(error);
    process.exit(1);
});
