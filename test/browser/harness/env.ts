// SPDX-License-Identifier: LGPL-2.1-or-later
// One real environment per test file: simulated md host + cockpit-ws/bridge serving the plugin
// (its config pointing at the simulated /proc and /sys) + headless Chromium with the plugin page
// open. After EACH test it fails on any console error/warning, page error or CSP violation
// recorded in any page the environment opened, then closes the pages the test opened.
//
//     const env = setupRaidtune({ scenario: 'raid6-recovery' });
//     test('shows the array', async () => {
//         await env.page.getByText('md0').waitFor();
//         await env.writeSim('/sys/block/md0/md/sync_speed_max', '5000');
//         const shell = await env.shellPage();         // the plugin inside the shell
//         await shell.frame.getByText('md0').waitFor();
//     });
//
// A test that expects a problem takes it with env.takeProblems() (or page.takeProblems()) so the
// check after the test does not see it.
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import {
    formatProblems, launchBrowser, openPage, simulatedHostConditions, simulatedHostConfig, startCockpit,
    startSimulatedHost, waitBudget,
    type Cockpit, type LaunchedBrowser, type Problem, type RaidtuneConfig, type RecordedPage, type SimulatedHost,
} from '../../../tools/cockpit';
import {
    BIG_SCENARIOS, BIG_SCENARIO_SETUP_MS, BIG_SCENARIO_WAIT_MS, endBigScenarioTurn, takeBigScenarioTurn,
} from './bigScenarioTurn';

export interface RaidtuneEnvOptions {
    /** Scenario of the simulated host (default 'raid6-recovery'); null: no simulated host. */
    scenario?: string | null;
    /** More mdsim options (e.g. ['--time-scale', '60'] to let simulated minutes pass in seconds). */
    simArgs?: string[];
    /** Plugin folder (default <repo>/dist). */
    pluginDir?: string;
    /** Manifest config override, merged over the simulated roots (procRoot, sysRoot). */
    config?: RaidtuneConfig;
    /** More packages for Cockpit to serve: name -> folder (e.g. a stand-in "storage"). */
    extraPackages?: Record<string, string>;
    /**
     * Top-level manifest keys for the override (default: `conditions` pointing at the simulated
     * /proc/mdstat, see simulatedHostConditions()).
     */
    manifest?: Record<string, unknown>;
    /** Open the bare plugin page in beforeAll (default true). */
    openBarePage?: boolean;
    /** After the bare page's load event, also wait for this selector (e.g. the app's root content). */
    readySelector?: string;
    /**
     * Open the bare page at this array's own page (#/md0) instead of the overview, and wait for its
     * card unless `readySelector` says otherwise.
     */
    arrayPage?: string;
    /**
     * Run Cockpit's session as this unprivileged user (no administrative access); the simulated
     * host is made readable, not writable, for it.
     */
    runAs?: string;
}

export interface ShellPage extends RecordedPage {
    /** The plugin's iframe inside the shell. */
    readonly frame: Frame;
}

export interface RaidtuneEnv {
    /** The bare plugin page (http://127.0.0.1:PORT/cockpit/@localhost/raidtune/index.html), loaded. */
    readonly page: Page;
    /** The bare page with its problem recorder. */
    readonly bare: RecordedPage;
    /** The simulated host (root, procRoot, sysRoot); throws when the env has no scenario. */
    readonly sim: SimulatedHost;
    readonly cockpit: Cockpit;
    readonly browser: Browser;
    /** Opens the plugin inside the shell (new browser context), at an array's page if named; closed after the test. */
    shellPage(arrayPage?: string): Promise<ShellPage>;
    /** Opens any path on the ws (or the bare page) in a new recorded page; closed after the current test. */
    openPage(path?: string): Promise<RecordedPage>;
    /** Absolute path inside the simulated host: simPath('/sys/block/md0/md/array_state'). */
    simPath(hostPath: string): string;
    /** Writes a value into a simulated file the way `tee` does (create/truncate + write; no mkdir). */
    writeSim(hostPath: string, value: string): Promise<void>;
    /** Takes (and forgets) the problems recorded so far in all open pages. */
    takeProblems(): Problem[];
}

const timings = process.env.RAIDTUNE_TIMINGS === '1';

function logTiming(what: string, ms: number) {
    if (timings)
        process.stderr.write(`raidtune timing: ${what} ${ms.toFixed(0)} ms\n`);
}

/** The address fragment of an array's own page ("#/md0"); empty for the overview. */
export function arrayFragment(name: string | undefined): string {
    return name === undefined ? '' : `#/${encodeURIComponent(name)}`;
}

/** Browser tests wait for real processes: 60 s per test and hook (waitBudget) unless a test says otherwise. */
export const BROWSER_TIMEOUT_MS = waitBudget(60000);

// (Not called useRaidtune: eslint's react-hooks rule would reject calling a "use..." function at
// the top level of a test file.)
/**
 * The simulated kernel's counters step once a tick. The page reads /proc and /sys a few milliseconds
 * apart and dates them by one /proc/uptime; a tick between those reads dates a counter a whole tick
 * wrong. At mdsim's default of 1 s that is 10% of a 10 s window (diagnosis.test.ts saw a capped
 * sync at 111% of its maximum), at 200 ms 2%, for ~5% of a core on a scenario of 20 disks. The
 * many-arrays scenario keeps 1 s: a tick of its 128 arrays takes ~70 ms of CPU.
 */
const SIM_TICK_MS = 200;
const simTickArgs = (big: boolean) => (big ? [] : ['--tick-ms', String(SIM_TICK_MS)]);

