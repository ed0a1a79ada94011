// Stops ws and the guest (logs go to build/vm/logs/), then fails the run if anything the harness
// started is still running (found by this run's environment tag, never by name).
import { HARNESS_RUN, processesTagged } from '../../../tools/cockpit';
import './globals';

export default async function globalTeardown(): Promise<void> {
    const vm = globalThis.__RAIDTUNE_VM__;
    globalThis.__RAIDTUNE_VM__ = undefined;
    if (vm) {
        await vm.cockpit.stop();
        await vm.guest.stop();
    }
    const run = process.env[HARNESS_RUN];
    if (!run)
        return;
    let left = processesTagged(run);
    for (let i = 0; i < 20 && left.length; i++) {
        await new Promise(resolve => setTimeout(resolve, 100));
        left = processesTagged(run);
    }
    if (!left.length)
        return;
    for (const { pid } of left) {
        try {
            process.kill(pid, 'SIGKILL');
        } catch {
            // gone meanwhile
        }
    }
    throw new Error('vm tests left processes running (now killed):\n' + left.map(p => `  ${p.pid} ${p.cmd}`).join('\n'));
}
