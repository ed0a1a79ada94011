// SPDX-License-Identifier: LGPL-2.1-or-later
// make check runs two browser test files at once (BROWSER_WORKERS). A 128-array host (the
// simulator's 2,048 disks, the page's 128 cards, an axe run over them) is the heaviest setup there
// is: with another file beside it, one (location.test.ts's) outlasted its 60 s. Its setup gets
// more time, and the files with such a host take turns, each holding its turn from its setup to
// the end of its teardown, so that two never share the 2 cores; other files run beside them.
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HARNESS_RUN } from '../../../tools/cockpit/proc';
import { waitBudget } from '../../../tools/cockpit/waitBudget';

export const BIG_SCENARIOS: ReadonlySet<string> = new Set(['many-arrays']);

/** How long a file waits for its turn: the big files take 1.5 to 2.5 minutes each with a neighbour. */
export const BIG_SCENARIO_WAIT_MS = waitBudget(10 * 60 * 1000);

/**
 * A big scenario's setup: the simulator alone took 15 s to build its 2,048 disks beside make
 * check's other file, then the page's first full read and render of 128 cards; 60 s was once not
 * enough with the neighbour's Chromium busy.
 */
export const BIG_SCENARIO_SETUP_MS = waitBudget(3 * 60 * 1000);

/** One per harness run (globalSetup's id), so that a crashed run's turn blocks no later one. */
function turnPath(): string {
    return join(tmpdir(), `raidtune-big-scenario-turn-${process.env[HARNESS_RUN] ?? process.pid}`);
}

/** Resolves when it is this file's turn (mkdir is atomic between processes); endBigScenarioTurn ends it. */
export async function takeBigScenarioTurn(): Promise<void> {
    const path = turnPath();
    for (;;) {
        try {
            await mkdir(path);
            return;
        } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
            await new Promise(resolve => setTimeout(resolve, 250));
        }
    }
}

/** Ends the turn; also the globalTeardown's cleanup of one a crashed worker left. */
export function endBigScenarioTurn(): Promise<void> {
    return rm(turnPath(), { recursive: true, force: true });
}
