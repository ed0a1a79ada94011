// Prints one closing line over every jest result file: "check: N passed, N failed, N skipped".
import { readFileSync } from 'node:fs';

let passed = 0, failed = 0, skipped = 0, suitesFailed = 0;
for (const file of process.argv.slice(2)) {
    const result = JSON.parse(readFileSync(file, 'utf8'));
    passed += result.numPassedTests;
    failed += result.numFailedTests;
    skipped += result.numPendingTests + result.numTodoTests;
    suitesFailed += result.numRuntimeErrorTestSuites;
}
if (suitesFailed) console.log(`${suitesFailed} test suites failed to run`);
console.log(`check: ${passed} passed, ${failed + suitesFailed} failed, ${skipped} skipped`);
process.exit(failed + suitesFailed > 0 || passed === 0 ? 1 : 0);
