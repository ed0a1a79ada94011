// SPDX-License-Identifier: LGPL-2.1-or-later
import '@patternfly/patternfly/patternfly-base.css';
import '@patternfly/patternfly/components/Table/table.css';
// The tables stack their columns in a narrow window (pf-m-grid-md, CompactTable.tsx): PatternFly's
// React Table brings this file itself; the page's tables are plain markup with its classes.
import '@patternfly/patternfly/components/Table/table-grid.css';
import './ui/app/app.css';
import { createRoot } from 'react-dom/client';
import { _, documentLanguage } from './host/i18n';
import { App } from './ui/app/App';
import { followShellTheme } from './ui/app/theme';
import { preloadOverviewPace } from './ui/diagnosis/lazyOverviewPace';
import { preloadArrayPage } from './ui/arrays/lazyArrayPage';
import { selectedArray } from './host/location';
import { startEarlyReads } from './host/earlyReads';

// po.js (loaded before this script) has set Cockpit's language: say so to the browser and screen readers.
document.documentElement.lang = documentLanguage();
document.title = _('RAID tuning');
followShellTheme(document.documentElement);
// The first view's reads, and its code fetched meanwhile: it waits for both (App.tsx).
startEarlyReads();
// An array's page when the address names one (#/md0), else the overview's.
void (selectedArray() === null ? preloadOverviewPace() : preloadArrayPage());
createRoot(document.getElementById('app')!).render(<App />);
