// SPDX-License-Identifier: LGPL-2.1-or-later
// Runs once after the browser tests: nothing the harness started may still be running.
import { failOnLeftoverProcesses } from '../../../tools/cockpit/proc';
import { endBigScenarioTurn } from './bigScenarioTurn';

export default async function globalTeardown(): Promise<void> {
    await endBigScenarioTurn();
    return failOnLeftoverProcesses('browser');
}
