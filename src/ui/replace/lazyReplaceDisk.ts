// SPDX-License-Identifier: LGPL-2.1-or-later
// The Replace disk dialog as the health alert opens it: its code is in the later chunk (src/later.ts),
// which the page preloads once its first view is painted.

import { lazyModule } from '../common/lazyPart';

export const ReplaceDiskDialog = lazyModule(() => import('../../later').then(later => later.replaceDisk)).part('ReplaceDiskDialog');
