// SPDX-License-Identifier: LGPL-2.1-or-later
// mdsim: the simulated md host as a program (bundled to build/mdsim.mjs by build.mjs).

import { watch } from 'node:fs';
import { resolve } from 'node:path';
import { inboxDir, REQUEST_SUFFIX } from './mdadm/protocol';
import { parseCli, USAGE, UsageError, type CliOptions } from './cli';
import { createSimulatedHost, type WriteEvent } from './host';
import { builtinScenarioNames } from './scenario/load';
import { ScenarioError } from './scenario/validate';

function logWrite({ path, value, outcome }: WriteEvent): void {
    const result = outcome === null ? 'not writable in mdsim' : outcome.applied ? 'applied' : `refused (${outcome.error})`;
    process.stderr.write(`mdsim: ${path} <- ${JSON.stringify(value)}: ${result}\n`);
}

function run(options: CliOptions): void {
    const root = resolve(options.root);
    const host = createSimulatedHost(options.scenario, root,
        { seed: options.seed, onWrite: options.quiet ? undefined : logWrite });
    process.stdout.write(`mdsim: ready ${root}\n`);
    if (options.once) {
        host.close();
        return;
    }
    // Advance by the real time that passed, so slow ticks (thousands of disks) do not slow the clock.
    let last = performance.now();
    const timer = setInterval(() => {
        const now = performance.now();
        try {
            host.tick((now - last) / 1000 * options.timeScale);
        } catch (error) {
            process.stderr.write(`mdsim: ${(error as Error).message}\n`);
            process.exit(1);
        }
        last = now;
    }, options.tickMs);
    // A simulated tee or mdadm waits for its answer: serve it at once rather than at the next tick.
    let serving = false;
    const watcher = watch(inboxDir(root), (_event, name) => {
        if (serving || !name?.endsWith(REQUEST_SUFFIX)) return; // not for the answers it writes itself
        serving = true;
        setImmediate(() => {
            serving = false;
            try {
                host.serveRequests();
            } catch (error) {
                process.stderr.write(`mdsim: ${(error as Error).message}\n`);
                process.exit(1);
            }
        });
    });
    const stop = () => {
        watcher.close();
        clearInterval(timer);
        host.close();
        process.exit(0);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
}

function main(argv: string[]): void {
    try {
        const command = parseCli(argv);
        if (command.kind === 'help') process.stdout.write(`${USAGE}\n`);
        else if (command.kind === 'list') process.stdout.write(`${builtinScenarioNames().join('\n')}\n`);
        else run(command.options);
    } catch (error) {
        if (error instanceof UsageError) {
            process.stderr.write(`mdsim: ${error.message}\n\n${USAGE}\n`);
            process.exit(2);
        }
        process.stderr.write(`mdsim: ${error instanceof ScenarioError ? error.message : (error as Error).stack}\n`);
        process.exit(1);
    }
}

main(process.argv.slice(2));
