// SPDX-License-Identifier: LGPL-2.1-or-later
// Two projects: fast pure-logic tests, and browser tests that drive the built plugin in a real
// cockpit-ws + cockpit-bridge + Chromium (see test/browser/README.md).
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: ['TS151001'] } }];

module.exports = {
    testSequencer: '<rootDir>/test/order/slowestFirst.js',
    projects: [
        {
            displayName: 'unit',
            testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/test/unit/**/*.test.tsx'],
            testEnvironment: 'node',
            transform: { '^.+\\.tsx?$': tsJest },
            // Components rendered in jsdom (test/unit/ui): PatternFly's CommonJS build, no styles.
            moduleNameMapper: {
                '^@patternfly/react-core/dist/esm/(.*)$': '@patternfly/react-core/dist/js/$1',
                '^@patternfly/react-icons/dist/esm/(.*)$': '@patternfly/react-icons/dist/js/$1',
                '\\.css$': '<rootDir>/test/unit/helpers/noStyles.js',
            },
        },
        {
            displayName: 'browser',
            testMatch: ['<rootDir>/test/browser/**/*.test.ts'],
            testEnvironment: 'node',
            transform: { '^.+\\.tsx?$': tsJest },
            globalSetup: '<rootDir>/test/browser/harness/globalSetup.ts',
            globalTeardown: '<rootDir>/test/browser/harness/globalTeardown.ts',
        },
    ],
};
