// SPDX-License-Identifier: LGPL-2.1-or-later
// Finds a scenario by built-in name or file path, parses it and validates it. The built-in
// scenarios are bundled into the simulator (sim/scenarios/index.ts), so names work from any
// directory and in tests.

import { existsSync, readFileSync } from 'node:fs';
import { BUILTIN_SCENARIOS } from '../scenarios';
import { expandFamilies } from './expand';
import type { ScenarioSpec } from './types';
import { checkConsistency, checkShape, ScenarioError } from './validate';

export function builtinScenarioNames(): string[] {
    return Object.keys(BUILTIN_SCENARIOS);
}

/** Validate a parsed scenario and expand its generated arrays. `source` names it in errors. */
export function parseScenario(raw: unknown, source: string): ScenarioSpec {
    const spec = expandFamilies(checkShape(raw, source));
    checkConsistency(spec, source);
    return spec;
}

/** A built-in scenario name ("raid6-recovery") or the path of a scenario JSON file. */
export function loadScenario(nameOrPath: string): ScenarioSpec {
    const builtin = BUILTIN_SCENARIOS[nameOrPath];
    if (builtin) return parseScenario(builtin, nameOrPath);
    if (!existsSync(nameOrPath)) {
        throw new ScenarioError(nameOrPath, [
            `no such file, and not a built-in scenario (built-in: ${builtinScenarioNames().join(', ')})`,
        ]);
    }
    let raw: unknown;
    try {
        raw = JSON.parse(readFileSync(nameOrPath, 'utf8'));
    } catch (error) {
        throw new ScenarioError(nameOrPath, [`not valid JSON: ${(error as Error).message}`]);
    }
    return parseScenario(raw, nameOrPath);
}
