// SPDX-License-Identifier: LGPL-2.1-or-later
// An array's page, with the sync's chart and diagnosis, in the later chunk (src/later.ts): the
// overview's first view does not load it; it is fetched once the overview is painted, or at once
// when the address names an array (main.tsx), and the page waits for it so that the card never
// shows without its parts.

import { lazyModule } from '../common/lazyPart';
import { preloadSyncParts, syncPartsLoaded } from '../sync/lazySyncParts';

const page = lazyModule(() => import('../../later').then(later => later.arrayPage));

/** The array page's code and the sync parts its card shows. */
export const preloadArrayPage = () => Promise.all([page.preload(), preloadSyncParts()]);
export const arrayPageLoaded = () => page.isLoaded() && syncPartsLoaded();
export const ArrayPage = page.part('ArrayPage');
export const ArrayPageHeading = page.part('ArrayPageHeading');
