// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #31: a change to a host file edits only its directive's lines, in the file as it is, and
// its undo puts back only those lines, whatever else was added to the file in between.

import { applyLineEdits, inverseLineEdits, linesOf, ownerPattern, type LineEdit } from '../../../src/md/lineEdit';
import { editedText, invertStep, type EditFileStep } from '../../../src/md/plan';
import { msg } from '../../../src/md/message';

const CONF = '# mdadm.conf\n\nDEVICE partitions\nMAILADDR root\nARRAY /dev/md0 metadata=1.2 UUID=1:2:3:4\n';
const set = (key: string, ...lines: string[]): LineEdit => ({ key, lines });

describe('mdadm.conf', () => {
    test('the directive\'s line is replaced in place; comments, blank lines and ARRAY lines stay', () => {
        expect(applyLineEdits(CONF, 'mdadm-conf', [set('MAILADDR', 'MAILADDR admin@example.com')]))
            .toBe(CONF.replace('MAILADDR root', 'MAILADDR admin@example.com'));
    });

    test('a shortened, lower-case keyword and its continuation lines are the directive\'s; MAIL is MAILADDR, not MAILFROM', () => {
        const text = 'mail root\n  second\nMAILF raid@host\nPROGRAM /a\n';
        expect(linesOf(text, 'mdadm-conf', 'MAILADDR')).toEqual(['mail root', '  second']);
        expect(linesOf(text, 'mdadm-conf', 'MAILFROM')).toEqual(['MAILF raid@host']);
        expect(applyLineEdits(text, 'mdadm-conf', [set('MAILADDR', 'MAILADDR a@b')])).toBe('MAILADDR a@b\nMAILF raid@host\nPROGRAM /a\n');
    });

    test('a word that only starts like a keyword, a comment naming it, and a two-letter word are not it', () => {
        const text = '# MAILADDR old\nMAILADDRESS x\nMA y\nPROGRAMS z\n';
        expect(linesOf(text, 'mdadm-conf', 'MAILADDR')).toEqual([]);
        expect(linesOf(text, 'mdadm-conf', 'PROGRAM')).toEqual([]);
        expect(applyLineEdits(text, 'mdadm-conf', [set('MAILADDR', 'MAILADDR root')])).toBe(`${text}MAILADDR root\n`);
    });

    test('repeated directives: all give way to the new line, where the first was; removal removes them all', () => {
        const text = 'A 1\nPROGRAM /a\nB 2\nPROG /b\n';
        expect(applyLineEdits(text, 'mdadm-conf', [set('PROGRAM', 'PROGRAM /c')])).toBe('A 1\nPROGRAM /c\nB 2\n');
        expect(applyLineEdits(text, 'mdadm-conf', [set('PROGRAM')])).toBe('A 1\nB 2\n');
    });
});

describe('shell variables', () => {
    test('NAME= and export NAME= are the variable\'s, NAME2= and a comment are not', () => {
        const text = '# AUTOCHECK=true is the default\nSTART_DAEMON=true\nexport AUTOCHECK=true\nAUTOCHECK2=x\n';
        expect(linesOf(text, 'shell-vars', 'AUTOCHECK')).toEqual(['export AUTOCHECK=true']);
        expect(applyLineEdits(text, 'shell-vars', [set('AUTOCHECK', 'AUTOCHECK=false')]))
            .toBe('# AUTOCHECK=true is the default\nSTART_DAEMON=true\nAUTOCHECK=false\nAUTOCHECK2=x\n');
    });
});

describe('sysctl.d', () => {
    test('a key is its line with dots or slashes, blanks and a leading -; another key starting alike is not', () => {
        const text = '; comment\ndev/raid/speed_limit_min=1\n -dev.raid.speed_limit_min = 2\ndev.raid.speed_limit_minimal = 3\n';
        expect(linesOf(text, 'sysctl', 'dev.raid.speed_limit_min')).toEqual(['dev/raid/speed_limit_min=1', ' -dev.raid.speed_limit_min = 2']);
        expect(applyLineEdits(text, 'sysctl', [set('dev.raid.speed_limit_min', 'dev.raid.speed_limit_min = 9')]))
            .toBe('; comment\ndev.raid.speed_limit_min = 9\ndev.raid.speed_limit_minimal = 3\n');
    });
});

