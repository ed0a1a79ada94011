// SPDX-License-Identifier: LGPL-2.1-or-later
// Library entry of the simulated md host, for tests and tools that drive time themselves:
//   const host = createSimulatedHost('raid6-recovery', dir, { seed: 1 });
//   host.tick(60); ... host.close();

export { createSimulatedHost, procRoot, sysRoot } from './host';
export type { SimulatedHost, SimulatedHostOptions, WriteEvent } from './host';
export { builtinScenarioNames, loadScenario, parseScenario } from './scenario/load';
export { ScenarioError } from './scenario/validate';
export type { ScenarioSpec } from './scenario/types';
export type { HostState } from './model/types';
