// SPDX-License-Identifier: LGPL-2.1-or-later
// `make bench`: measures (never asserts) what a refresh and a page load cost, in the same real
// cockpit-ws + cockpit-bridge + Chromium the browser tests use, on the simulated md host.
// Prints the figures next to the previous run's (the committed bench/results.json), then writes
// bench/results.json anew. `node build/bench.mjs 128` measures only the refresh of those cases,
// `node build/bench.mjs pageload` only the page load; both print and write nothing (for quick
// comparisons while working). The refresh figures are taken
// with the first syncing array's card at the top of the view (scrollToFirstSync).
//
//   refresh.<n>.roundTrips   channels the page opened to the bridge per refresh (websocket frames)
//   refresh.<n>.bridgeCpuMs  CPU time of cockpit-bridge and what it spawned, per refresh
//   refresh.<n>.wallMs       refresh start to rendered, median (read round trip + model + React)
//   refresh.<n>.mainThreadMs read + parse + render in the page: parseGatherOutput + buildModel +
//                            React render, median (before 2026-11-23 the parse was left out)
//   refresh.<n>.mainThreadRangeMs  its lowest and highest sample (the spread: 2 shared cores)
//   refresh.<n>.parseMs / buildMs / renderMs  the medians of its three parts
//   refresh.<n>.fullReads    how many of the measured refreshes were full reads (the others fast
//                            ones: while something syncs, src/md/modelBuilder.ts)
//   refresh.<n>.mainThreadFullReadMs / mainThreadFastReadMs  mainThreadMs's median of each kind
//   refresh.<n>.mainThreadCpuMs  CPU time of the page's main thread per refresh, all work included
//                            (websocket, cockpit.js, layout, GC), from Chromium's ThreadTime metric:
//                            unlike the timings above, not inflated when other processes take the CPU
//   pageLoad.raidtuneMs / blankMs  navigation to content, median of several loads, raidtune (its
//                            overview's first row) vs a blank page served by the same Cockpit from
//                            the same package; raidtuneArrayMs: an array's own page opened by its address
//   pageLoad.storageMs       the same for Cockpit's own Storage page (cockpit-storaged, 287, with
//                            udisks2 on a private system bus; `make bench` sets it up, else null)
//   pageLoad.floorMs         the same for a page that makes raidtune's first two reads and shows
//                            "ready" when both are in, with no UI (tools/benchFloorPage.ts): what
//                            the transport and the reads cost before any of raidtune's UI runs
//   pageLoad.floorFileMs     the same for a page that reads /proc/mdstat alone as a file, no spawn
//                            (the floor of a first view built from it, which raidtune does not have)
//   bundle.*                 what the first view loads (build/first-view.json), raw and gzipped;
//                            laterJs*: the chunks loaded later

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchBrowser, openPage, simulatedHostConfig, startCockpit, startSimulatedHost, type LaunchedBrowser } from './cockpit';
import { HARNESS_RUN, processesTagged, repoRoot } from './cockpit/proc';
import { lastRefreshSeq, pinBrowserSide, pinServerSide, previousResults, RESULTS, round, waitForSeq } from './benchShared';

// Four full reads and sixteen fast ones while something syncs (src/md/modelBuilder.ts FULL_READ_EVERY = 5).
const REFRESHES_MEASURED = 20;
const PAGE_LOADS = 7;
const CLOCK_TICKS_PER_S = 100;
// 128 arrays x 16 disks take a while to create when the 2 cores are busy.
const SIM_READY_MS = 60000;

const CASES = [
    { arrays: 1, scenario: 'raid6-recovery' },
    { arrays: 16, scenario: join(repoRoot(), 'bench/scenarios/sixteen-arrays.json') },
    { arrays: 128, scenario: 'many-arrays' },
];

interface RefreshFigures {
    roundTrips: number; bridgeCpuMs: number; wallMs: number; mainThreadMs: number;
    mainThreadRangeMs?: [number, number]; parseMs?: number; buildMs?: number; renderMs?: number;
    mainThreadCpuMs?: number;
    fullReads?: number; mainThreadFullReadMs?: number | null; mainThreadFastReadMs?: number | null;
}

