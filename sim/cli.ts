// SPDX-License-Identifier: LGPL-2.1-or-later
// Command-line options of build/mdsim.mjs.

import { parseArgs } from 'node:util';

export const USAGE = `usage: node build/mdsim.mjs --scenario <name|file.json> --root <dir> [options]

Keeps a /proc + /sys shaped tree for a simulated md host under <dir>. Point raidtune at it
with procRoot=<dir>/proc and sysRoot=<dir>/sys.

  --scenario <name|file>  a built-in scenario name or a scenario JSON file (sim/README.md)
  --root <dir>            where to build the tree (created if missing)
  --tick-ms <n>           real milliseconds between updates (default 1000)
  --time-scale <x>        simulated seconds per real second (default 1)
  --seed <n>              seed of the speed jitter (default 1)
  --once                  write the tree once and exit
  --list                  print the built-in scenario names and exit
  --quiet                 do not log the writes found in the tree
  --help                  this text

Prints "mdsim: ready <dir>" and creates <dir>/.ready once the tree is complete.
Stops cleanly on SIGTERM or SIGINT.`;

export interface CliOptions {
    scenario: string;
    root: string;
    tickMs: number;
    timeScale: number;
    seed: number;
    once: boolean;
    quiet: boolean;
}

export type CliCommand = { kind: 'run'; options: CliOptions } | { kind: 'help' } | { kind: 'list' };

export class UsageError extends Error {}

function positiveNumber(text: string | undefined, name: string, fallback: number): number {
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0) throw new UsageError(`--${name} wants a positive number, got "${text}"`);
    return value;
}

export function parseCli(argv: string[]): CliCommand {
    let values;
    try {
        ({ values } = parseArgs({
            args: argv,
            options: {
                scenario: { type: 'string' }, root: { type: 'string' }, 'tick-ms': { type: 'string' },
                'time-scale': { type: 'string' }, seed: { type: 'string' }, once: { type: 'boolean' },
                list: { type: 'boolean' }, quiet: { type: 'boolean' }, help: { type: 'boolean' },
            },
        }));
    } catch (error) {
        throw new UsageError((error as Error).message);
    }
    if (values.help) return { kind: 'help' };
    if (values.list) return { kind: 'list' };
    if (!values.scenario) throw new UsageError('--scenario is required');
    if (!values.root) throw new UsageError('--root is required');
    const seed = values.seed === undefined ? 1 : Number(values.seed);
    if (!Number.isInteger(seed)) throw new UsageError(`--seed wants an integer, got "${values.seed}"`);
    return {
        kind: 'run',
        options: {
            scenario: values.scenario,
            root: values.root,
            tickMs: positiveNumber(values['tick-ms'], 'tick-ms', 1000),
            timeScale: positiveNumber(values['time-scale'], 'time-scale', 1),
            seed,
            once: values.once ?? false,
            quiet: values.quiet ?? false,
        },
    };
}
