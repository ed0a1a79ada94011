// SPDX-License-Identifier: LGPL-2.1-or-later
// The overview's "what sets the pace" and its one action, with the diagnosis they come from, in a
// chunk the page starts fetching as it starts (index.tsx) and waits for before its first view: it
// arrives while the host's state is being read, and no row grows once it comes.

import { lazyModule } from '../common/lazyPart';

const pace = lazyModule(() => import('./OverviewPace'));

export const preloadOverviewPace = pace.preload;
export const overviewPaceLoaded = pace.isLoaded;
export const OverviewPace = pace.part('OverviewPace');
