// SPDX-License-Identifier: LGPL-2.1-or-later
import { attributePlan, attributeStep, describePlan, describeStep, invertSteps, shellQuote, withoutNoOps, type Step } from '../../../src/md/plan';
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
