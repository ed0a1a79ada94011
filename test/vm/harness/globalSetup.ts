// SPDX-License-Identifier: LGPL-2.1-or-later
// Boots ONE guest for the whole run and the host's cockpit-ws whose session is the guest's
// cockpit-bridge. Test files reach them through environment variables (process.env is inherited
// by the test files; live objects are not), see ./vmEnv.ts:
//   RAIDTUNE_VM_GUEST   JSON GuestInfo (sockets, run dir, disks)
//   RAIDTUNE_VM_PAGE    the bare plugin page URL, RAIDTUNE_VM_ORIGIN the ws origin
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM, repoRoot } from '../../../tools/cockpit';
import { newestMtime, startHarnessRun } from '../../../tools/cockpit/proc';
import { guestBuild, startGuest, type GuestInfo } from '../../../tools/vm/vm';
import { startGuestCockpit, type GuestCockpit } from '../../../tools/vm/ws';
import './globals';
import { sessionLostFile, VM_PLUGIN_CONFIG } from './vmConfig';

export default async function globalSetup(): Promise<void> {
    startHarnessRun();
    const root = repoRoot();

    const problems: string[] = [];
    try {
        guestBuild();
    } catch (err) {
        problems.push((err as Error).message);
    }
    if (!existsSync(join(root, 'dist', 'manifest.json')) || !existsSync(join(root, 'dist', 'index.js')))
        problems.push('the plugin is not built: run node build.mjs (or make)');
    for (const file of ['/usr/bin/qemu-system-x86_64', '/usr/bin/socat', '/usr/lib/cockpit/cockpit-ws',
        process.env.RAIDTUNE_CHROMIUM ?? CHROMIUM]) {
        if (!existsSync(file))
            problems.push(`${file} is missing: run tools/vm/build-guest.sh (as root)`);
    }
    if (problems.length)
        throw new Error(`the real-kernel tier cannot run:\n  ${problems.join('\n  ')}`);
    if (newestMtime(join(root, 'src')) > statSync(join(root, 'dist', 'index.js')).mtimeMs)
        console.warn('raidtune vm tests: src/ is newer than dist/: the guest serves the OLD build; run node build.mjs');

    const t0 = performance.now();
    // One vCPU: under emulation (no KVM) a second one costs the host without making the tests any
    // faster; kernel 6.12's tuning files took 113-117 s of host CPU in the guest instead of 141-145 s.
    // vdi: a 4Kn disk (4096-byte logical blocks), which no array of the 512-byte ones may take.
    const guest = await startGuest({
        disks: 8, diskMiB: 256, extraDisks: [{ miB: 256, logicalBlockBytes: 4096 }], pluginCopy: true, cpus: 1,
    });
    let cockpit: GuestCockpit;
    try {
        await guest.detach(); // the control port takes one client: the test files attach their own
        cockpit = await startGuestCockpit(guest, { config: VM_PLUGIN_CONFIG });
    } catch (err) {
        await guest.stop();
        throw err;
    }
    globalThis.__RAIDTUNE_VM__ = { guest, cockpit };
    // A lost session makes every later page answer 401 and fail far from the cause: told at once,
    // and kept in the run dir where the test files' failure reports read it (vmEnv.ts).
    void cockpit.lost.then(reason => {
        const text = `${new Date().toISOString()} the guest session was lost: ${reason}\n` +
            `cockpit-ws printed:\n${cockpit.logs()}\n`;
        writeFileSync(sessionLostFile(guest.runDir), text);
        process.stderr.write(`\nraidtune vm: ${text}`);
    });
    const info: GuestInfo = {
        runDir: guest.runDir, bridgeSocket: guest.bridgeSocket, controlSocket: guest.controlSocket,
        shellSocket: guest.shellSocket, consoleLog: guest.consoleLog, accel: guest.accel, disks: guest.disks,
    };
    process.env.RAIDTUNE_VM_GUEST = JSON.stringify(info);
    process.env.RAIDTUNE_VM_PAGE = cockpit.barePageUrl;
    process.env.RAIDTUNE_VM_ORIGIN = cockpit.origin;
    process.stderr.write(`\nraidtune vm: guest up in ${(guest.bootMs / 1000).toFixed(1)} s (${guest.accel}, ` +
        `${guest.disks.length} disks), cockpit-ws + guest bridge in ${(cockpit.startMs / 1000).toFixed(1)} s, ` +
        `total ${((performance.now() - t0) / 1000).toFixed(1)} s; run dir ${guest.runDir}\n`);
}
