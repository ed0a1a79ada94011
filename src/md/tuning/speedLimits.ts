// Global (dev.raid.speed_limit_min/max) and per-array (md/sync_speed_min/max) rebuild speed limits,
// and, where the kernel has it, the sync I/O depth next to them (syncIoDepth.ts). The kernel
// accepts 0, -1 and min > max without complaint (checked on 6.1), so raidtune refuses them itself.

import type { ArrayModel, HostModel } from '../modelTypes';
import { msg, N_, type Message } from '../message';
import { withoutNoOps, type WriteAttributeStep } from '../plan';
import { localOrSystemText } from '../sysfs';
import { fieldError, parseRateMBs, type FieldError, type Parsed } from '../validate';
import { hasErrors, type PlanResult } from './result';
import { parseSyncIoDepth, SYNC_IO_DEPTH_PATH, syncIoDepthSetting } from './syncIoDepth';

export type LimitField = 'min' | 'max' | 'depth';

export const GLOBAL_MIN_PATH = '/proc/sys/dev/raid/speed_limit_min';
export const GLOBAL_MAX_PATH = '/proc/sys/dev/raid/speed_limit_max';

function attribute(setting: Message, path: string, to: number | 'system', from: string | null): WriteAttributeStep {
    return { kind: 'write-attribute', setting, path, to: String(to), from };
}

function checkOrder(min: Parsed<number | undefined>, max: Parsed<number | undefined>, depth: Parsed<unknown>): Partial<Record<LimitField, FieldError>> {
    const errors: Partial<Record<LimitField, FieldError>> = { min: min.error, max: max.error, depth: depth.error };
    if (min.value !== undefined && max.value !== undefined && min.value > max.value) {
        errors.min = fieldError(N_('The minimum must not be above the maximum.')).error;
    }
    return errors;
}

const NOT_ON_THIS_KERNEL = N_('This kernel has no sync I/O depth.');

/** A depth as typed, or nothing to write (null: left as shown, or not offered). */
function typedDepth(text: string | null | undefined, kernelHasIt: boolean): Parsed<number | undefined> {
    if (text === null || text === undefined) return { value: undefined };
    return kernelHasIt ? parseSyncIoDepth(text) : fieldError(NOT_ON_THIS_KERNEL);
}

/**
 * Inputs in MB/s, as typed; null for a field the user left as the dialog showed it. Such a field is
 * never written: its text is the current value rounded for display (1000 KiB/s shows as 1.02 MB/s,
 * which is 996), so writing it back would change what the user did not touch. `depth` is a whole
 * number, offered only where the kernel has dev.raid.sync_io_depth.
 */
export function globalLimitsPlan(host: HostModel, input: { min: string | null; max: string | null; depth?: string | null }): PlanResult<LimitField> {
    const min = typedOrCurrent(input.min, host.global.speedMinKiBs);
    const max = typedOrCurrent(input.max, host.global.speedMaxKiBs);
    const depth = typedDepth(input.depth, host.global.syncIoDepth !== null);
    const errors = checkOrder(min, max, depth);
    if (hasErrors(errors)) return { errors };
    const from = (n: number | null) => (n === null ? null : String(n));
    const speeds = [
        input.min !== null && attribute(msg(N_('system minimum rebuild speed')), GLOBAL_MIN_PATH, min.value!, from(host.global.speedMinKiBs)),
        input.max !== null && attribute(msg(N_('system maximum rebuild speed')), GLOBAL_MAX_PATH, max.value!, from(host.global.speedMaxKiBs)),
    ].filter((s): s is WriteAttributeStep => s !== false);
    // Raising the minimum above the current maximum would be refused: write the maximum first then.
    if (host.global.speedMaxKiBs !== null && min.value! > host.global.speedMaxKiBs) speeds.reverse();
    const depthStep = depth.value === undefined ? [] : [attribute(syncIoDepthSetting(null), SYNC_IO_DEPTH_PATH, depth.value, from(host.global.syncIoDepth))];
    const plan = withoutNoOps({ title: msg(N_('Change the system rebuild speed limits')), steps: [...speeds, ...depthStep] });
    return { plan, warnings: [] };
}

/** A typed speed, or (null: left as shown) the current value, which the order check still needs. */
function typedOrCurrent(text: string | null, current: number | null): Parsed<number | undefined> {
    if (text !== null) return parseRateMBs(text);
    return { value: current ?? undefined };
}

/**
 * An array's limit: its own speed as typed (MB/s), or "system" to follow the global limit again.
 * The choice is not the text: an own limit typed as "system" is a bad number, not the other choice.
 */
export type ArrayLimit = 'system' | { own: string };
/**
 * null for a field left as the dialog showed it (never written, as for the global limits). `depth`:
 * the array's own sync I/O depth (a whole number) or "system"; only where the array has the file.
 */
export type ArrayLimitInput = { min: ArrayLimit | null; max: ArrayLimit | null; depth?: ArrayLimit | null };

function arrayDepth(limit: ArrayLimit | null | undefined, array: ArrayModel): Parsed<number | 'system' | undefined> {
    if (limit === null || limit === undefined) return { value: undefined };
    if (array.syncIoDepth === null) return fieldError(NOT_ON_THIS_KERNEL);
    return limit === 'system' ? { value: 'system' } : parseSyncIoDepth(limit.own);
}

export function arrayLimitsPlan(host: HostModel, array: ArrayModel, input: ArrayLimitInput): PlanResult<LimitField> {
    const parse = (limit: ArrayLimit | null, current: ArrayModel['speedMin'], systemValue: number | null): Parsed<number | undefined> => {
        if (limit === null) return { value: current?.kiBs ?? systemValue ?? undefined };
        if (limit !== 'system') return parseRateMBs(limit.own);
        return systemValue === null ? fieldError(N_('The system limit is unknown.')) : { value: systemValue };
    };
    const min = parse(input.min, array.speedMin, host.global.speedMinKiBs);
    const max = parse(input.max, array.speedMax, host.global.speedMaxKiBs);
    const depth = arrayDepth(input.depth, array);
    const errors = checkOrder(min, max, depth);
    if (hasErrors(errors)) return { errors };
    const base = `/sys/block/${array.name}/md`;
    const step = (limit: ArrayLimit | null, value: number | undefined, setting: Message, file: string, current: ArrayModel['speedMin']) =>
        limit === null ? [] : [attribute(setting, `${base}/${file}`, limit === 'system' ? 'system' : value!, localOrSystemText(current))];
    const depthStep = depth.value === undefined ? []
        : [attribute(syncIoDepthSetting(array.name), `${base}/sync_io_depth`, depth.value, localOrSystemText(array.syncIoDepth))];
    return {
        plan: withoutNoOps({
            title: msg(N_('Change the rebuild speed limits of $0'), array.name),
            steps: [
                ...step(input.min, min.value, msg(N_('minimum sync speed of $0'), array.name), 'sync_speed_min', array.speedMin),
                ...step(input.max, max.value, msg(N_('maximum sync speed of $0'), array.name), 'sync_speed_max', array.speedMax),
                ...depthStep,
            ],
        }),
        warnings: [],
    };
}
