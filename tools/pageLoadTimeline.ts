// SPDX-License-Identifier: LGPL-2.1-or-later
// `node build/page-timeline.mjs`: one load of the page on the simulated host (as `make bench`
// measures it), with what the browser fetched and when (Resource Timing), the page's own marks,
// and when the overview's row of md0 appeared: where the time to content goes. Prints, asserts nothing.
import { launchBrowser, openPage, simulatedHostConfig, startCockpit, startSimulatedHost } from './cockpit';
import { pinBrowserSide } from './benchShared';

/** What `make bench` waits for: the overview's row of md0, its first view. */
const OVERVIEW_ROW = 'table.raidtune-overview tr[data-array="md0"]';

async function main() {
    console.log(pinBrowserSide());
    const sim = await startSimulatedHost({ scenario: 'raid6-recovery' });
    const cockpit = await startCockpit({ config: simulatedHostConfig(sim) });
    const browser = await launchBrowser();
    try {
        (await openPage(browser, cockpit.barePageUrl)).close();
        for (let load = 0; load < 3; load++) {
            const context = await browser.newContext();
            const page = await context.newPage();
            const start = performance.now();
            await page.goto(cockpit.barePageUrl);
            await page.waitForSelector(OVERVIEW_ROW);
            const total = performance.now() - start;
            // The main thread's long tasks (over 50 ms): what kept it from drawing or answering.
            const longTasks = await page.evaluate(() => new Promise<{ start: number; end: number }[]>(resolve => {
                const spans = (list: PerformanceObserverEntryList) =>
                    list.getEntries().map(e => ({ start: e.startTime, end: e.startTime + e.duration }));
                new PerformanceObserver(list => resolve(spans(list))).observe({ type: 'longtask', buffered: true });
                setTimeout(() => resolve([]), 1000);
            }));
            const entries = await page.evaluate(() => [
                ...performance.getEntriesByType('resource').map(e => {
                    const r = e as PerformanceResourceTiming;
                    return { name: r.name.replace(/^.*\/(cockpit|raidtune)\//, ''), start: r.startTime, end: r.responseEnd, size: r.transferSize };
                }),
                ...performance.getEntriesByType('mark').map(e => ({ name: `mark ${e.name}`, start: e.startTime, end: e.startTime, size: 0 })),
                ...performance.getEntriesByType('measure').map(e => ({ name: `measure ${e.name}`, start: e.startTime, end: e.startTime + e.duration, size: 0 })),
                ...performance.getEntriesByType('paint').map(e => ({ name: `paint ${e.name}`, start: e.startTime, end: e.startTime, size: 0 })),
            ]);
            entries.push(...longTasks.map(t => ({ ...t, name: 'long task', size: 0 })));
            console.log(`load ${load + 1}: ${Math.round(total)} ms to md0's overview row`);
            for (const e of entries.sort((a, b) => a.start - b.start))
                console.log(`  ${Math.round(e.start).toString().padStart(5)} -> ${Math.round(e.end).toString().padStart(5)}  ${e.size ? `${e.size} B `.padStart(9) : ''.padStart(9)} ${e.name}`);
            await context.close();
        }
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
