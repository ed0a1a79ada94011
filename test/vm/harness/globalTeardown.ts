// SPDX-License-Identifier: LGPL-2.1-or-later
// Stops ws and the guest (logs go to build/vm/<kernel>/logs/), then fails the run if anything the harness
// started is still running (found by this run's environment tag, never by name).
import { failOnLeftoverProcesses } from '../../../tools/cockpit/proc';
import './globals';

export default async function globalTeardown(): Promise<void> {
    const vm = globalThis.__RAIDTUNE_VM__;
    globalThis.__RAIDTUNE_VM__ = undefined;
    if (vm) {
        // The lanes share 2 cores: what the guest took of them is the figure to compare runs by.
        const cpu = vm.guest.cpuSeconds();
        if (cpu !== null)
            process.stderr.write(`raidtune vm: the guest used ${cpu.toFixed(0)} s of host CPU\n`);
        await vm.cockpit.stop();
        await vm.guest.stop();
    }
    await failOnLeftoverProcesses('vm');
}
