// SPDX-License-Identifier: LGPL-2.1-or-later
// The kernel's lines of completed checks in the journal (src/md/alerts/checkJournal.ts), as
// `journalctl --output=short-unix` prints what md's md_do_sync() logs ("md: %s: %s %s.").
import { CHECK_END_GREP, parseCheckEnds } from '../../../../src/md/alerts/checkJournal';

const lines = [
    '1764460800.123456 fedora kernel: md: md0: data-check done.',
    '1764547200.000001 fedora kernel: md: md0: data-check done.',
    '1764500000.5 fedora kernel: md: md127: requested-resync done.',
    // Cut short, another operation, or another program's words: no completed check.
    '1764600000.1 fedora kernel: md: md1: data-check interrupted.',
    '1764600000.1 fedora kernel: md: md2: recovery done.',
    '1764600000.1 fedora raid-check[812]: md: md3: data-check done.',
    '-- No entries --',
];

test('the latest completed check or repair per array, by kernel name', () => {
    expect(parseCheckEnds(lines)).toEqual(new Map([['md0', 1764547200], ['md127', 1764500000]]));
    expect(parseCheckEnds([])).toEqual(new Map());
});

test('the pattern journalctl greps with takes the messages the parser reads, and only those', () => {
    const grep = new RegExp(CHECK_END_GREP);
    const messages = lines.map(l => l.replace(/^\S+ \S+ [^:]+: /, ''));
    expect(messages.filter(m => grep.test(m))).toEqual([
        'md: md0: data-check done.', 'md: md0: data-check done.', 'md: md127: requested-resync done.', 'md: md3: data-check done.',
    ]);
});
