// SPDX-License-Identifier: LGPL-2.1-or-later
// The guard of the Cockpit 372 subset (Makefile's SUBSET_372): every kind of channel a browser test
// opens on 287, and every way such a channel ended there, must also occur in a test on 372, where
// only the files that go through what differs between bridges run again. Reads the records that
// tools/cockpit/channelRecord.ts writes during both tiers; writes its verdict as a jest result file
// (one test), so make check's summary counts it and prints what is missing.
//     node tools/channel-guard.mjs test-results/channels-287.jsonl test-results/channels-372.jsonl OUT.json
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const [full, subset, out] = process.argv.slice(2);
const started = Date.now();
const records = file => (existsSync(file) ? readFileSync(file, 'utf8') : '').split('\n').filter(Boolean).map(line => JSON.parse(line));

/** kind -> the tests that used it. */
function byKind(file) {
    const kinds = new Map();
    for (const { kind, test, file: testFile } of records(file))
        kinds.set(kind, [...(kinds.get(kind) ?? []), `${testFile} › ${test}`]);
    return kinds;
}

const onFull = byKind(full);
const onSubset = byKind(subset);
const missing = [...onFull.keys()].filter(kind => !onSubset.has(kind)).sort();
const name = 'every channel kind and ending a test uses on Cockpit 287 has a test on 372';
const message = missing.map(kind => `on 287 only: ${kind} (${onFull.get(kind).slice(0, 3).join('; ')})`).join('\n');
const passed = onFull.size > 0 && missing.length === 0;
const failure = onFull.size === 0 ? `no channel recorded in ${full}` : message;
writeFileSync(out, JSON.stringify({
    numPassedTests: passed ? 1 : 0, numFailedTests: passed ? 0 : 1, numPendingTests: 0, numTodoTests: 0,
    numRuntimeErrorTestSuites: 0, startTime: started,
    testResults: [{
        name: 'tools/channel-guard.mjs', status: passed ? 'passed' : 'failed', message: passed ? '' : failure,
        startTime: started, endTime: Date.now(),
        assertionResults: [{ fullName: name, status: passed ? 'passed' : 'failed', failureMessages: passed ? [] : [failure] }],
    }],
}, null, 1) + '\n');
console.log(`channel guard: ${onFull.size} kinds on 287, ${onSubset.size} on 372, ${missing.length} missing`);
if (!passed) console.log(failure);
process.exit(passed ? 0 : 1);
