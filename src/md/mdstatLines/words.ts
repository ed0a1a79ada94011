// SPDX-License-Identifier: LGPL-2.1-or-later
// Shared by the line parsers of /proc/mdstat: words, counts and quoting input in problem messages.

/** Quoted input in problem messages is cut to this many characters. */
const MAX_QUOTE = 60;

/** Up to 15 digits keeps every count an exact JavaScript integer. */
export const COUNT = /^\d{1,15}$/;
export const KIB_SIZE = /^(\d{1,15})[kK]$/;

/** Notes a problem with the line being read. */
export type Report = (message: string) => void;

export function words(text: string): string[] {
    const trimmed = text.trim();
    return trimmed === '' ? [] : trimmed.split(/\s+/);
}

/** Input quoted in a message: cut short, tabs as spaces, other control characters as �. */
export function quote(text: string): string {
    const snippet = text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE)}…` : text;
    const printable = Array.from(snippet, c => (c === '\t' ? ' ' : isControl(c) ? '\ufffd' : c)).join('');
    return `"${printable}"`;
}

function isControl(char: string): boolean {
    const code = char.charCodeAt(0);
    return code < 0x20 || (code >= 0x7f && code < 0xa0);
}

export function toCount(text: string): number | null {
    return COUNT.test(text) ? Number(text) : null;
}
