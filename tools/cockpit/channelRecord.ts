// SPDX-License-Identifier: LGPL-2.1-or-later
// Which ways of talking to the bridge each browser test uses: every channel a page opens, by kind
// (its payload and the options in which bridges differ), whether the page writes into it, and how
// each ended (a problem, an exit status). Recorded per test into the file $RAIDTUNE_CHANNEL_RECORD
// (one JSON line per test and kind), so tools/channel-guard.mjs can check that every kind a test
// uses on Cockpit 287 has a test on 372, where only part of the files run again. Reads the
// websocket frames of pages opened alone (not in the shell: see recordChannels).
import { appendFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/** What an open command says of a channel, in the words the guard compares. */
export function channelKind(open: Record<string, unknown>): string {
    const parts = [String(open.payload)];
    if (Array.isArray(open.spawn))
        parts.push('spawn');
    for (const option of ['bus', 'superuser', 'err', 'binary']) {
        if (open[option] !== undefined)
            parts.push(`${option}=${String(open[option])}`);
    }
    if (Array.isArray(open.environ) && open.environ.length)
        parts.push('environ');
    return parts.join(' ');
}

/** How a channel ended, from the bridge's close command. */
export function channelEnd(close: Record<string, unknown>): string {
    if (close.problem)
        return `problem=${String(close.problem)}`;
    if (close['exit-status'] !== undefined)
        return Number(close['exit-status']) === 0 ? 'exit=0' : 'exit!=0';
    if (close['exit-signal'] !== undefined)
        return 'signal';
    return 'closed';
}

/** The control message in a frame ("\n{json}" on the channel-less control channel), if any. */
function controlMessage(payload: string | Buffer): Record<string, unknown> | null {
    const text = typeof payload === 'string' ? payload : payload.toString('utf8', 0, Math.min(payload.length, 4096));
    if (!text.startsWith('\n{'))
        return null;
    try {
        return JSON.parse(text.slice(1));
    } catch {
        return null;
    }
}

/** The running jest test's name ("(setup) FILE" outside a test); null outside jest. */
function currentTest(): { test: string; file: string } | null {
    type JestExpect = { getState(): { currentTestName?: string; testPath?: string } };
    const jestExpect = (globalThis as { expect?: JestExpect }).expect;
    if (!jestExpect)
        return null;
    const { currentTestName, testPath } = jestExpect.getState();
    // The path in the repository, wherever the clone is (its own path may hold a "test/" too).
    const file = /(?:^|\/)(test\/(?:unit|browser|vm)\/.*)$/.exec(testPath ?? '')?.[1] ?? testPath ?? '';
    return { test: currentTestName ?? `(setup) ${file}`, file };
}

const written = new Set<string>();

/** Records the page's channels into $RAIDTUNE_CHANNEL_RECORD, when it is set. */
export function recordChannels(page: Page): void {
    const sink = process.env.RAIDTUNE_CHANNEL_RECORD;
    if (!sink)
        return;
    const note = (kind: string) => {
        const test = currentTest();
        if (!test)
            return;
        const line = JSON.stringify({ ...test, kind });
        if (written.has(line))
            return;
        written.add(line);
        appendFileSync(sink, line + '\n');
    };
    page.on('websocket', socket => {
        // Only a page of a package opened alone (/cockpit/@localhost/PACKAGE/...), whose websocket
        // carries that page's channels only. The shell's websocket also carries the shell's own,
        // which differ between Cockpit versions (287's shell reads files with fsread1 where 372's
        // asks fsinfo) and say nothing of the plugin.
        if (!/\/cockpit\/@[^/]+\/[^/]+\//.test(page.url()))
            return;
        const kinds = new Map<string, string>();
        socket.on('framesent', ({ payload }) => {
            const message = controlMessage(payload);
            if (message?.command === 'open' && typeof message.channel === 'string') {
                const kind = channelKind(message);
                kinds.set(message.channel, kind);
                note(kind);
            } else if (!message) {
                // Data the page sends into a channel (a process's standard input).
                const text = typeof payload === 'string' ? payload : payload.toString('utf8', 0, 64);
                const channel = text.slice(0, Math.max(text.indexOf('\n'), 0));
                if (kinds.has(channel))
                    note(`${kinds.get(channel)} <- input`);
            }
        });
        socket.on('framereceived', ({ payload }) => {
            const message = controlMessage(payload);
            if (message?.command === 'close' && typeof message.channel === 'string' && kinds.has(message.channel))
                note(`${kinds.get(message.channel)} -> ${channelEnd(message)}`);
        });
    });
}
