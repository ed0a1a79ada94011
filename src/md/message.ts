// SPDX-License-Identifier: LGPL-2.1-or-later
// Text the pure core hands to the UI: an English template with $0-style arguments, marked for
// translation with N_ and translated only when shown (the core has no gettext).

export interface Message {
    message: string;
    args: (string | number)[];
}

/** Marks a string for translation without translating it. */
export const N_ = (text: string): string => text;

export function msg(message: string, ...args: (string | number)[]): Message {
    return { message, args };
}
