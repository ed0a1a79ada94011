// SPDX-License-Identifier: LGPL-2.1-or-later
// The banners above the overview (a change that did not finish, the way back to the settings before
// raidtune's changes, an armed automatic restore), their code in the later chunk (src/later.ts):
// most visits have none to show. The page waits for it when the first model has one to show (App.tsx), so a
// banner never comes later and pushes the overview down.

import { lazyModule } from '../common/lazyPart';
import type { HostModel } from '../../md/modelTypes';

const banners = lazyModule(() => import('../../later').then(later => later.banners));

export const preloadBanners = banners.preload;
/** Whether their code is in: from then on they render, and decide for themselves what to show. */
export const bannersLoaded = banners.isLoaded;
export const UnfinishedPlan = banners.part('UnfinishedPlan');
export const RestoreBanner = banners.part('RestoreBanner');

/** Whether the host has something for a banner to say. */
export function bannersNeeded(model: HostModel): boolean {
    return model.planRecord !== null || model.journal !== null || model.autoRestore.size > 0;
}
