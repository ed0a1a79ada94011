// SPDX-License-Identifier: LGPL-2.1-or-later
// The page itself, imported by index.tsx once it has started the md read the first view waits for.
import { createRoot } from 'react-dom/client';
import { App } from './ui/app/App';
import { preloadArrayPage } from './ui/arrays/lazyArrayPage';
import { selectedArray } from './host/location';
import { loadPageFonts } from './ui/app/pageFonts';

// An array's page when the address names one (#/md0): its code is not the overview's.
if (selectedArray() !== null) void preloadArrayPage();
// Drawn once its faces are in: text drawn before would be drawn again, wider, when they come.
void loadPageFonts().then(() => createRoot(document.getElementById('app')!).render(<App />));
