// SPDX-License-Identifier: LGPL-2.1-or-later
// `make bench`'s floor pages, with no UI at all: #app marked ready once the reads are in. Their time to
// content is what Cockpit's transport and the reads alone cost: how close raidtune can come to the
// blank page whatever its UI does.
//   floor.html                  the two reads raidtune's overview and host settings wait for
//                               (src/host/earlyReads.ts), started at once: each a process the bridge spawns
//   floor.html?read=mdstat-file /proc/mdstat alone, read as a file (the bridge's fsread1 channel,
//                               served in its own process): the floor of a first view built from
//                               /proc/mdstat alone, which raidtune does not have
import { readHostConfig } from '../src/host/config';
import { readMonitorState } from '../src/host/monitorAlerts';
import { readGatherOutput } from '../src/host/readSnapshot';

interface CockpitFile { read(): Promise<string | null> }

function readsDone(): Promise<unknown> {
    if (new URLSearchParams(location.search).get('read') === 'mdstat-file') {
        const cockpit = (window as unknown as { cockpit: { file(path: string): CockpitFile } }).cockpit;
        return cockpit.file(`${readHostConfig().config.procRoot}/mdstat`).read();
    }
    // As the page reads: the md state in full with the page size (earlyReads.ts), and the monitor's state.
    const { config } = readHostConfig();
    return Promise.all([readGatherOutput(config, true, { full: true }), readMonitorState(config)]);
}

void readsDone().then(() => {
    document.getElementById('app')!.setAttribute('data-ready', '');
});
