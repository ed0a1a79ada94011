// SPDX-License-Identifier: LGPL-2.1-or-later
// Tells Cockpit's shell the page's status (src/md/pageStatus.ts, its title translated by the UI)
// with the transport's "notify" control message, as Cockpit's own pages do: the shell keeps it per
// host and page and puts a warning or error icon beside raidtune's menu entry, with the title as
// its tooltip, also while another page is open. Sent only when it changed; null clears it.

import { cockpitApi } from './cockpit';

export interface ShownPageStatus {
    type: 'warning' | 'error';
    title: string;
}

let told: string | undefined;

export function tellPageStatus(status: ShownPageStatus | null): void {
    const key = JSON.stringify(status);
    if (key === told) return;
    told = key;
    cockpitApi().transport.control('notify', { page_status: status });
}
