// SPDX-License-Identifier: LGPL-2.1-or-later
// Headless Debian/Fedora Chromium through playwright-core (never a downloaded browser), and pages
// that record every console error/warning, uncaught page error and Content-Security-Policy
// violation, in the page and in its iframes (the shell shows the plugin in an iframe).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { recordChannels } from './channelRecord';
import { chromiumProcesses, currentGpuProcess, describeRendering, producesFrames, type ChromiumProcess } from './frames';
import { tagEnv } from './proc';
import { cockpitUnderTest, type CockpitInstall } from './versions';
import { waitBudget } from './waitBudget';

/** Chromium: $RAIDTUNE_CHROMIUM, else Debian's /usr/bin/chromium or Fedora's chromium-browser. */
export const CHROMIUM = process.env.RAIDTUNE_CHROMIUM ||
    ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(p => existsSync(p)) || '/usr/bin/chromium';

// --disable-software-rasterizer: without it the GPU process, which composites every page's frames,
// also runs SwiftShader (a GPU emulated on the CPU, with threads of its own) for WebGL, which
// raidtune does not use. CI once saw a page's frames stop while its scripts ran on (frames.ts):
// one part fewer in the process every frame waits on; not proven to be the cause.
export const CHROMIUM_ARGS = [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-software-rasterizer', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export interface LaunchedBrowser extends Browser {
    /** Closes the browser (its temporary profile and log go with it). */
    stop(): Promise<void>;
    /** For a page that stopped rendering: does a new page render, Chromium's processes and last log lines. */
    renderingReport(): Promise<string>;
    /** This browser's processes, with their state. */
    processes(): ChromiumProcess[];
    /** The pid of the GPU process the browser uses now (it composites every page's frames); null if none. */
    gpuProcess(): Promise<number | null>;
}

/**
 * Launches /usr/bin/chromium headless. Playwright gives every launch a fresh temporary profile
 * (user-data-dir) and removes it on close; it refuses an explicit --user-data-dir for launch().
 * Chromium logs to a file of its own (Playwright keeps its stderr), read when a page stops rendering.
 */
export async function launchBrowser(): Promise<LaunchedBrowser> {
    const logDir = mkdtempSync(join(tmpdir(), 'raidtune-chromium-'));
    const logFile = join(logDir, 'chromium.log');
    const logSwitch = `--log-file=${logFile}`;
    try {
        const browser = await chromium.launch({
            executablePath: CHROMIUM,
            args: [...CHROMIUM_ARGS, '--enable-logging', logSwitch],
            env: tagEnv(process.env) as Record<string, string>,
            handleSIGINT: false, // the caller cleans up (jest hooks, the demo's own handler)
            handleSIGTERM: false,
            handleSIGHUP: false,
        });
        return Object.assign(browser, {
            stop: async () => {
                try {
                    await browser.close();
                } finally {
                    rmSync(logDir, { recursive: true, force: true });
                }
            },
            renderingReport: () => describeRendering(browser, logSwitch, logFile),
            processes: () => chromiumProcesses(logSwitch),
            gpuProcess: () => currentGpuProcess(browser),
        });
    } catch (err) {
        rmSync(logDir, { recursive: true, force: true });
        throw err;
    }
}

export type ProblemKind = 'console-error' | 'console-warning' | 'pageerror' | 'csp' | 'crash' | 'no-frames';

export interface Problem {
    kind: ProblemKind;
    text: string;
    /** The document (page or iframe) it came from, when known. */
    url?: string;
}

/**
 * What the shell of the Cockpit under test logs of its own on this machine (versions.ts). Ignored
 * only by exact text and only in pages whose top document is the shell; on the bare plugin page
 * nothing is ignored.
 */
export function isKnownShellNoise(problem: Problem, topUrl: string,
    cockpit: CockpitInstall = cockpitUnderTest()): boolean {
    if (!isShellUrl(topUrl))
        return false;
    if (problem.kind === 'pageerror')
        return cockpit.shellPageErrors.includes(problem.text);
    return problem.kind.startsWith('console') &&
        cockpit.shellConsoleNoise.some(n => n.text === problem.text && (n.urlEnd === undefined || (problem.url ?? '').endsWith(n.urlEnd)));
}

/** True for a URL of the shell (the top page), false for a package page (/cockpit/@host/pkg/...). */
function isShellUrl(url: string): boolean {
    try {
        const { pathname } = new URL(url);
        return !pathname.startsWith('/cockpit/') && !pathname.startsWith('/cockpit+');
    } catch {
        return false;
    }
}

export interface RecordedPage {
    readonly page: Page;
    readonly context: BrowserContext;
    /** Milliseconds of page.goto() until the load event (0 when no url was given). */
    readonly loadMs: number;
    /** Problems recorded so far (known shell noise excluded). */
    problems(): Problem[];
    /** Returns the problems recorded so far and forgets them (for tests that expect some). */
    takeProblems(): Problem[];
    /** Messages dropped as known shell noise. */
    ignored(): Problem[];
    /** Waits until problems pending in the page (CSP events sent to us) have arrived. */
    settle(): Promise<void>;
    /** When the page runs no animation frames (Playwright's clicks would time out): that, with the browser's state. */
    renderingProblem(): Promise<Problem | null>;
    /** Throws with a readable list if anything was recorded, or if the page stopped rendering. */
    expectNoProblems(): Promise<void>;
    /** Waits for the shell's plugin iframe (by name) and returns its frame. */
    waitForFrame(name: string, timeoutMs?: number): Promise<Frame>;
    /** Closes the page's context; what it logs while closing is not recorded. */
    close(): Promise<void>;
}

