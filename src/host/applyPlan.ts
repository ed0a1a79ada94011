// SPDX-License-Identifier: LGPL-2.1-or-later
// Applying a plan, as the change dialog does it, apart from any component: read again the values
// the plan replaces (a change made elsewhere since the dialog opened stops it), record the
// originals in the restore journal (with the armed automatic restores following it; a limit an
// open check window holds is recorded with the value it goes back to then), write the
// steps under the plan record, and undo what a failed apply already did. The dialog renders the
// phases and dispatches these.

import type { HostConfig } from './config';
import { applyRecorded, applySteps, readAttributes, readHostFile, readJournal, type ApplyResult, type StepOutcome } from './executor';
import { armedFollowSteps, type ArmedRestore } from '../md/autoRestore';
import { stepsWithJournal, type Journal } from '../md/journal';
import {
    changedSinceOpened, filesChangedSinceOpened, filesToRecheck, pathsToRecheck, type ChangedSinceOpened,
} from '../md/openedValues';
import { invertSteps, type Plan, type Step } from '../md/plan';
import { valueAfterWindow, WINDOW_LIMITS_ARMED, WINDOW_LIMITS_HELD, windowLimitsInForce } from '../md/alerts/windowLimits';
import type { OpenWindowLimits } from '../md/modelTypes';

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

/** What changed on the host since the dialog opened, among the values the steps replace and the files they edit. */
export async function changedOnHost(config: HostConfig, steps: readonly Step[]): Promise<ChangedSinceOpened[]> {
    const [values, texts] = await Promise.all([
        readAttributes(config, pathsToRecheck(steps)), readFiles(filesToRecheck(steps)),
    ]);
    return [...changedSinceOpened(steps, values), ...filesChangedSinceOpened(steps, texts)];
}

/** Each file's text now (null: no such file); a file that cannot be read counts as none. */
async function readFiles(paths: readonly string[]): Promise<Map<string, string | null>> {
    const texts = await Promise.all(paths.map(path => readHostFile(path, 'try').catch(() => null)));
    return new Map(paths.map((path, i) => [path, texts[i]]));
}

/**
 * The plan with each file edit's `opened` as the host holds it now: a dialog that opens on a plan
 * made earlier (an undo) decides on the files as they are when it opens.
 */
export async function reopenedPlan(plan: Plan): Promise<Plan> {
    const texts = await readFiles(filesToRecheck(plan.steps));
    return { ...plan, steps: plan.steps.map(s => (s.kind === 'edit-file' ? { ...s, opened: texts.get(s.path) ?? null } : s)) };
}

/** An open check window's limits as the host holds them now (the page's last read may be 10 s old). */
async function readOpenWindow(config: HostConfig): Promise<OpenWindowLimits | null> {
    const [armed, held] = await Promise.all([WINDOW_LIMITS_ARMED, WINDOW_LIMITS_HELD]
        .map(name => readHostFile(`${config.stateDir}/${name}`, 'try').catch(() => null)));
    return windowLimitsInForce(armed ?? undefined, held ?? undefined);
}

/** Writes `writing` (the plan's steps, or them rebased on the values found), recording first when asked. */
export async function writePlan(request: ApplyRequest, writing: Step[]): Promise<ApplyResult> {
    const { config, plan } = request;
    const follow = (updated: Journal) => armedFollowSteps(updated, request.armed, config);
    const record = async (p: Plan) => {
        const [journal, window] = await Promise.all([readJournal(config), readOpenWindow(config)]);
        return stepsWithJournal({ ...p, steps: writing }, journal, config.stateDir, new Date().toISOString(), follow,
            (path, from) => valueAfterWindow(window, path, from));
    };
    const all = plan && request.recordOriginals && !request.steps ? await record(plan) : writing;
    return plan ? applyRecorded(config, plan.title, writing, all) : applySteps(config, all);
}

/** The steps of a failed apply that an undo can reverse (files written whole are not; edits are). */
export function undoableSteps(result: ApplyResult): StepOutcome[] {
    return result.failed ? result.done.filter(o => o.step.kind !== 'write-file') : [];
}

/** Reverses the steps a failed apply already did, newest first. */
export async function undoApplied(config: HostConfig, plan: Plan | null, result: ApplyResult): Promise<ApplyResult> {
    const reverse = invertSteps(plan?.title ?? { message: '', args: [] }, undoableSteps(result).map(o => o.step));
    return applyRecorded(config, reverse.title, reverse.steps, reverse.steps);
}
