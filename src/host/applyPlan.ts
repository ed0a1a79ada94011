// SPDX-License-Identifier: LGPL-2.1-or-later
// Applying a plan, as the change dialog does it, apart from any component: read again the values
// the plan replaces (a change made elsewhere since the dialog opened stops it), record the
// originals in the restore journal (with the armed automatic restores following it), write the
// steps under the plan record, and undo what a failed apply already did. The dialog renders the
// phases and dispatches these.

import type { HostConfig } from './config';
import { applyRecorded, applySteps, readAttributes, readJournal, type ApplyResult, type StepOutcome } from './executor';
import { armedFollowSteps, type ArmedRestore } from '../md/autoRestore';
import { stepsWithJournal, type Journal } from '../md/journal';
import { changedSinceOpened, pathsToRecheck, type ChangedSinceOpened } from '../md/openedValues';
import { invertSteps, type Plan, type Step } from '../md/plan';

export interface ApplyRequest {
    config: HostConfig;
    /** The plan the dialog shows; null for steps that are not a plan of their own. */
    plan: Plan | null;
    /** Record the values being replaced first (false for the restore itself). */
    recordOriginals: boolean;
    /** Steps that replace the plan's own (the restore with its journal removal): never recorded. */
    steps?: readonly Step[];
    /** The automatic restores armed now: a recorded change rewrites their files too. */
    armed: ReadonlyMap<string, ArmedRestore>;
}

/** What changed on the host since the dialog opened, among the values the steps replace. */
export async function changedOnHost(config: HostConfig, steps: readonly Step[]): Promise<ChangedSinceOpened[]> {
    return changedSinceOpened(steps, await readAttributes(config, pathsToRecheck(steps)));
}

/** Writes `writing` (the plan's steps, or them rebased on the values found), recording first when asked. */
export async function writePlan(request: ApplyRequest, writing: Step[]): Promise<ApplyResult> {
    const { config, plan } = request;
    const follow = (updated: Journal) => armedFollowSteps(updated, request.armed, config);
    const record = async (p: Plan) => stepsWithJournal({ ...p, steps: writing }, await readJournal(config),
        config.stateDir, new Date().toISOString(), follow);
    const all = plan && request.recordOriginals && !request.steps ? await record(plan) : writing;
    return plan ? applyRecorded(config, plan.title, writing, all) : applySteps(config, all);
}

/** The steps of a failed apply that an undo can reverse (files written are not). */
export function undoableSteps(result: ApplyResult): StepOutcome[] {
    return result.failed ? result.done.filter(o => o.step.kind !== 'write-file') : [];
}

/** Reverses the steps a failed apply already did, newest first. */
export async function undoApplied(config: HostConfig, plan: Plan | null, result: ApplyResult): Promise<ApplyResult> {
    const reverse = invertSteps(plan?.title ?? { message: '', args: [] }, undoableSteps(result).map(o => o.step));
    return applyRecorded(config, reverse.title, reverse.steps, reverse.steps);
}
