// Two projects: fast pure-logic tests, and browser tests that drive the built plugin in a real
// cockpit-ws + cockpit-bridge + Chromium (see test/browser/README.md).
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: ['TS151001'] } }];

module.exports = {
    projects: [
        {
            displayName: 'unit',
            testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/test/unit/**/*.test.tsx'],
            testEnvironment: 'node',
            transform: { '^.+\\.tsx?$': tsJest },
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
