// SPDX-License-Identifier: LGPL-2.1-or-later
// The kernel's number parsers, as the attributes use them: a write the kernel would refuse is
// refused here too (and the file goes back to its value), a sloppy one it accepts is accepted.

export type Errno = 'EINVAL' | 'ERANGE' | 'EBUSY';
export type Parsed = { value: number } | { error: Errno };

export const UINT_MAX = 0xffffffff;
const ULONG_MAX = 2n ** 64n - 1n;

/** kstrtoul/kstrtouint, base 10: optional '+', digits, at most one trailing newline; too big is ERANGE. */
export function parseUnsigned(text: string, max: bigint | number = ULONG_MAX): Parsed {
    const match = /^\+?(\d+)\n?$/.exec(text);
    if (!match) return { error: 'EINVAL' };
    const value = BigInt(match[1]);
    return value > BigInt(max) ? { error: 'ERANGE' } : { value: Number(value) };
}

/** proc_dointvec (sysctls): blanks skipped, optional minus; text after a blank is ignored; int range only. */
export function parseProcInt(text: string): Parsed {
    const match = /^\s*(-?\d+)(\s[\s\S]*)?$/.exec(text);
    if (!match) return { error: 'EINVAL' };
    const value = BigInt(match[1]);
    if (value > 2147483647n || value < -2147483648n) return { error: 'EINVAL' };
    return { value: Number(value) };
}

/** simple_strtoul(base 0), as SCSI's queue_depth uses: leading number only (0x hex, 0 octal), else 0. */
export function parseLenientUnsigned(text: string): number {
    const digits = /^(0x[0-9a-f]+|0[0-7]*|[1-9]\d*)/i.exec(text)?.[1];
    if (digits === undefined) return 0;
    if (/^0x/i.test(digits)) return parseInt(digits.slice(2), 16);
    return digits.startsWith('0') ? parseInt(digits, 8) : Number(digits);
}

/** md's cmd_match: the word exactly, optionally followed by one newline. */
export function matchesCommand(text: string, command: string): boolean {
    return text === command || text === `${command}\n`;
}
