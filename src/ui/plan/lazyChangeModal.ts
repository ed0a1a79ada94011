// SPDX-License-Identifier: LGPL-2.1-or-later
// ChangeModal as the page uses it: its code (PatternFly's Modal, focus-trap) fetched when a dialog
// first opens; the page preloads it once its first view is up (App.tsx).

import { lazyModule } from '../common/lazyPart';

const changeModal = lazyModule(() => import('./ChangeModal'));

export const preloadChangeModal = changeModal.preload;
export const ChangeModal = changeModal.part('ChangeModal');
