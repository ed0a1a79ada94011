// SPDX-License-Identifier: LGPL-2.1-or-later
// jest's testSequencer for every tier: the slowest files start first, by the durations committed in
// ./durations.json (`make test-durations` writes them from the last run's results). With two
// workers, the longest file started last would leave one worker idle at the end; started first, the
// short ones fill in beside it. Files with no recorded duration (new ones) go first, as if slowest:
// a new file's cost shows in the next update. The order is the same on every machine (jest's own
// sequencer orders by a per-machine cache, and on a fresh CI machine by file size), so a failure
// that depends on which file ran before it reproduces.
/* eslint-disable @typescript-eslint/no-require-imports -- jest require()s its sequencer (CommonJS) */
const { readFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const ROOT = join(__dirname, '..', '..');

function recordedDurations() {
    try {
        return JSON.parse(readFileSync(join(__dirname, 'durations.json'), 'utf8')).seconds;
    } catch {
        return {};
    }
}

class SlowestFirst {
    constructor() {
        this.seconds = recordedDurations();
    }

    /** Seconds a file took when last recorded; Infinity when never. */
    durationOf(test) {
        const seconds = this.seconds[relative(ROOT, test.path)];
        return typeof seconds === 'number' ? seconds : Infinity;
    }

    sort(tests) {
        return [...tests].sort((a, b) => {
            const byDuration = this.durationOf(b) - this.durationOf(a);
            // Two unrecorded files (Infinity - Infinity) and equal durations: by path, the same everywhere.
            return Number.isNaN(byDuration) || byDuration === 0 ? a.path.localeCompare(b.path) : byDuration;
        });
    }

    /** jest calls this after every run; the durations come from the committed file, not a cache. */
    cacheResults() {}
}

module.exports = SlowestFirst;
