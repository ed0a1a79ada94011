// SPDX-License-Identifier: LGPL-2.1-or-later
// Global (dev.raid.speed_limit_min/max) and per-array (md/sync_speed_min/max) rebuild speed limits,
// and, where the kernel has it, the sync I/O depth next to them (settings/registry.ts). The kernel
// accepts 0, -1 and min > max without complaint (checked on 6.1), so raidtune refuses them itself.

import type { ArrayModel, HostModel } from '../modelTypes';
import { msg, N_ } from '../message';
import { withoutNoOps, type WriteAttributeStep } from '../plan';
import { ARRAY_SETTINGS, GLOBAL_SETTINGS, type ArraySettingId } from '../settings/registry';
import { deviceStep, globalStep, parseSetting } from '../settings/steps';
import { fieldError, parseRateMiBs, type FieldError, type Parsed } from '../validate';
import { hasErrors, type PlanResult } from './result';

export type LimitField = 'min' | 'max' | 'depth';

/**
 * `minFollowsSystem`: the minimum is the system's, so its dialog shows no field for it: a maximum
 * below it is said at the maximum's field (an error on the hidden one greyed Apply without a word).
 */
function checkOrder(min: Parsed<number | undefined>, max: Parsed<number | undefined>,
    depth: Parsed<unknown>, minFollowsSystem = false): Partial<Record<LimitField, FieldError>> {
    const errors: Partial<Record<LimitField, FieldError>> = { min: min.error, max: max.error, depth: depth.error };
    if (min.value !== undefined && max.value !== undefined && min.value > max.value) {
        if (minFollowsSystem) {
            errors.max = fieldError(N_('The maximum must not be below the system minimum this array follows ($0 KiB/s).'), min.value).error;
        } else {
            errors.min = fieldError(N_('The minimum must not be above the maximum.')).error;
        }
    }
    return errors;
}

const NOT_ON_THIS_KERNEL = N_('This kernel has no sync I/O depth.');

/** A depth as typed, or nothing to write (null: left as shown, or not offered). */
function typedDepth(text: string | null | undefined, kernelHasIt: boolean): Parsed<number | undefined> {
    if (text === null || text === undefined) return { value: undefined };
    return kernelHasIt ? parseSetting(GLOBAL_SETTINGS.syncIoDepth, text) : fieldError(NOT_ON_THIS_KERNEL);
}

/**
 * Inputs in MiB/s, as typed; null for a field the user left as the dialog showed it. Such a field is
 * never written: its text is the current value rounded for display (1000 KiB/s shows as 0.98 MiB/s,
 * which is 1004), and a value another tab wrote since the dialog opened is not the user's to undo.
 * `depth` is a whole number, offered only where the kernel has dev.raid.sync_io_depth.
 */
export function globalLimitsPlan(host: HostModel,
    input: { min: string | null; max: string | null; depth?: string | null }): PlanResult<LimitField> {
    const min = typedOrCurrent(input.min, host.global.speedMinKiBs);
    const max = typedOrCurrent(input.max, host.global.speedMaxKiBs);
    const depth = typedDepth(input.depth, host.global.syncIoDepth !== null);
    const errors = checkOrder(min, max, depth);
    if (hasErrors(errors)) return { errors };
    const speeds = [
        input.min !== null && globalStep(GLOBAL_SETTINGS.speedMin, host, min.value!),
        input.max !== null && globalStep(GLOBAL_SETTINGS.speedMax, host, max.value!),
    ].filter((s): s is WriteAttributeStep => s !== false);
    // Raising the minimum above the current maximum would be refused: write the maximum first then.
    if (host.global.speedMaxKiBs !== null && min.value! > host.global.speedMaxKiBs) speeds.reverse();
    const depthStep = depth.value === undefined ? [] : [globalStep(GLOBAL_SETTINGS.syncIoDepth, host, depth.value)];
    const plan = withoutNoOps({ title: msg(N_('Change the system rebuild speed limits')), steps: [...speeds, ...depthStep] });
    return { plan, warnings: [] };
}

/** A typed speed, or (null: left as shown) the current value, which the order check still needs. */
function typedOrCurrent(text: string | null, current: number | null): Parsed<number | undefined> {
    if (text !== null) return parseRateMiBs(text);
    return { value: current ?? undefined };
}

/**
 * An array's limit: its own speed as typed (MiB/s), or "system" to follow the global limit again.
 * The choice is not the text: an own limit typed as "system" is a bad number, not the other choice.
 * `filledFrom`: the KiB/s the field was filled with (the system's value when "own" is chosen, a
 * suggested one); while the text still reads as that value, that exact value is written.
 */
export type ArrayLimit = 'system' | { own: string; filledFrom?: number | null };
/**
 * null for a field left as the dialog showed it (never written, as for the global limits). `depth`:
 * the array's own sync I/O depth (a whole number) or "system"; only where the array has the file.
 */
export type ArrayLimitInput = { min: ArrayLimit | null; max: ArrayLimit | null; depth?: ArrayLimit | null };

function arrayDepth(limit: ArrayLimit | null | undefined, array: ArrayModel): Parsed<number | 'system' | undefined> {
    if (limit === null || limit === undefined) return { value: undefined };
    if (array.syncIoDepth === null) return fieldError(NOT_ON_THIS_KERNEL);
    return limit === 'system' ? { value: 'system' } : parseSetting(ARRAY_SETTINGS.syncIoDepth, limit.own);
}

export function arrayLimitsPlan(host: HostModel, array: ArrayModel, input: ArrayLimitInput): PlanResult<LimitField> {
    const parse = (limit: ArrayLimit | null, current: ArrayModel['speedMin'], systemValue: number | null): Parsed<number | undefined> => {
        if (limit === null) return { value: current?.kiBs ?? systemValue ?? undefined };
        if (limit !== 'system') return parseRateMiBs(limit.own, limit.filledFrom);
        return systemValue === null ? fieldError(N_('The system limit is unknown.')) : { value: systemValue };
    };
    const min = parse(input.min, array.speedMin, host.global.speedMinKiBs);
    const max = parse(input.max, array.speedMax, host.global.speedMaxKiBs);
    const depth = arrayDepth(input.depth, array);
    const minFollowsSystem = input.min === 'system' || (input.min === null && array.speedMin?.source !== 'local');
    const errors = checkOrder(min, max, depth, minFollowsSystem);
    if (hasErrors(errors)) return { errors };
    const step = (limit: ArrayLimit | null, value: number | undefined, setting: ArraySettingId) =>
        limit === null ? [] : [deviceStep(ARRAY_SETTINGS[setting], array, limit === 'system' ? 'system' : value!)];
    const depthStep = depth.value === undefined ? [] : [deviceStep(ARRAY_SETTINGS.syncIoDepth, array, depth.value)];
    return {
        plan: withoutNoOps({
            title: msg(N_('Change the rebuild speed limits of $0'), array.name),
            steps: [
                ...step(input.min, min.value, 'speedMin'),
                ...step(input.max, max.value, 'speedMax'),
                ...depthStep,
            ],
        }),
        warnings: [],
    };
}
