// SPDX-License-Identifier: LGPL-2.1-or-later
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
    { ignores: ['dist/', 'build/', 'node_modules/', 'test/fixtures/', 'bench/results*', 'rpmbuild/'] },
    js.configs.recommended,
    ...tseslint.configs.recommended,
    {
        files: ['**/*.{ts,tsx}'],
        plugins: { 'react-hooks': reactHooks },
        rules: {
            ...reactHooks.configs.recommended.rules,
            '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
        },
    },
    {
        // Strings, template literals, regular expressions and URLs may run longer (a message stays
        // whole for its translators).
        files: ['**/*.{ts,tsx,js,mjs}'],
        rules: {
            'max-len': ['error', {
                code: 120, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true,
                ignoreRegExpLiterals: true,
            }],
        },
    },
    {
        files: ['*.{js,mjs}', 'tools/**/*.{js,mjs}', 'test/**/*.{js,mjs}'],
        languageOptions: { globals: { ...globals.node } },
    },
    {
        // The pure core must stay free of Cockpit and React so it runs anywhere and tests fast.
        files: ['src/md/**/*.ts'],
        rules: {
            'no-restricted-imports': ['error', { patterns: ['react', 'react-dom', '@patternfly/*', '**/host/**', '**/ui/**'] }],
            'no-restricted-globals': ['error', 'cockpit', 'window', 'document'],
        },
    },
);
