// SPDX-License-Identifier: LGPL-2.1-or-later
// The change dialogs as the page uses them: the same components, their code fetched when one first
// opens. The page preloads them once its first view is up (preloadDialogs), so a click rarely waits.

import { lazyModule } from '../common/lazyPart';

const dialogs = lazyModule(() => import('./dialogs'));

export const preloadDialogs = dialogs.preload;
export const ChangeModal = dialogs.part('ChangeModal');
export const ArrayLimitsChange = dialogs.part('ArrayLimitsChange');
export const BitmapChange = dialogs.part('BitmapChange');
export const DiskQueueChange = dialogs.part('DiskQueueChange');
export const GlobalLimitsChange = dialogs.part('GlobalLimitsChange');
export const GroupThreadsChange = dialogs.part('GroupThreadsChange');
export const PresetChange = dialogs.part('PresetChange');
export const ReadAheadChange = dialogs.part('ReadAheadChange');
export const StripeCacheChange = dialogs.part('StripeCacheChange');
export const AlertsChange = dialogs.part('AlertsChange');
