// SPDX-License-Identifier: LGPL-2.1-or-later
// Writes test/order/durations.json (read by test/order/slowestFirst.js) from jest result files:
// each test file's wall time in seconds, the longest over the files given (a browser file runs on
// 287 and 372; the VM files on three kernels). Files not in this run keep their recorded duration;
// files that no longer exist are dropped.
//     node tools/test-durations.mjs test-results/*.json
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The file's path in the repository, whichever clone the results came from. */
const inRepository = name => /(?:^|\/)(test\/(?:unit|browser|vm)\/.*)$/.exec(name)?.[1];

const root = join(import.meta.dirname, '..');
const target = join(root, 'test', 'order', 'durations.json');
const recorded = existsSync(target) ? JSON.parse(readFileSync(target, 'utf8')).seconds : {};
const measured = {};
for (const file of process.argv.slice(2)) {
    for (const suite of JSON.parse(readFileSync(file, 'utf8')).testResults) {
        if (!suite.startTime || !suite.endTime)
            continue;
        const path = inRepository(suite.name);
        if (!path)
            continue;
        // A tenth of a second at least: a file that took less is still a file that takes time.
        const tenths = Math.max(1, Math.round((suite.endTime - suite.startTime) / 100));
        measured[path] = Math.max(measured[path] ?? 0, tenths / 10);
    }
}
const seconds = {};
for (const path of Object.keys({ ...recorded, ...measured }).sort()) {
    if (existsSync(join(root, path)))
        seconds[path] = measured[path] ?? recorded[path];
}
writeFileSync(target, JSON.stringify({
    about: 'Wall seconds per test file, written by make test-durations; test/order/slowestFirst.js starts the slowest first.',
    seconds,
}, null, 1) + '\n');
console.log(`test-durations: ${Object.keys(measured).length} measured, ${Object.keys(seconds).length} recorded in ${relative(root, target)}`);