const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** utime + stime + children's (reaped spawns) of the run's cockpit-bridge processes, in ms. */
function bridgeCpuMs(run: string): number {
    let ticks = 0;
    for (const { pid, cmd } of processesTagged(run)) {
        if (!cmd.includes('cockpit-bridge')) continue;
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // fields[11..14] = utime, stime, cutime, cstime (stat fields 14-17)
        ticks += fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0);
    }
    return (ticks * 1000) / CLOCK_TICKS_PER_S;
}

/** Opened channels, counted from the control messages the page sends over the websocket. */
function countChannelOpens(page: Page): () => number {
    let opens = 0;
    page.on('websocket', ws => ws.on('framesent', frame => {
        const payload = typeof frame.payload === 'string' ? frame.payload : frame.payload.toString();
        if (payload.startsWith('\n') && payload.includes('"command":"open"')) opens++;
    }));
    return () => opens;
}

const QUIET_POLL_MS = 1000;

/** The page's main-thread CPU time so far, in ms (Chromium's Performance domain). */
async function mainThreadCpu(page: Page): Promise<() => Promise<number>> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    return async () => {
        const { metrics } = await cdp.send('Performance.getMetrics');
        return (metrics.find(m => m.name === 'ThreadTime')?.value ?? NaN) * 1000;
    };
}

/**
 * The view an admin opens the page for: the first syncing array's card at the top. Cards far off
 * screen let a sync's progress lag (src/ui/arrays/cardFreshness.ts), so at the page's top, above
 * 100 idle arrays, a refresh would cost less than what is measured here.
 */
async function scrollToFirstSync(page: Page): Promise<void> {
    await page.evaluate(() => document.querySelector('.raidtune-sync')?.closest('.raidtune-array-card')?.scrollIntoView({ block: 'start' }));
}

async function measureRefresh(browser: LaunchedBrowser, run: string, scenario: string): Promise<RefreshFigures> {
    const sim = await startSimulatedHost({ scenario, timeoutMs: SIM_READY_MS });
    const cockpit = await startCockpit({ config: simulatedHostConfig(sim) });
    try {
        const context = await browser.newContext();
        const page = await context.newPage();
        const opens = countChannelOpens(page);
        const threadTime = await mainThreadCpu(page);
        await page.goto(cockpit.barePageUrl);
        await waitForSeq(page, 2); // past the first load
        await scrollToFirstSync(page);
        pinServerSide(run);
        await waitForSeq(page, 4);
        const startSeq = await lastRefreshSeq(page);
        const opensBefore = opens();
        const cpuBefore = bridgeCpuMs(run);
        const threadBefore = await threadTime();
        await waitForSeq(page, startSeq + REFRESHES_MEASURED, QUIET_POLL_MS);
        const threadAfter = await threadTime();
        const cpuAfter = bridgeCpuMs(run);
        const opensAfter = opens();
        const timings = await page.evaluate(({ from, to }) => {
            const byName = (name: string) => (performance.getEntriesByName(name) as PerformanceMeasure[])
                .filter(e => (e.detail as { seq: number }).seq > from && (e.detail as { seq: number }).seq <= to);
            const renders = new Map(byName('raidtune:render').map(e => [(e.detail as { seq: number }).seq, e.duration]));
            return byName('raidtune:refresh').map(e => {
                const d = e.detail as { seq: number; full: boolean; parseMs: number; buildMs: number };
                const render = renders.get(d.seq) ?? 0;
                return {
                    wall: e.duration + render, main: d.parseMs + d.buildMs + render, parse: d.parseMs, build: d.buildMs,
                    render, full: d.full,
                };
            });
        }, { from: startSeq, to: startSeq + REFRESHES_MEASURED });
        await context.close();
        const mains = timings.map(t => t.main);
        const ofKind = (full: boolean) => timings.filter(t => t.full === full).map(t => t.main);
        return {
            roundTrips: round((opensAfter - opensBefore) / REFRESHES_MEASURED, 2),
            bridgeCpuMs: round((cpuAfter - cpuBefore) / REFRESHES_MEASURED),
            wallMs: round(median(timings.map(t => t.wall))),
            mainThreadMs: round(median(mains)),
            mainThreadRangeMs: [round(Math.min(...mains)), round(Math.max(...mains))],
            parseMs: round(median(timings.map(t => t.parse))),
            buildMs: round(median(timings.map(t => t.build))),
            renderMs: round(median(timings.map(t => t.render))),
            mainThreadCpuMs: round((threadAfter - threadBefore) / REFRESHES_MEASURED),
            fullReads: ofKind(true).length,
            mainThreadFullReadMs: ofKind(true).length ? round(median(ofKind(true))) : null,
            mainThreadFastReadMs: ofKind(false).length ? round(median(ofKind(false))) : null,
        };
    } finally {
        await cockpit.stop();
        await sim.stop();
    }
}

