// SPDX-License-Identifier: LGPL-2.1-or-later
// `make bench`'s floor page: the two reads raidtune's first view waits for (src/host/earlyReads.ts),
// started as its page starts them, and "ready" once both are in, with no UI at all. Its time to
// content is what Cockpit's transport and the reads alone cost: how close raidtune can come to the
// blank page whatever its UI does.
import { startEarlyReads, takeEarlyGather, takeEarlyMonitor } from '../src/host/earlyReads';

startEarlyReads();
void Promise.all([takeEarlyGather(), takeEarlyMonitor()]).then(() => {
    document.getElementById('app')!.textContent = 'ready';
});
