// SPDX-License-Identifier: LGPL-2.1-or-later
// Prints one line per jest result file (its counts and wall time, to keep the tiers within make
// check's budget), each failed test with the first lines of its failure (a long log may be cut in
// the middle, its end is kept), then one closing line over all: "check: N passed, N failed, N skipped".
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

let passed = 0, failed = 0, skipped = 0, suitesFailed = 0;
const failures = [];

/** A failure's first lines that say something (without jest's colour codes and blank lines), up to 400 characters. */
function firstLines(message) {
    // eslint-disable-next-line no-control-regex
    const plain = message.replace(/\u001b\[[0-9;]*m/g, '');
    const lines = plain.split('\n').map(line => line.trim()).filter(line => line && !line.startsWith('●')).slice(0, 4);
    return lines.join(' / ').slice(0, 400) || '(no message)';
}
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
    for (const suite of result.testResults) {
        const where = `${basename(file, '.json')} ${suite.name.replace(/^.*?(test\/)/, '$1')}`;
        if (suite.status === 'failed' && !suite.assertionResults.some(t => t.status === 'failed'))
            failures.push(`${where}: ${firstLines(suite.message)}`);
        for (const test of suite.assertionResults.filter(t => t.status === 'failed'))
            failures.push(`${where} › ${test.fullName}: ${firstLines(test.failureMessages.join('\n'))}`);
    }
}
for (const failure of failures) console.log(`FAILED ${failure}`);
if (suitesFailed) console.log(`${suitesFailed} test suites failed to run`);
console.log(`check: ${passed} passed, ${failed + suitesFailed} failed, ${skipped} skipped`);
process.exit(failed + suitesFailed > 0 || passed === 0 ? 1 : 0);
