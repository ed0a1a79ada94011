// SPDX-License-Identifier: LGPL-2.1-or-later
// The host settings, from the later chunk (src/later.ts), fetched once the overview is painted: see HostSettings.tsx.

import { lazyModule } from '../common/lazyPart';

const settings = lazyModule(() => import('../../later').then(later => later.hostSettings));

export const preloadHostSettings = settings.preload;
export const hostSettingsLoaded = settings.isLoaded;
export const HostSettings = settings.part('HostSettings');
