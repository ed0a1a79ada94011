// SPDX-License-Identifier: LGPL-2.1-or-later
import { attributePlan, attributeStep, describePlan, describeStep, invertSteps, shellQuote, withoutNoOps, type Step } from '../../../src/md/plan';
import { execFileSync } from 'node:child_process';
import { msg } from '../../../src/md/message';

const write = (path: string, to: string, from: string | null): Step =>
    ({ kind: 'write-attribute', setting: msg('x'), path, to, from });

describe('plans', () => {
    test('describe themselves as the commands a person would type', () => {
        expect(describeStep(write('/proc/sys/dev/raid/speed_limit_min', '50000', '1000')))
            .toBe('echo 50000 > /proc/sys/dev/raid/speed_limit_min');
        expect(describeStep({ kind: 'run', setting: msg('x'), argv: ['mdadm', '--grow', '/dev/md0', '--bitmap=none'], undoArgv: null }))
            .toBe('mdadm --grow /dev/md0 --bitmap=none');
        expect(describeStep({ kind: 'write-file', setting: msg('x'), path: '/etc/sysctl.d/90-raidtune.conf', content: 'a = 1\n', previous: null }))
            .toBe("cat > /etc/sysctl.d/90-raidtune.conf <<'EOF'\na = 1\nEOF");
    });

    test('a here-document ends at a marker that no line of the content is: pasted, it writes the whole content (issue #31)', () => {
        const content = 'a\nEOF\nEOF_1\nrm -rf /tmp/x\n';
        const text = describeStep({ kind: 'write-file', setting: msg('x'), path: '/tmp/f', content, previous: null });
        expect(text).toBe(`cat > /tmp/f <<'EOF_2'\n${content}EOF_2`);
        expect(execFileSync('sh', ['-c', text.replace('cat > /tmp/f', 'cat')], { encoding: 'utf8' })).toBe(content);
    });

    test('an edit describes itself as comment lines, which a shell does nothing with', () => {
        const text = describeStep({ kind: 'edit-file', setting: msg('x'), path: '/etc/mdadm/mdadm.conf', format: 'mdadm-conf', opened: null,
            edits: [{ key: 'MAILADDR', lines: ['MAILADDR a@b\n$(touch /tmp/raidtune-pwned)'] }, { key: 'PROGRAM', lines: [] }] });
        expect(text).toBe('# edit /etc/mdadm/mdadm.conf, every other line kept as it is:\n' +
            '#   MAILADDR becomes: MAILADDR a@b $(touch /tmp/raidtune-pwned)\n#   PROGRAM removed');
        expect(execFileSync('sh', ['-c', `${text}\necho ran`], { encoding: 'utf8' })).toBe('ran\n');
    });

    test('quote what a shell would misread', () => {
        expect(shellQuote("it's $(id)")).toBe("'it'\\''s $(id)'");
        expect(shellQuote('/dev/md0')).toBe('/dev/md0');
    });

    test('undo reverses order and values, leaving out what cannot be undone', () => {
        const applied = [write('/a', '2', '1'), write('/b', 'frozen', null), write('/c', '20', '10')];
        expect(describePlan(invertSteps(msg('undo'), applied))).toBe('echo 10 > /c\necho 1 > /a');
    });

    test('writes that change nothing are dropped', () => {
        expect(withoutNoOps({ title: msg('t'), steps: [write('/a', '1', '1'), write('/b', '2', '1')] }).steps).toHaveLength(1);
    });

    test('a single attribute plan writes nothing when the value is already there', () => {
        expect(attributePlan(msg('t'), attributeStep(msg('x'), '/a', 256, '256')).steps).toEqual([]);
        expect(attributePlan(msg('t'), attributeStep(msg('x'), '/a', 512, '256')).steps).toHaveLength(1);
    });
});
