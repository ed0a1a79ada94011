// SPDX-License-Identifier: LGPL-2.1-or-later
// PatternFly components only the change dialogs use, apart from pf.ts:
// esbuild puts every module a file re-exports in that file's chunk, so these would otherwise be
// in the first view's code (Modal with focus-trap, the form fields).
export * from '@patternfly/react-core/dist/esm/components/Form/index.js';
export * from '@patternfly/react-core/dist/esm/components/HelperText/index.js';
export * from '@patternfly/react-core/dist/esm/components/Modal/index.js';
export * from '@patternfly/react-core/dist/esm/components/Radio/index.js';
export * from '@patternfly/react-core/dist/esm/components/TextInput/index.js';
export * from '@patternfly/react-core/dist/esm/components/Checkbox/index.js';
