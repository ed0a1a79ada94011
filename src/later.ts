// SPDX-License-Identifier: LGPL-2.1-or-later
// Everything the overview's first view does not show, in one chunk: an array's page, the host
// settings, the banners, the dialogs, the monitor's reading code. The page fetches it once its first
// view is painted (App.tsx), or at once where it waits for a part of it (an address naming an
// array, a banner to show). One chunk, not one per part: the parts share much of their code with
// the first view and with each other, and esbuild made a chunk of each way of sharing it: 35 files
// for the first view alone, fetched through Cockpit a few at a time (doc/benchmarks.md).
export * as arrayMenu from './ui/tuning/ArrayMenu';
export * as arrayPage from './ui/arrays/ArrayPage';
export * as alertsChange from './ui/health/AlertsChange';
export * as banners from './ui/app/banners';
export * as changeModal from './ui/plan/ChangeModal';
export * as changes from './ui/tuning/changes';
export * as checkDue from './md/alerts/checkDue';
export * as hostSettings from './ui/overview/HostSettings';
export * as layoutDetails from './ui/advice/LayoutDetails';
export * as monitorAlerts from './host/monitorAlerts';
export * as replaceDisk from './ui/replace/ReplaceDiskDialog';
export * as scheduleChange from './ui/health/ScheduleChange';
export * as syncParts from './ui/sync/syncParts';
