// Global (dev.raid.speed_limit_min/max) and per-array (md/sync_speed_min/max) rebuild speed limits.
// The kernel accepts 0, -1 and min > max without complaint (checked on 6.1), so raidtune refuses
// them itself.

import type { ArrayModel, HostModel } from '../model';
import { msg, N_, type Message } from '../message';
import type { Plan, WriteAttributeStep } from '../plan';
import { fieldError, parseRateMBs, type FieldError, type Parsed } from '../validate';
import { hasErrors, type PlanResult } from './result';

export type LimitField = 'min' | 'max';

export const GLOBAL_MIN_PATH = '/proc/sys/dev/raid/speed_limit_min';
export const GLOBAL_MAX_PATH = '/proc/sys/dev/raid/speed_limit_max';

function attribute(setting: Message, path: string, to: number | 'system', from: string | null): WriteAttributeStep {
    return { kind: 'write-attribute', setting, path, to: String(to), from };
}

function checkOrder(min: Parsed<number>, max: Parsed<number>): Partial<Record<LimitField, FieldError>> {
    const errors: Partial<Record<LimitField, FieldError>> = { min: min.error, max: max.error };
    if (min.value !== undefined && max.value !== undefined && min.value > max.value) {
        errors.min = fieldError(N_('The minimum must not be above the maximum.')).error;
    }
    return errors;
}

/** Inputs in MB/s, as typed. */
export function globalLimitsPlan(host: HostModel, input: { min: string; max: string }): PlanResult<LimitField> {
    const min = parseRateMBs(input.min);
    const max = parseRateMBs(input.max);
    const errors = checkOrder(min, max);
    if (hasErrors(errors)) return { errors };
    const from = (n: number | null) => (n === null ? null : String(n));
    const plan: Plan = {
        title: msg(N_('Change the system rebuild speed limits')),
        steps: [
            attribute(msg(N_('system minimum rebuild speed')), GLOBAL_MIN_PATH, min.value!, from(host.global.speedMinKiBs)),
            attribute(msg(N_('system maximum rebuild speed')), GLOBAL_MAX_PATH, max.value!, from(host.global.speedMaxKiBs)),
        ],
    };
    // Raising the minimum above the current maximum would be refused: write the maximum first then.
    if (host.global.speedMaxKiBs !== null && min.value! > host.global.speedMaxKiBs) plan.steps.reverse();
    return { plan, warnings: [] };
}

/**
 * An array's limit: its own speed as typed (MB/s), or "system" to follow the global limit again.
 * The choice is not the text: an own limit typed as "system" is a bad number, not the other choice.
 */
export type ArrayLimit = 'system' | { own: string };
export type ArrayLimitInput = { min: ArrayLimit; max: ArrayLimit };

export function arrayLimitsPlan(host: HostModel, array: ArrayModel, input: ArrayLimitInput): PlanResult<LimitField> {
    const parse = (limit: ArrayLimit, systemValue: number | null): Parsed<number> =>
        limit === 'system'
            ? (systemValue === null ? fieldError(N_('The system limit is unknown.')) : { value: systemValue })
            : parseRateMBs(limit.own);
    const min = parse(input.min, host.global.speedMinKiBs);
    const max = parse(input.max, host.global.speedMaxKiBs);
    const errors = checkOrder(min, max);
    if (hasErrors(errors)) return { errors };
    const base = `/sys/block/${array.name}/md`;
    const previous = (limit: ArrayModel['speedMin']) => (limit === null ? null : limit.source === 'system' ? 'system' : String(limit.kiBs));
    const to = (limit: ArrayLimit, value: number) => (limit === 'system' ? 'system' : value);
    return {
        plan: {
            title: msg(N_('Change the rebuild speed limits of $0'), array.name),
            steps: [
                attribute(msg(N_('minimum sync speed of $0'), array.name), `${base}/sync_speed_min`, to(input.min, min.value!), previous(array.speedMin)),
                attribute(msg(N_('maximum sync speed of $0'), array.name), `${base}/sync_speed_max`, to(input.max, max.value!), previous(array.speedMax)),
            ],
        },
        warnings: [],
    };
}
