// SPDX-License-Identifier: LGPL-2.1-or-later
// When each array's last check ended, from the kernel's own lines in the journal: md says
// "md: md0: data-check done." when a check completes and "md: md0: requested-resync done." when a
// repair does ("interrupted" instead of "done" when it was stopped), whoever started it. A host
// that checked its arrays before raidtune came, or without raidtune's recorder, has them there.

/**
 * What journalctl --grep looks for (PCRE2, matched against the message), kept as simple as the
 * line parsed below: the two operations that read every block, completed.
 */
export const CHECK_END_GREP = '^md: md[^ ]*: (data-check|requested-resync) done\\.$';

// `journalctl --output=short-unix`: "<seconds>.<micro> <host> kernel: <message>".
const CHECK_END_LINE = /^(\d+)(?:\.\d+)? \S+ kernel: md: (md[^ ]*): (?:data-check|requested-resync) done\.$/;

/** Each array's latest completed check or repair in the lines, in Unix seconds, by kernel name. */
export function parseCheckEnds(lines: readonly string[]): Map<string, number> {
    const ends = new Map<string, number>();
    for (const line of lines) {
        const match = CHECK_END_LINE.exec(line.trim());
        if (!match) continue;
        const end = Number(match[1]);
        if (end > (ends.get(match[2]) ?? -Infinity)) ends.set(match[2], end);
    }
    return ends;
}
