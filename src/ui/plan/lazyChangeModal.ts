// SPDX-License-Identifier: LGPL-2.1-or-later
// ChangeModal as the page uses it: its code (PatternFly's Modal, focus-trap) fetched when a dialog
// first opens; the page preloads it (the later chunk, src/later.ts) once its first view is painted
// (App.tsx).

import { lazyModule } from '../common/lazyPart';

const changeModal = lazyModule(() => import('../../later').then(later => later.changeModal));

export const preloadChangeModal = changeModal.preload;
export const ChangeModal = changeModal.part('ChangeModal');
