// SPDX-License-Identifier: LGPL-2.1-or-later
// The host settings' cards in a chunk of their own, fetched once the overview is up: see HostSettings.tsx.

import { lazyModule } from '../common/lazyPart';

const settings = lazyModule(() => import('./HostSettings'));

export const preloadHostSettings = settings.preload;
export const hostSettingsLoaded = settings.isLoaded;
export const HostSettings = settings.part('HostSettings');
