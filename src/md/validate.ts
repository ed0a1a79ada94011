// SPDX-License-Identifier: LGPL-2.1-or-later
// Turning what a person typed into a value the kernel may be given, or a message saying why not.
// Nothing is ever written from a value that did not pass here. Messages are English templates
// with $0-style arguments; the UI translates them (N_ marks them for extraction).

import { formatMiBs, KIB_PER_MIB } from './format';
import { msg, N_, type Message } from './message';

export { N_ };
export type FieldError = Message;

export type Parsed<T> = { value: T; error?: undefined } | { value?: undefined; error: FieldError };

export function fieldError(message: string, ...args: (string | number)[]): { error: FieldError } {
    return { error: msg(message, ...args) };
}

/** A whole number in [min, max]: no sign, decimals, exponents, spaces inside or other text. */
export function parseWholeNumber(input: string, min: number, max: number): Parsed<number> {
    const text = input.trim();
    if (text === '') return fieldError(N_('Enter a value.'));
    if (!/^\d+$/.test(text)) return fieldError(N_('Use a whole number from $0 to $1.'), min, max);
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value < min || value > max) {
        return fieldError(N_('Use a whole number from $0 to $1.'), min, max);
    }
    return { value };
}

/**
 * Rebuild speeds are typed in MiB/s and written in the kernel's KiB/s, so that a round figure typed
 * is a round value written (50 MiB/s = 51200 KiB/s). 0.1 to 20000 MiB/s per disk.
 */
export const RATE_MIN_KIBS = 100;
export const RATE_MAX_KIBS = 20000 * KIB_PER_MIB;

export function miBsToKiBs(miBs: number): number {
    return Math.round(miBs * KIB_PER_MIB);
}

const RATE_TEXT = /^\d+(\.\d{1,2})?$/;

/**
 * The KiB/s a speed field's text stands for. While the text still reads as the value the field was
 * filled with (`filledFrom`, KiB/s), that exact value: 4000 KiB/s shows as 3.91, which typed would
 * be 4004. Otherwise the MiB/s typed; null when the text is no number of MiB/s.
 */
export function rateTextKiBs(text: string, filledFrom: number | null = null): number | null {
    const trimmed = text.trim();
    if (filledFrom !== null && trimmed === formatMiBs(filledFrom)) return filledFrom;
    return RATE_TEXT.test(trimmed) ? miBsToKiBs(Number(trimmed)) : null;
}

/** "50" or "50.5" (MiB/s, at most two decimals) -> KiB/s within the sane range; `filledFrom` as above. */
export function parseRateMiBs(input: string, filledFrom: number | null = null): Parsed<number> {
    const text = input.trim();
    if (text === '') return fieldError(N_('Enter a speed in MiB/s.'));
    const kiBs = rateTextKiBs(text, filledFrom);
    if (kiBs === null || kiBs < RATE_MIN_KIBS || kiBs > RATE_MAX_KIBS) {
        const range = [Math.ceil((RATE_MIN_KIBS * 100) / KIB_PER_MIB) / 100, RATE_MAX_KIBS / KIB_PER_MIB];
        return fieldError(N_('Use a number of MiB/s from $0 to $1, like 50 or 50.5.'), ...range);
    }
    return { value: kiBs };
}

/** One of a fixed list of words (a scheduler name, a sync action). */
export function parseChoice<T extends string>(input: string, choices: readonly T[]): Parsed<T> {
    const found = choices.find(c => c === input.trim());
    return found ? { value: found } : fieldError(N_('Choose one of: $0.'), choices.join(', '));
}

/** A device name the model knows (never a name taken from the user as is). */
export function knownDevice(name: string, known: Iterable<string>): Parsed<string> {
    for (const k of known) if (k === name) return { value: k };
    return fieldError(N_('$0 is not a device raidtune knows on this host.'), name);
}
