// SPDX-License-Identifier: LGPL-2.1-or-later
// A small declarative checker for JSON shapes. Each rule reports problems with the JSON path
// where they are ("arrays[2].members[0].slot: expected an integer >= 0, got -1"), so a broken
// scenario file says exactly what to fix, and every problem is reported at once.

export type Problems = string[];
export type Rule = (value: unknown, path: string, problems: Problems) => void;

interface Field {
    rule: Rule;
    required: boolean;
}

export const required = (rule: Rule): Field => ({ rule, required: true });
export const optional = (rule: Rule): Field => ({ rule, required: false });

function describe(value: unknown): string {
    if (value === null) return 'null';
    if (Array.isArray(value)) return 'an array';
    if (typeof value === 'string') return JSON.stringify(value);
    if (typeof value === 'object') return 'an object';
    return String(value);
}

function at(path: string, key: string | number): string {
    if (typeof key === 'number') return `${path}[${key}]`;
    return path ? `${path}.${key}` : key;
}

/** Objects with the given fields; unknown keys are errors (typos must not pass silently). */
export function object(fields: Record<string, Field>): Rule {
    return (value, path, problems) => {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
            problems.push(`${path || 'scenario'}: expected an object, got ${describe(value)}`);
            return;
        }
        const record = value as Record<string, unknown>;
        for (const key of Object.keys(record)) {
            if (!(key in fields) && key !== '$comment')
                problems.push(`${at(path, key)}: unknown field (expected one of: ${Object.keys(fields).join(', ')})`);
        }
        for (const [key, field] of Object.entries(fields)) {
            if (record[key] === undefined) {
                if (field.required) problems.push(`${at(path, key)}: missing`);
            } else {
                field.rule(record[key], at(path, key), problems);
            }
        }
    };
}

export function arrayOf(rule: Rule): Rule {
    return (value, path, problems) => {
        if (!Array.isArray(value)) {
            problems.push(`${path}: expected an array, got ${describe(value)}`);
            return;
        }
        value.forEach((item, index) => rule(item, at(path, index), problems));
    };
}

export function number(range: { min?: number; max?: number; integer?: boolean } = {}): Rule {
    const { min, max } = range;
    const what = [
        range.integer ? 'an integer' : 'a number',
        min !== undefined ? `>= ${min}` : '',
        max !== undefined ? `<= ${max}` : '',
    ].filter(Boolean).join(' ');
    return (value, path, problems) => {
        const ok = typeof value === 'number' && Number.isFinite(value) &&
            (!range.integer || Number.isSafeInteger(value)) &&
            (min === undefined || value >= min) && (max === undefined || value <= max);
        if (!ok) problems.push(`${path}: expected ${what}, got ${describe(value)}`);
    };
}

export const integer = (range: { min?: number; max?: number } = {}): Rule => number({ ...range, integer: true });

export function string(pattern?: RegExp, hint?: string): Rule {
    return (value, path, problems) => {
        if (typeof value !== 'string') problems.push(`${path}: expected a string, got ${describe(value)}`);
        else if (pattern && !pattern.test(value))
            problems.push(`${path}: ${describe(value)} is not ${hint ?? `of the form ${pattern}`}`);
    };
}

export const boolean: Rule = (value, path, problems) => {
    if (typeof value !== 'boolean') problems.push(`${path}: expected true or false, got ${describe(value)}`);
};

export function oneOf(choices: readonly string[]): Rule {
    return (value, path, problems) => {
        if (typeof value !== 'string' || !choices.includes(value))
            problems.push(`${path}: expected one of ${choices.join(', ')}, got ${describe(value)}`);
    };
}
