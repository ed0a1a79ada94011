// SPDX-License-Identifier: LGPL-2.1-or-later
// Prints one line per jest result file (its counts and wall time, to keep the tiers within make
// check's budget), then one closing line over all: "check: N passed, N failed, N skipped".
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

let passed = 0, failed = 0, skipped = 0, suitesFailed = 0;
for (const file of process.argv.slice(2)) {
    const result = JSON.parse(readFileSync(file, 'utf8'));
    passed += result.numPassedTests;
    failed += result.numFailedTests;
    skipped += result.numPendingTests + result.numTodoTests;
    suitesFailed += result.numRuntimeErrorTestSuites;
    const ends = result.testResults.map(suite => suite.endTime ?? result.startTime);
    const minutes = ends.length ? (Math.max(...ends) - result.startTime) / 60000 : 0;
    console.log(`${basename(file, '.json')} took ${minutes.toFixed(1)} min: ${result.numPassedTests} tests passed and ` +
        `${result.numFailedTests} failed`);
}
if (suitesFailed) console.log(`${suitesFailed} test suites failed to run`);
console.log(`check: ${passed} passed, ${failed + suitesFailed} failed, ${skipped} skipped`);
process.exit(failed + suitesFailed > 0 || passed === 0 ? 1 : 0);
