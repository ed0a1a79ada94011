// Runs once after the browser tests: nothing the harness started may still be running. Anything
// left (found by this run's environment tag, never by name) is killed and reported as a failure.
import { HARNESS_RUN, processesTagged } from '../../../tools/cockpit';

export default async function globalTeardown(): Promise<void> {
    const run = process.env[HARNESS_RUN];
    if (!run)
        return;
    // Processes that were just told to stop may need a moment.
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
    throw new Error('browser tests left processes running (now killed):\n' +
        left.map(p => `  ${p.pid} ${p.cmd}`).join('\n'));
}