describe('the file\'s edges', () => {
    test('a file that does not exist yet is made of the new line', () => {
        expect(applyLineEdits(null, 'shell-vars', [set('AUTOCHECK', 'AUTOCHECK=false')])).toBe('AUTOCHECK=false\n');
        expect(applyLineEdits(null, 'shell-vars', [set('AUTOCHECK')])).toBe('');
    });

    test('a missing trailing newline stays missing where the last line is not touched, and is added where a line is appended', () => {
        expect(applyLineEdits('A=1\nB=2', 'shell-vars', [set('A', 'A=3')])).toBe('A=3\nB=2');
        expect(applyLineEdits('A=1\nB=2', 'shell-vars', [set('C', 'C=3')])).toBe('A=1\nB=2\nC=3\n');
        expect(applyLineEdits('A=1\nB=2', 'shell-vars', [set('B', 'B=3')])).toBe('A=1\nB=3\n');
    });

    test('an edit that sets what is there changes nothing, byte for byte', () => {
        expect(applyLineEdits(CONF, 'mdadm-conf', [set('MAILADDR', 'MAILADDR root')])).toBe(CONF);
        expect(applyLineEdits('A=1\r\n', 'shell-vars', [set('B')])).toBe('A=1\r\n');
    });
});

describe('the undo', () => {
    const edits = [set('MAILADDR', 'MAILADDR admin@example.com'), set('PROGRAM', 'PROGRAM /usr/sbin/alert')];

    test('puts back the old lines, and removes the added ones, in the file as it is at undo time', () => {
        const after = applyLineEdits(CONF, 'mdadm-conf', edits);
        const appended = `${after}ARRAY /dev/md1 metadata=1.2 UUID=5:6:7:8\nMAILFROM raid@host\n`;
        const undone = applyLineEdits(appended, 'mdadm-conf', inverseLineEdits(CONF, 'mdadm-conf', edits));
        expect(undone).toBe(`${CONF}ARRAY /dev/md1 metadata=1.2 UUID=5:6:7:8\nMAILFROM raid@host\n`);
    });

    test('of the same directive twice: back to the first text', () => {
        const twice = [set('PROGRAM', 'PROGRAM /a'), set('PROGRAM', 'PROGRAM /b')];
        const after = applyLineEdits(CONF, 'mdadm-conf', twice);
        expect(applyLineEdits(after, 'mdadm-conf', inverseLineEdits(CONF, 'mdadm-conf', twice))).toBe(CONF);
    });

    test('an edit step\'s undo removes the file it made, and keeps one that existed even when left empty', () => {
        const made: EditFileStep = {
            kind: 'edit-file', setting: msg('x'), path: '/etc/default/mdadm', format: 'shell-vars', edits: [set('AUTOCHECK', 'AUTOCHECK=false')], opened: null,
        };
        const undo = invertStep(made) as EditFileStep;
        expect(undo.opened).toBe('AUTOCHECK=false\n');
        expect(editedText(undo, 'AUTOCHECK=false\n')).toBe(null);
        expect(editedText(undo, 'AUTOCHECK=false\nSTART_DAEMON=true\n')).toBe('START_DAEMON=true\n');
        const existed = invertStep({ ...made, opened: '' }) as EditFileStep;
        expect(editedText(existed, 'AUTOCHECK=false\n')).toBe('');
    });
});

test('a directive name that a regex or a shell would read otherwise is refused', () => {
    expect(() => ownerPattern('shell-vars', 'A.*')).toThrow();
    expect(() => ownerPattern('mdadm-conf', 'x;y')).toThrow();
    expect(() => ownerPattern('sysctl', 'dev.raid.*')).toThrow();
    expect(() => ownerPattern('shell-vars', 'dev.raid.x')).toThrow();
});
