// SPDX-License-Identifier: LGPL-2.1-or-later
// The sync's speed chart and diagnosis, and the guided repair, their code in the later chunk
// (src/later.ts), which an array's page waits for (lazyArrayPage.ts): its panel never shows without
// them and then grows.

import { lazyModule } from '../common/lazyPart';

const parts = lazyModule(() => import('../../later').then(later => later.syncParts));

export const preloadSyncParts = parts.preload;
export const syncPartsLoaded = parts.isLoaded;
export const SyncChart = parts.part('SyncChart');
export const DiagnosisSection = parts.part('DiagnosisSection');
export const RepairFlow = parts.part('RepairFlow');
