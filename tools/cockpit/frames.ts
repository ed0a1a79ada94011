// SPDX-License-Identifier: LGPL-2.1-or-later
// Is a page still rendering? Playwright waits for animation frames before every click (its
// "stable" check) and between polls of waitForFunction, so a page whose frames stopped makes each
// of them time out with nothing in the call log to say why, while its scripts still answer. This
// tells that case apart from a slow page, and gathers what could explain it: whether a new page of
// the same browser renders, the state of each Chromium process, and Chromium's own last log lines.
import { readdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { procStat } from './proc';

/** True when the page runs an animation frame within `withinMs`; null when it cannot be asked (closed). */
export async function producesFrames(page: Page, withinMs = 3000): Promise<boolean | null> {
    try {
        return await page.evaluate(ms => new Promise<boolean>(resolve => {
            const timer = setTimeout(() => resolve(false), ms);
            requestAnimationFrame(() => { clearTimeout(timer); resolve(true); });
        }), withinMs);
    } catch {
        return null;
    }
}

export interface ChromiumProcess {
    pid: number;
    /** browser, gpu-process, renderer, utility, zygote */
    type: string;
    /** As in /proc/PID/stat: R running, S sleeping, D in uninterruptible I/O, T stopped. */
    state: string;
    cpuSeconds: number;
}

/** The processes whose command line names `marker` (a switch every process of one browser is given). */
export function chromiumProcesses(marker: string): ChromiumProcess[] {
    const ticksPerSecond = 100; // USER_HZ on Linux
    const found: ChromiumProcess[] = [];
    for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        try {
            // Processes forked by Chromium's zygote rewrite their command line as one string, the
            // arguments joined by spaces.
            const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split(/[\0 ]/);
            if (!args.includes(marker)) continue;
            const fields = procStat(Number(entry));
            const type = args.find(a => a.startsWith('--type='))?.slice('--type='.length) ?? 'browser';
            const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / ticksPerSecond; // utime + stime
            found.push({ pid: Number(entry), type, state: fields[0], cpuSeconds });
        } catch {
            // gone meanwhile
        }
    }
    return found;
}

/** Chromium's last log lines, without the D-Bus complaints of a machine without a session bus. */
function logTail(logFile: string, lines: number): string[] {
    try {
        return readFileSync(logFile, 'utf8').split('\n').filter(l => l && !/dbus\//.test(l)).slice(-lines);
    } catch (err) {
        return [`(no log: ${(err as Error).message})`];
    }
}

/** Whether a page opened now in `browser` renders; its own answer when it cannot tell in `withinMs`. */
async function freshPageRenders(browser: Browser, withinMs: number): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>(resolve => { timer = setTimeout(() => resolve(`no answer in ${withinMs / 1000} s`), withinMs); });
    const probe = (async () => {
        const context = await browser.newContext();
        try {
            return String(await producesFrames(await context.newPage()));
        } finally {
            await context.close();
        }
    })().catch(err => `could not open one: ${(err as Error).message}`);
    try {
        return await Promise.race([probe, late]);
    } finally {
        clearTimeout(timer);
    }
}

/**
 * The process Chromium itself names as its GPU process now (DevTools' SystemInfo.getProcessInfo),
 * null when it names none or cannot be asked. A process list can hold a GPU process that is
 * already on its way out while its successor composites; only the browser knows which is current.
 */
export async function currentGpuProcess(browser: Browser): Promise<number | null> {
    try {
        const session = await browser.newBrowserCDPSession();
        try {
            const { processInfo } = await session.send('SystemInfo.getProcessInfo') as
                { processInfo: { type: string; id: number }[] };
            return processInfo.find(p => p.type === 'GPU')?.id ?? null;
        } finally {
            await session.detach();
        }
    } catch {
        return null;
    }
}

/** One line per process: pid, type, state and CPU time. */
export function formatProcesses(processes: ChromiumProcess[]): string[] {
    return processes.map(p => `    ${p.pid} ${p.type} state ${p.state}, ${p.cpuSeconds.toFixed(1)} s of CPU`);
}

/** What a stalled page's report says about the browser it runs in. */
export async function describeRendering(browser: Browser, logSwitch: string, logFile: string): Promise<string> {
    const fresh = await freshPageRenders(browser, 10000);
    const gpu = await currentGpuProcess(browser);
    return [
        `  a new page of the same browser renders: ${fresh}`,
        `  the GPU process, as Chromium names it: ${gpu ?? 'none named'}`,
        '  Chromium processes:', ...formatProcesses(chromiumProcesses(logSwitch)),
        '  Chromium log, last lines:', ...logTail(logFile, 30).map(l => `    ${l}`),
    ].join('\n');
}