/**
 * A copy of dist/ (by symlinks) plus blank.html, an empty page of the same package, and
 * floor.html, the first view's reads without the UI.
 */
function pluginWithBenchPages(): string {
    const dir = mkdtempSync(join(tmpdir(), 'raidtune-bench-plugin-'));
    const dist = join(repoRoot(), 'dist');
    for (const entry of readdirSync(dist)) symlinkSync(join(dist, entry), join(dir, entry));
    writeFileSync(join(dir, 'blank.html'),
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>blank</title>' +
        '<script src="../base1/cockpit.js"></script><script src="blank.js" defer></script></head>' +
        '<body><div id="app"></div></body></html>\n');
    writeFileSync(join(dir, 'blank.js'),
        'cockpit.transport.wait(function () { document.getElementById("app").setAttribute("data-ready", ""); });\n');
    symlinkSync(join(repoRoot(), 'build', 'bench-floor.js'), join(dir, 'floor.js'));
    writeFileSync(join(dir, 'floor.html'),
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>floor</title>' +
        '<script src="../base1/cockpit.js"></script><script src="../manifests.js"></script>' +
        '<script src="floor.js" defer></script></head><body><div id="app"></div></body></html>\n');
    return dir;
}

/**
 * Milliseconds from the start of the page's navigation to the first animation frame in which
 * `selector` matches, as the page's own clock tells. Playwright's waitForSelector asks at 0, 20,
 * 50, 100 and 100 ms, then every 500 ms: a page whose content came after its load event was
 * counted at the next of those asks, up to half a second late (doc/benchmarks.md).
 */
async function timeToContent(browser: LaunchedBrowser, url: string, selector: string): Promise<number> {
    const samples: number[] = [];
    for (let i = 0; i < PAGE_LOADS; i++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(url, { waitUntil: 'commit' });
        const shown = await page.waitForFunction(css => document.querySelector(css) && performance.now(), selector,
            { polling: 'raf' });
        samples.push(await shown.jsonValue() as number);
        await context.close();
    }
    return round(median(samples), 0);
}

type PageLoad = {
    raidtuneMs: number; raidtuneArrayMs?: number; blankMs: number; floorMs: number; floorFileMs: number;
    storageMs?: number | null;
};

/**
 * Cockpit's own Storage page (cockpit-storaged), where `make bench` set it up
 * (tools/install-storage-page.sh); null without it (`node build/bench.mjs` alone).
 */
const STORAGE_PAGE = process.env.RAIDTUNE_STORAGE_PAGE || null;

/** The blank and floor pages' content: their #app marked ready (the transport up; the reads in). */
const READY = '#app[data-ready]';

async function measurePageLoad(browser: LaunchedBrowser): Promise<PageLoad> {
    const sim = await startSimulatedHost({ scenario: 'raid6-recovery' });
    const pluginDir = pluginWithBenchPages();
    // The Storage page in the same Cockpit, its udisks2 on a private system bus: one run, one machine state.
    const cockpit = await startCockpit({
        pluginDir, config: simulatedHostConfig(sim),
        ...(STORAGE_PAGE ? { udisks: true, extraPackages: { storage: STORAGE_PAGE } } : {}),
    });
    try {
        // One warm-up each so both pay the same cold caches.
        const page = await openPage(browser, cockpit.barePageUrl);
        await page.close();
        return {
            // The overview's row of md0 (its first view), and md0's own page opened by its address.
            raidtuneMs: await timeToContent(browser, cockpit.barePageUrl, 'table.raidtune-overview tr[data-array="md0"]'),
            raidtuneArrayMs: await timeToContent(browser, `${cockpit.barePageUrl}#/md0`, '#array-md0 .raidtune-sync'),
            blankMs: await timeToContent(browser, cockpit.url('/cockpit/@localhost/raidtune/blank.html'), READY),
            floorMs: await timeToContent(browser, cockpit.url('/cockpit/@localhost/raidtune/floor.html'), READY),
            floorFileMs: await timeToContent(browser,
                cockpit.url('/cockpit/@localhost/raidtune/floor.html?read=mdstat-file'), READY),
            // Its first view: the page's devices and file systems, read from udisks2.
            storageMs: STORAGE_PAGE
                ? await timeToContent(browser, cockpit.url('/cockpit/@localhost/storage/index.html'), STORAGE_CONTENT)
                : null,
        };
    } finally {
        await cockpit.stop();
        await sim.stop();
        rmSync(pluginDir, { recursive: true, force: true });
    }
}

