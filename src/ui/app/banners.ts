// SPDX-License-Identifier: LGPL-2.1-or-later
// The banners' chunk: see lazyBanners.ts.
export { UnfinishedPlan } from '../plan/UnfinishedPlan';
export { RestoreBanner } from '../tuning/RestoreBanner';
