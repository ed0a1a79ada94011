// SPDX-License-Identifier: LGPL-2.1-or-later
// `node build/page-timeline.mjs`: one load of the page on the simulated host (as `make bench`
// measures it), with what the browser fetched and when (Resource Timing), the page's own marks,
// and when the first array card appeared: where the time to content goes. Prints, asserts nothing.
import { launchBrowser, openPage, simulatedHostConfig, startCockpit, startSimulatedHost } from './cockpit';
import { pinBrowserSide } from './benchShared';

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
            await page.waitForSelector('#array-md0');
            const total = performance.now() - start;
            const entries = await page.evaluate(() => [
                ...performance.getEntriesByType('resource').map(e => {
                    const r = e as PerformanceResourceTiming;
                    return { name: r.name.replace(/^.*\/(cockpit|raidtune)\//, ''), start: r.startTime, end: r.responseEnd, size: r.transferSize };
                }),
                ...performance.getEntriesByType('mark').map(e => ({ name: `mark ${e.name}`, start: e.startTime, end: e.startTime, size: 0 })),
                ...performance.getEntriesByType('paint').map(e => ({ name: `paint ${e.name}`, start: e.startTime, end: e.startTime, size: 0 })),
            ]);
            console.log(`load ${load + 1}: ${Math.round(total)} ms to #array-md0`);
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
