// SPDX-License-Identifier: LGPL-2.1-or-later
// Run the built plugin in a real cockpit-ws + cockpit-bridge, on a simulated md host, in headless
// Chromium. Used by the browser tests (test/browser/harness) and by tools/demo.ts.
//
// Node-only code that must not pull in playwright (the demo bundle) imports './ws' and './sim'
// directly instead of this file.
export { startSimulatedHost, simulatedHostConfig, simulatedTool, simulatorPath, type SimulatedHost, type SimulatedHostOptions } from './sim';
export { startCockpit, isPluginDir, simulatedHostConditions, type Cockpit, type CockpitOptions, type RaidtuneConfig } from './ws';
export {
    launchBrowser, openPage, formatProblems, isKnownShellNoise, CHROMIUM, CHROMIUM_ARGS,
    type LaunchedBrowser, type Problem, type ProblemKind, type RecordedPage,
} from './browser';
export { formatProcesses, producesFrames } from './frames';
export { cockpitUnderTest, type CockpitInstall, type CockpitVersionKey } from './versions';
export { repoRoot, processesTagged, HARNESS_RUN, HARNESS_CHILD } from './proc';
export { waitBudget, TIMEOUT_FACTOR } from './waitBudget';