/** The Storage page (287) has shown its content: its main view, drawn once udisks2 answered. */
const STORAGE_CONTENT = '#main-storage';

/** What the first view loads (build/first-view.json, from the build: index.js and the chunks it
 *  imports statically; index.css), each file gzipped alone as it is served; and the later chunks. */
function bundleSizes() {
    const size = (files: string[]) => {
        const data = files.map(file => readFileSync(join(repoRoot(), 'dist', file)));
        const total = (bytes: (d: Buffer) => number) => data.reduce((sum, d) => sum + bytes(d), 0);
        return { raw: total(d => d.length), gzip: total(d => gzipSync(d, { level: 9 }).length) };
    };
    type FirstView = { js: string[]; css: string[]; later: string[] };
    const firstView = JSON.parse(readFileSync(join(repoRoot(), 'build/first-view.json'), 'utf8')) as FirstView;
    const js = size(firstView.js);
    const css = size(firstView.css);
    const later = size(firstView.later);
    return {
        jsBytes: js.raw, jsGzipBytes: js.gzip, cssBytes: css.raw, cssGzipBytes: css.gzip,
        laterJsBytes: later.raw, laterJsGzipBytes: later.gzip,
    };
}

/** One line per figure: previous run, this run. */
function printComparison(title: string, figures: object, previous: object | undefined) {
    console.log(`${title}${previous ? ' (previous -> now)' : ''}:`);
    for (const [key, value] of Object.entries(figures)) {
        const before = (previous as Record<string, unknown> | undefined)?.[key];
        const shown = (v: unknown) => (Array.isArray(v) ? v.join('..') : String(v));
        console.log(`  ${key.padEnd(18)} ${before === undefined ? '' : `${shown(before).padStart(12)} -> `}${shown(value)}`);
    }
}

async function main() {
    const pageLoadOnly = process.argv[2] === 'pageload';
    const only = pageLoadOnly ? [0] : process.argv.slice(2).map(Number);
    const run = `bench-${process.pid}`;
    process.env[HARNESS_RUN] = run;
    console.log(pinBrowserSide());
    type Previous = { refresh?: Record<string, RefreshFigures>; pageLoad?: PageLoad; bundle?: object; soak?: unknown };
    const previous = previousResults() as Previous;
    const browser = await launchBrowser();
    const results: Record<string, unknown> = { date: new Date().toISOString(), refresh: {} };
    try {
        for (const { arrays, scenario } of CASES) {
            if (only.length && !only.includes(arrays)) continue;
            const figures = await measureRefresh(browser, run, scenario);
            (results.refresh as Record<string, RefreshFigures>)[arrays] = figures;
            printComparison(`refresh, ${arrays} arrays`, figures, previous.refresh?.[arrays]);
        }
        if (only.length && !pageLoadOnly) return;
        const pageLoad = await measurePageLoad(browser);
        results.pageLoad = pageLoad;
        printComparison('page load', pageLoad, previous.pageLoad);
        if (pageLoadOnly) return;
    } finally {
        await browser.stop();
    }
    const bundle = bundleSizes();
    results.bundle = bundle;
    printComparison('bundle', bundle, previous.bundle);
    mkdirSync(join(repoRoot(), 'bench'), { recursive: true });
    // `make soak`'s figures are its own run's: kept until it runs again.
    const { soak } = previous;
    writeFileSync(RESULTS(), JSON.stringify(soak === undefined ? results : { ...results, soak }, null, 2) + '\n');
    console.log('written: bench/results.json');
}

main().catch(error => {
    console.error(error);
    process.exit(1);
});
