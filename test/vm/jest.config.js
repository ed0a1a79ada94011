// SPDX-License-Identifier: LGPL-2.1-or-later
// The real-kernel tier (test/vm/README.md): the built plugin in Chromium, the host's cockpit-ws,
// and cockpit-bridge + md + mdadm inside a QEMU guest. One guest per run (globalSetup), so
// test files run one after another in this process.
//     tools/vm/build-guest.sh && node build.mjs && npx jest -c test/vm/jest.config.js
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: ['TS151001'] } }];

module.exports = {
    rootDir: '../..',
    displayName: 'vm',
    testMatch: ['<rootDir>/test/vm/**/*.test.ts'],
    testSequencer: '<rootDir>/test/order/slowestFirst.js',
    testEnvironment: 'node',
    transform: { '^.+\\.tsx?$': tsJest },
    globalSetup: '<rootDir>/test/vm/harness/globalSetup.ts',
    globalTeardown: '<rootDir>/test/vm/harness/globalTeardown.ts',
    // The guest is emulated (TCG): generous, and one file at a time (one guest, one control port).
    testTimeout: 180000,
    maxWorkers: 1,
};