export function setupRaidtune(options: RaidtuneEnvOptions = {}): RaidtuneEnv {
    // The project's testTimeout in jest.config.js is not applied per project by jest 30.
    jest.setTimeout(BROWSER_TIMEOUT_MS);
    const scenario = options.scenario === undefined ? 'raid6-recovery' : options.scenario;
    let sim: SimulatedHost | undefined;
    let cockpit: Cockpit | undefined;
    let browser: LaunchedBrowser | undefined;
    let bare: RecordedPage | undefined;
    let perTest: RecordedPage[] = [];

    const need = <T>(value: T | undefined, what: string): T => {
        if (value === undefined) {
            const why = what === 'sim' && scenario === null ? 'this env has no scenario'
                : (what === 'page' || what === 'bare') && options.openBarePage === false ? 'openBarePage is false'
                    : 'only inside tests, after beforeAll';
            throw new Error(`env.${what} is not available (${why})`);
        }
        return value;
    };

    // Declared first, so its beforeAll runs before the env's and its afterAll after (jest runs
    // hooks of a kind in the order they were declared).
    const bigTurn = scenario !== null && BIG_SCENARIOS.has(scenario);
    let holdsTurn = false;
    if (bigTurn) beforeAll(async () => { await takeBigScenarioTurn(); holdsTurn = true; }, BIG_SCENARIO_WAIT_MS);

    const open = async (url: string) => {
        const recorded = await openPage(need(browser, 'browser'), url);
        perTest.push(recorded);
        return recorded;
    };

    beforeAll(async () => {
        if (scenario !== null) {
            sim = await startSimulatedHost({ scenario, args: [...simTickArgs(bigTurn), ...options.simArgs ?? []] });
            logTiming(`mdsim ${scenario} ready`, sim.startMs);
            // mkdtemp made the root 0700: let another user in, to read like on a real host.
            if (options.runAs) await chmod(sim.root, 0o755);
        }
        const config = sim || options.config
            ? { ...(sim ? simulatedHostConfig(sim) : {}), ...options.config }
            : undefined;
        cockpit = await startCockpit({
            pluginDir: options.pluginDir, config, extraPackages: options.extraPackages,
            manifest: options.manifest ?? (sim ? simulatedHostConditions(sim.procRoot) : undefined),
            runAs: options.runAs,
        });
        logTiming('cockpit-ws answering', cockpit.startMs);

        const t0 = performance.now();
        browser = await launchBrowser();
        logTiming('chromium launched', performance.now() - t0);

        if (options.openBarePage ?? true) {
            const t1 = performance.now();
            bare = await openPage(browser, cockpit.barePageUrl + arrayFragment(options.arrayPage));
            // The 128-array page's first full read and render took over 30 s (Playwright's default)
            // beside a loaded neighbour; the hook's own budget (BIG_SCENARIO_SETUP_MS) still bounds it.
            const ready = options.readySelector ?? (options.arrayPage && `#array-${options.arrayPage}`);
            if (ready)
                await bare.page.waitForSelector(ready,
                    { timeout: bigTurn ? BIG_SCENARIO_SETUP_MS : undefined });
            logTiming('bare page loaded', performance.now() - t1);
        }
    }, bigTurn ? BIG_SCENARIO_SETUP_MS : BROWSER_TIMEOUT_MS);

    afterEach(async () => {
        const pages = bare ? [bare, ...perTest] : perTest;
        const problems: Problem[] = [];
        for (const p of pages) {
            await p.settle();
            problems.push(...p.takeProblems());
            const stalled = await p.renderingProblem();
            if (stalled) problems.push(stalled);
        }
        const closing = perTest;
        perTest = [];
        await Promise.all(closing.map(p => p.close()));
        if (problems.length)
            throw new Error(formatProblems(problems));
    }, BROWSER_TIMEOUT_MS);

    afterAll(async () => {
        // Stop everything even if one step fails; report the first failure.
        const errors: unknown[] = [];
        const attempt = async (step: (() => Promise<unknown>) | undefined) => {
            try {
                await step?.();
            } catch (err) {
                errors.push(err);
            }
        };
        await attempt(async () => { await Promise.all(perTest.map(p => p.close())); });
        await attempt(bare?.close);
        await attempt(browser?.stop);
        await attempt(cockpit?.stop);
        await attempt(sim?.stop);
        perTest = [];
        bare = undefined;
        browser = undefined;
        cockpit = undefined;
        sim = undefined;
        if (errors.length)
            throw errors[0];
    }, BROWSER_TIMEOUT_MS);
    if (bigTurn) afterAll(async () => { if (holdsTurn) await endBigScenarioTurn(); holdsTurn = false; });

    const simPath = (hostPath: string) => join(need(sim, 'sim').root, hostPath);

    return {
        get page() { return need(bare, 'page').page; },
        get bare() { return need(bare, 'bare'); },
        get sim() { return need(sim, 'sim'); },
        get cockpit() { return need(cockpit, 'cockpit'); },
        get browser() { return need(browser, 'browser'); },
        async shellPage(arrayPage?: string) {
            const c = need(cockpit, 'cockpit');
            const recorded = await open(c.shellUrl + arrayFragment(arrayPage));
            const frame = await recorded.waitForFrame(c.shellFrameName);
            await frame.waitForLoadState('load');
            return Object.assign(recorded, { frame });
        },
        openPage(path?: string) {
            const c = need(cockpit, 'cockpit');
            return open(path === undefined ? c.barePageUrl : c.url(path));
        },
        simPath,
        async writeSim(hostPath: string, value: string) {
            await writeFile(simPath(hostPath), value);
        },
        takeProblems() {
            const pages = bare ? [bare, ...perTest] : perTest;
            return pages.flatMap(p => p.takeProblems());
        },
    };
}
