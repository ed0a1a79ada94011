// SPDX-License-Identifier: LGPL-2.1-or-later
// PatternFly components of an array's page, the host settings and the dialogs, apart from pf.ts
// (see there): the overview's first view does not load them.
export * from '@patternfly/react-core/dist/esm/components/DescriptionList/index.js';
export * from '@patternfly/react-core/dist/esm/layouts/Flex/index.js';
export * from '@patternfly/react-core/dist/esm/components/ExpandableSection/index.js';
// A member's details in the members table (src/ui/arrays/MemberDetails.tsx).
export * from '@patternfly/react-core/dist/esm/components/Popover/index.js';
export * from '@patternfly/react-core/dist/esm/components/CodeBlock/index.js';
// The copy button alone: the ClipboardCopy field would bring its own CSS for nothing.
export * from '@patternfly/react-core/dist/esm/components/ClipboardCopy/ClipboardCopyButton.js';
// The host settings' list (src/ui/common/SettingLine.tsx).
export * from '@patternfly/react-core/dist/esm/components/DataList/index.js';
