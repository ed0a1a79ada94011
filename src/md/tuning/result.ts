// SPDX-License-Identifier: LGPL-2.1-or-later
// What every tuning intent returns: a plan to preview and apply, or field errors. Never both.

import type { Message } from '../message';
import type { Plan } from '../plan';
import type { FieldError } from '../validate';

export type PlanResult<Field extends string> =
    | { plan: Plan; errors?: undefined; warnings: Message[] }
    | { plan?: undefined; errors: Partial<Record<Field, FieldError>>; warnings?: undefined };

export function hasErrors<F extends string>(errors: Partial<Record<F, FieldError>>): boolean {
    return Object.values(errors).some(Boolean);
}
