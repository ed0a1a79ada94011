// SPDX-License-Identifier: LGPL-2.1-or-later
// Every change dialog, in one chunk the page loads when a dialog first opens (or once the first
// view is up): see lazyDialogs.tsx. Import them from there, not from here.
export { ChangeModal } from './ChangeModal';
export { ArrayLimitsChange } from '../tuning/ArrayLimitsChange';
export { BitmapChange } from '../tuning/BitmapChange';
export { DiskQueueChange } from '../tuning/DiskQueueChange';
export { GlobalLimitsChange } from '../tuning/GlobalLimitsChange';
export { GroupThreadsChange } from '../tuning/GroupThreadsChange';
export { PresetChange } from '../tuning/PresetChange';
export { ReadAheadChange } from '../tuning/ReadAheadChange';
export { StripeCacheChange } from '../tuning/StripeCacheChange';
export { AlertsChange } from '../health/AlertsChange';