/** RAIDTUNE_DEBUG_CONSOLE=1 prints every browser console message to stderr. */
const debugConsole = process.env.RAIDTUNE_DEBUG_CONSOLE === '1';

const CSP_BINDING = '__raidtuneReportCspViolation';

// Runs in every new window (page and iframes) before the document's own scripts. The listener is
// on the window, not the document: the shell creates its iframes as about:blank and then navigates
// them to the same origin, and Chromium then keeps the Window (and this listener) for the new
// document without running init scripts again. The event bubbles from the element to the window.
const CSP_LISTENER = `(() => {
    if (window.__raidtuneCspListener)
        return;
    window.__raidtuneCspListener = true;
    window.addEventListener('securitypolicyviolation', event => {
        const report = {
            directive: event.effectiveDirective || event.violatedDirective,
            blocked: event.blockedURI,
            source: event.sourceFile,
            line: event.lineNumber,
            sample: event.sample,
            document: String(document.location),
        };
        try {
            window.${CSP_BINDING}(report);
        } catch (e) {
            console.error('CSP violation (could not report): ' + JSON.stringify(report));
        }
    }, true);
})();`;

interface CspReport {
    directive: string;
    blocked: string;
    source: string;
    line: number;
    sample: string;
    document: string;
}

export async function openPage(browser: LaunchedBrowser, url?: string,
    options: { timeoutMs?: number } = {}): Promise<RecordedPage> {
    const context = await browser.newContext();
    // Every wait and action of Playwright's without a timeout of its own (its default is 30 s).
    context.setDefaultTimeout(waitBudget(30000));
    try {
        let recorded: Problem[] = [];
        const ignored: Problem[] = [];
        let closing = false;
        const record = (problem: Problem) => {
            if (closing)
                return; // teardown noise, e.g. the shell's "transport closed: disconnected"
            if (isKnownShellNoise(problem, page.url()))
                ignored.push(problem);
            else
                recorded.push(problem);
        };

        await context.exposeBinding(CSP_BINDING, (_source, report: CspReport) => {
            const sample = report.sample ? ` sample "${report.sample}"` : '';
            const where = report.source ? ` at ${report.source}:${report.line}` : '';
            record({
                kind: 'csp',
                text: `securitypolicyviolation: ${report.directive} blocked ${report.blocked || '(inline)'}${sample}${where}`,
                url: report.document,
            });
        });
        await context.addInitScript({ content: CSP_LISTENER });

        const page = await context.newPage();
        page.on('console', message => {
            const type = message.type();
            const text = message.text();
            const where = message.location()?.url || undefined;
            if (debugConsole)
                process.stderr.write(`[browser console ${type}] ${JSON.stringify(text)} (${where})\n`);
            if (/Content[- ]Security[- ]Policy/i.test(text))
                record({ kind: 'csp', text: `console: ${text}`, url: where });
            else if (type === 'error')
                record({ kind: 'console-error', text, url: where });
            else if (type === 'warning')
                record({ kind: 'console-warning', text, url: where });
        });
        page.on('pageerror', error => {
            record({ kind: 'pageerror', text: error.stack || String(error), url: page.url() });
        });
        page.on('crash', () => record({ kind: 'crash', text: 'the page crashed', url: page.url() }));
        recordChannels(page);

        let loadMs = 0;
        if (url) {
            const t0 = performance.now();
            const response = await page.goto(url, { waitUntil: 'load', timeout: options.timeoutMs ?? waitBudget(30000) });
            loadMs = performance.now() - t0;
            if (response && response.status() >= 400)
                throw new Error(`GET ${url} answered ${response.status()} ${response.statusText()}`);
        }

        // A page that stopped rendering fails every later click by timeout, with an empty call log.
        const renderingProblem = async (): Promise<Problem | null> => {
            if (await producesFrames(page) !== false)
                return null;
            const report = await browser.renderingReport();
            return { kind: 'no-frames', text: `no animation frame in 3 s: the page stopped rendering\n${report}`, url: page.url() };
        };

        const settle = async () => {
            // Binding calls travel on the same connection before the answer to an evaluate in the
            // same frame, so one round trip per frame flushes pending CSP reports.
            await Promise.all(page.frames().map(f => f.evaluate(() => 0).catch(() => 0)));
        };

        return {
            page,
            context,
            loadMs,
            problems: () => [...recorded],
            takeProblems() {
                const taken = recorded;
                recorded = [];
                return taken;
            },
            ignored: () => [...ignored],
            settle,
            renderingProblem,
            async expectNoProblems() {
                await settle();
                const stalled = await renderingProblem();
                const problems = stalled ? [...recorded, stalled] : recorded;
                if (problems.length)
                    throw new Error(formatProblems(problems));
            },
            async waitForFrame(name: string, timeoutMs = waitBudget(30000)) {
                const handle = await page.waitForSelector(`iframe[name="${name}"]`, { state: 'attached', timeout: timeoutMs });
                const frame = await handle.contentFrame();
                if (!frame)
                    throw new Error(`iframe ${name} has no frame`);
                return frame;
            },
            async close() {
                closing = true;
                await context.close().catch(() => {});
            },
        };
    } catch (err) {
        await context.close().catch(() => {});
        throw err;
    }
}

export function formatProblems(problems: Problem[]): string {
    const lines = problems.map(p => `  [${p.kind}] ${p.text}${p.url ? `  (${p.url})` : ''}`);
    return `${problems.length} problem(s) in the browser:\n${lines.join('\n')}`;
}
