// SPDX-License-Identifier: LGPL-2.1-or-later
// The page's entry: its styles, and the host's md state asked for before anything else, so that the
// read runs while the page's code (React, PatternFly, the model: main.tsx) comes and starts.
// index.html lists that code for the browser to fetch beside this file (build.mjs).
import '@patternfly/patternfly/patternfly-base.css';
import '@patternfly/patternfly/components/Table/table.css';
// The tables stack their columns in a narrow window (pf-m-grid-md, CompactTable.tsx): PatternFly's
// React Table brings this file itself; the page's tables are plain markup with its classes.
import '@patternfly/patternfly/components/Table/table-grid.css';
import './ui/app/app.css';
import { _, documentLanguage } from './host/i18n';
import { followShellTheme } from './ui/app/theme';
import { startEarlyGather } from './host/earlyReads';
import { loadPageFonts } from './ui/app/pageFonts';

startEarlyGather();
void loadPageFonts();
// po.js (loaded before this script) has set Cockpit's language: say so to the browser and screen readers.
document.documentElement.lang = documentLanguage();
document.title = _('RAID tuning');
followShellTheme(document.documentElement);
void import('./main');
