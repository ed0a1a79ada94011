// SPDX-License-Identifier: LGPL-2.1-or-later
// What a line of /proc/mdstat is, by its content (never by its indentation: pasted captures lose it).

export type LineKind = 'blank' | 'prompt' | 'personalities' | 'unused' | 'bitmap' | 'progress' | 'status' | 'header'
    | 'unknown';

/** Ordered: the first matching pattern names the line. */
const LINE_KINDS: [LineKind, RegExp][] = [
    ['blank', /^$/],
    // `# cat /proc/mdstat`, `$ cat ...`, `[root@host ~]# cat ...`, `user@host:~$ cat ...`
    ['prompt', /^(?:\[[^\]]*\]|[\w.@:~/-]*)[#$%>](?:\s|$)/],
    ['personalities', /^Personalities\s*:/],
    ['unused', /^unused devices\s*:/],
    ['bitmap', /^bitmap\s*:/],
    // With its `[==>...]` bar, or bare as in `resync=DELAYED`.
    ['progress', /^(?:\[[=>.]*\]|[A-Za-z]+\s*=)/],
    ['status', /^\d/],
    // Linux block device names have at most 31 characters.
    ['header', /^[^\s:]{1,31}\s*:/],
];

export function classify(line: string): LineKind {
    for (const [kind, pattern] of LINE_KINDS) {
        if (pattern.test(line)) return kind;
    }
    return 'unknown';
}
