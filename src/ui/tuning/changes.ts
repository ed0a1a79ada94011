// SPDX-License-Identifier: LGPL-2.1-or-later
// The settings dialogs, in the later chunk (src/later.ts) the page loads once the first view is
// painted (or when one first opens, or as the pointer reaches a button that opens one): import them
// from lazyChanges.ts.
export { ArrayLimitsChange } from './ArrayLimitsChange';
export { BitmapChange } from './BitmapChange';
export { DiskQueueChange } from './DiskQueueChange';
export { GlobalLimitsChange } from './GlobalLimitsChange';
export { GroupThreadsChange } from './GroupThreadsChange';
export { PresetChange } from './PresetChange';
export { ReadAheadChange } from './ReadAheadChange';
export { StripeCacheChange } from './StripeCacheChange';
