// SPDX-License-Identifier: LGPL-2.1-or-later
// The settings dialogs as the page uses them: the same components, their code fetched when one first
// opens (changes.ts).

import { lazyModule } from '../common/lazyPart';
import { preloadChangeModal } from '../plan/lazyChangeModal';

const changes = lazyModule(() => import('../../later').then(later => later.changes));

/** The dialogs' code and ChangeModal's, which each of them shows. */
export function preloadChanges(): void {
    void changes.preload();
    void preloadChangeModal();
}
export const ArrayLimitsChange = changes.part('ArrayLimitsChange');
export const BitmapChange = changes.part('BitmapChange');
export const DiskQueueChange = changes.part('DiskQueueChange');
export const GlobalLimitsChange = changes.part('GlobalLimitsChange');
export const GroupThreadsChange = changes.part('GroupThreadsChange');
export const PresetChange = changes.part('PresetChange');
export const ReadAheadChange = changes.part('ReadAheadChange');
export const StripeCacheChange = changes.part('StripeCacheChange');
