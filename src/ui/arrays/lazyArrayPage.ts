// SPDX-License-Identifier: LGPL-2.1-or-later
// An array's page in a chunk of its own, with the sync's chart and diagnosis: the overview's first
// view does not load it; it is fetched once the overview is up, or at once when the address names an
// array (index.tsx), and the page waits for it so that the card never shows without its parts.

import { lazyModule } from '../common/lazyPart';
import { preloadSyncParts, syncPartsLoaded } from '../sync/lazySyncParts';

const page = lazyModule(() => import('./ArrayPage'));

/** The array page's code and the sync parts its card shows. */
export const preloadArrayPage = () => Promise.all([page.preload(), preloadSyncParts()]);
export const arrayPageLoaded = () => page.isLoaded() && syncPartsLoaded();
export const ArrayPage = page.part('ArrayPage');
export const ArrayPageHeading = page.part('ArrayPageHeading');
