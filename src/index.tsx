// SPDX-License-Identifier: LGPL-2.1-or-later
import '@patternfly/patternfly/patternfly-base.css';
import '@patternfly/patternfly/components/Table/table.css';
import './ui/app/app.css';
import { createRoot } from 'react-dom/client';
import { _, documentLanguage } from './host/i18n';
import { App } from './ui/app/App';
import { followShellTheme } from './ui/app/theme';
import { preloadSyncParts } from './ui/sync/lazySyncParts';

// po.js (loaded before this script) has set Cockpit's language: say so to the browser and screen readers.
document.documentElement.lang = documentLanguage();
document.title = _('RAID tuning');
followShellTheme(document.documentElement);
// Fetched while the host's state is read: the first view waits for it (App.tsx).
void preloadSyncParts();
createRoot(document.getElementById('app')!).render(<App />);
