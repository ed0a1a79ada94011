// SPDX-License-Identifier: LGPL-2.1-or-later
// Turning what a person typed into a value the kernel may be given, or a message saying why not.
// Nothing is ever written from a value that did not pass here. Messages are English templates
// with $0-style arguments; the UI translates them (N_ marks them for extraction).

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

/** Rebuild speeds are typed in MB/s (decimal, as people quote disks) and written in KiB/s. */
export const RATE_MIN_KIBS = 100;
export const RATE_MAX_KIBS = 20_000_000;

export function mbsToKiBs(mbs: number): number {
    return Math.round((mbs * 1e6) / 1024);
}

/** "50" or "50.5" (MB/s, at most two decimals) -> KiB/s within the sane range. */
export function parseRateMBs(input: string): Parsed<number> {
    const text = input.trim();
    if (text === '') return fieldError(N_('Enter a speed in MB/s.'));
    const range = [Math.ceil((RATE_MIN_KIBS * 1024) / 1e4) / 100, Math.floor((RATE_MAX_KIBS * 1024) / 1e6)];
    if (!/^\d+(\.\d{1,2})?$/.test(text)) {
        return fieldError(N_('Use a number of MB/s from $0 to $1, like 50 or 50.5.'), ...range);
    }
    const kiBs = mbsToKiBs(Number(text));
    if (kiBs < RATE_MIN_KIBS || kiBs > RATE_MAX_KIBS) {
        return fieldError(N_('Use a number of MB/s from $0 to $1, like 50 or 50.5.'), ...range);
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
