// SPDX-License-Identifier: LGPL-2.1-or-later
// `make bench`'s floor pages, with no UI at all: "ready" once the reads are in. Their time to
// content is what Cockpit's transport and the reads alone cost: how close raidtune can come to the
// blank page whatever its UI does.
//   floor.html                  the two reads raidtune's first view waits for (src/host/earlyReads.ts),
//                               started as its page starts them: each a process the bridge spawns
//   floor.html?read=mdstat-file /proc/mdstat alone, read as a file (the bridge's fsread1 channel,
//                               served in its own process): the floor of a first view built from
//                               /proc/mdstat alone, which raidtune does not have
import { readHostConfig } from '../src/host/config';
import { startEarlyReads, takeEarlyGather, takeEarlyMonitor } from '../src/host/earlyReads';

interface CockpitFile { read(): Promise<string | null> }

function readsDone(): Promise<unknown> {
    if (new URLSearchParams(location.search).get('read') === 'mdstat-file') {
        const cockpit = (window as unknown as { cockpit: { file(path: string): CockpitFile } }).cockpit;
        return cockpit.file(`${readHostConfig().config.procRoot}/mdstat`).read();
    }
    startEarlyReads();
    return Promise.all([takeEarlyGather(), takeEarlyMonitor()]);
}

void readsDone().then(() => {
    document.getElementById('app')!.textContent = 'ready';
});
