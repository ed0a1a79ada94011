// SPDX-License-Identifier: LGPL-2.1-or-later
import { BAD_TEXT_VALUES } from '../../../shared/badValues';
import {
    alertsPlan, keptProgramWarning, parseMailAddr, parseMailFrom, parseProgram, testAlertArgv, testAlertHanded,
    testAlertProblem,
} from '../../../../src/md/alerts/alertsPlan';
import { alertProblem, parseMonitorRead, type MonitorState } from '../../../../src/md/alerts/monitor';
import { describePlan, editedText, invertSteps, type EditFileStep } from '../../../../src/md/plan';

const UNITS = (active: string) => ['@@units', 'Id=mdmonitor.service', 'LoadState=loaded', `ActiveState=${active}`, 'UnitFileState=static', '',
    'Id=mdadm.service', 'LoadState=masked', 'ActiveState=inactive', 'UnitFileState=masked', ''];

function read(conf: string[] | null, units: string[] | null): MonitorState {
    const lines = [...(conf ? ['@@file /etc/mdadm/mdadm.conf', ...conf.map(l => `|${l}`)] : []), ...(units ?? []), '@@end'];
    return parseMonitorRead(lines.join('\n') + '\n', '/etc');
}

const INPUT = { systemctl: 'systemctl', mailFrom: '' };

describe('parseMonitorRead and alertProblem', () => {
    test('a file naming nobody: no-recipient, whatever the service', () => {
        const state = read(['HOMEHOST <system>', '@@end is a line of the file'], UNITS('inactive'));
        expect(state.confFiles[0].text).toBe('HOMEHOST <system>\n@@end is a line of the file\n');
        expect(alertProblem(state)).toBe('no-recipient');
    });

    test('an address with the service inactive: not-running; active: none; no systemctl: unknown, none', () => {
        expect(alertProblem(read(['MAILADDR root'], UNITS('inactive')))).toBe('not-running');
        expect(alertProblem(read(['MAILADDR root'], UNITS('active')))).toBeNull();
        expect(alertProblem(read(['MAILADDR root'], null))).toBeNull();
        expect(read(['MAILADDR root'], UNITS('active')).units?.map(u => u.id)).toEqual(['mdmonitor.service']);
    });

    test('an address and no mail program: no-mta (the mail never leaves); a PROGRAM alone needs none', () => {
        const withSendmail = (sendmail: 'yes' | 'no', conf: string[]) => parseMonitorRead(['@@file /etc/mdadm/mdadm.conf',
            ...conf.map(l => `|${l}`), `@@sendmail ${sendmail}`, ...UNITS('active'), '@@end', ''].join('\n'), '/etc');
        expect(withSendmail('no', ['MAILADDR root']).sendmail).toBe(false);
        expect(alertProblem(withSendmail('no', ['MAILADDR root']))).toBe('no-mta');
        expect(alertProblem(withSendmail('no', ['MAILADDR root', 'PROGRAM /usr/local/sbin/md-alert']))).toBe('no-mta');
        expect(alertProblem(withSendmail('yes', ['MAILADDR root']))).toBeNull();
        expect(alertProblem(withSendmail('no', ['PROGRAM /usr/local/sbin/md-alert']))).toBeNull();
        // An older read without the line: not known, nothing said.
        expect(read(['MAILADDR root'], UNITS('active')).sendmail).toBeNull();
    });

    test('no file: a new /etc/mdadm.conf', () => {
        const state = read(null, null);
        expect(state.confPath).toBe('/etc/mdadm.conf');
        expect(alertProblem(state)).toBe('no-recipient');
    });
});

describe('validation', () => {
    test.each(['raid@example.com', 'root', 'RAID monitor <raid@example.com>', 'md-alerts <ops.team+raid@mail.example.org>'])(
        '%s is a sender', value => {
            expect(parseMailFrom(value).value).toBe(value);
        });

    // A sender becomes a mail header: nothing that could end it and start another.
    test.each([...BAD_TEXT_VALUES.filter(v => /[^A-Za-z0-9.+-]/.test(v.trim()) && v.trim() !== ''),
        'raid@example.com\nBcc: all@example.com', 'RAID <raid@example.com>\r\nX: y', 'a, b <raid@example.com>', 'RAID <>',
        '"RAID" <raid@example.com>', 'RAID raid@example.com', '<raid@example.com'])('%j is refused as a sender', value => {
        expect(parseMailFrom(value).error).toBeDefined();
    });

    test.each(['root', 'admin@example.com', 'ops.team+raid@mail.example.org'])('%s is an address', value => {
        expect(parseMailAddr(value).value).toBe(value);
    });

    // The shared bad values with blanks, shell characters, slashes or non-ASCII digits (a bare word
    // like "abc" is a local user name, which MAILADDR takes).
    test.each([...BAD_TEXT_VALUES.filter(v => /[^A-Za-z0-9.+-]/.test(v.trim()) && v.trim() !== ''), 'a@b\nPROGRAM /bin/sh', 'a b@example.com', 'x@-bad.example', '$(reboot)@x',
        'a;b@example.com', '`id`', 'a@b|c'])('%j is refused as an address', value => {
        expect(parseMailAddr(value).error).toBeDefined();
    });

    test.each(['relative/path', '/usr/../bin/sh', '/a b', '/bin/sh;reboot', '/x\ny', '/$(id)'])('%j is refused as a program', value => {
        expect(parseProgram(value, true).error).toBeDefined();
    });

    test('a program the host cannot run is refused with its path; an empty field clears', () => {
        expect(parseProgram('/usr/local/sbin/none', false).error?.args).toEqual(['/usr/local/sbin/none']);
        expect(parseProgram(' ', null)).toEqual({ value: null });
        expect(parseMailAddr('')).toEqual({ value: null });
    });
});

describe('alertsPlan', () => {
    const state = read(['HOMEHOST <system>', 'MAILADDR root'], UNITS('active'));

    test('a new program: an edit of the PROGRAM line alone, and the running monitor restarted', () => {
        const result = alertsPlan(state, { ...INPUT, mailAddr: 'root', program: '/usr/local/sbin/md-alert' }, true);
        expect(describePlan(result.plan!)).toBe([
            '# edit /etc/mdadm/mdadm.conf, every other line kept as it is:', '#   PROGRAM becomes: PROGRAM /usr/local/sbin/md-alert',
            'systemctl restart mdmonitor.service'].join('\n'));
        const edit = result.plan!.steps[0] as EditFileStep;
        expect(edit.opened).toBe('HOMEHOST <system>\nMAILADDR root\n');
        // Applied to the file as the host holds it then, ARRAY lines added meanwhile and all.
        const now = 'HOMEHOST <system>\nMAILADDR root\nARRAY /dev/md0 UUID=1:2:3:4\n';
        const applied = editedText(edit, now);
        expect(applied).toBe(`${now}PROGRAM /usr/local/sbin/md-alert\n`);
        const undo = invertSteps(result.plan!.title, [{ ...edit, opened: now }]);
        expect(editedText(undo.steps[0] as EditFileStep, applied)).toBe(now);
    });

    test('a sender: an edit of the MAILFROM line alone; emptied, the line goes', () => {
        const result = alertsPlan(state, { ...INPUT, mailAddr: 'root', mailFrom: 'RAID monitor <raid@example.com>', program: '' }, null);
        expect(describePlan(result.plan!)).toBe([
            '# edit /etc/mdadm/mdadm.conf, every other line kept as it is:', '#   MAILFROM becomes: MAILFROM RAID monitor <raid@example.com>',
            'systemctl restart mdmonitor.service'].join('\n'));
        const withSender = read(['MAILADDR root', 'MAILFROM raid@example.com'], UNITS('active'));
        const removed = alertsPlan(withSender, { ...INPUT, mailAddr: 'root', mailFrom: '', program: '' }, null);
        expect(editedText(removed.plan!.steps[0] as EditFileStep, 'MAILADDR root\nMAILFROM raid@example.com\n')).toBe('MAILADDR root\n');
        expect(alertsPlan(withSender, { ...INPUT, mailAddr: 'root', mailFrom: 'raid@example.com', program: '' }, null).plan?.steps).toEqual([]);
    });

    test('nothing changed: no step; bad input: errors and no plan; the program unchecked yet: no plan', () => {
        expect(alertsPlan(state, { ...INPUT, mailAddr: 'root', program: '' }, null).plan?.steps).toEqual([]);
        const bad = alertsPlan(state, { ...INPUT, mailAddr: 'x@y\nPROGRAM /bin/sh', program: '/nope' }, false);
        expect(bad.plan).toBeUndefined();
        expect(Object.keys(bad.errors!).filter(k => bad.errors![k as keyof typeof bad.errors])).toEqual(['mailAddr', 'program']);
        expect(alertsPlan(state, { ...INPUT, mailAddr: 'root', program: '/usr/bin/x' }, null).plan).toBeUndefined();
    });

    test('clearing both warns that nobody will be told; a stopped monitor is not restarted', () => {
        const stopped = read(['MAILADDR root'], UNITS('inactive'));
        const result = alertsPlan(stopped, { ...INPUT, mailAddr: '', program: '' }, null);
        expect(result.plan?.steps.map(s => s.kind)).toEqual(['edit-file']);
        expect(result.warnings).toHaveLength(1);
    });

    test('a PROGRAM the host cannot run any more: any other change goes through, the field says it; typed anew it is refused (#31)', () => {
        const gone = read(['MAILADDR root', 'PROGRAM /usr/local/sbin/gone'], UNITS('active'));
        const kept = { ...INPUT, mailAddr: 'ops@example.com', program: '/usr/local/sbin/gone' };
        const result = alertsPlan(gone, kept, false);
        expect(result.errors).toBeUndefined();
        expect(describePlan(result.plan!)).toBe(['# edit /etc/mdadm/mdadm.conf, every other line kept as it is:',
            '#   MAILADDR becomes: MAILADDR ops@example.com', 'systemctl restart mdmonitor.service'].join('\n'));
        expect(keptProgramWarning(gone, kept.program, false)?.args).toEqual(['/usr/local/sbin/gone']);
        expect(keptProgramWarning(gone, kept.program, true)).toBeNull();
        expect(keptProgramWarning(gone, '/usr/local/sbin/other', false)).toBeNull();
        expect(alertsPlan(gone, { ...kept, program: '/usr/local/sbin/other' }, false).errors?.program).toBeDefined();
    });

    test('the test alert is no success when the host cannot run PROGRAM (mdadm exits 0 all the same)', () => {
        const gone = read(['PROGRAM /usr/local/sbin/gone'], UNITS('active'));
        expect(testAlertProblem(gone, false, '/usr/sbin/sendmail')?.args).toEqual(['/usr/local/sbin/gone']);
        expect(testAlertProblem(gone, true, '/usr/sbin/sendmail')).toBeNull();
        expect(testAlertProblem(state, null, '/usr/sbin/sendmail')).toBeNull();
    });

    test('the test alert is no success when there is no mail program for MAILADDR; what it handed to whom', () => {
        const lines = (sendmail: 'yes' | 'no') => parseMonitorRead(['@@file /etc/mdadm/mdadm.conf', '|MAILADDR ops@example.com',
            '|PROGRAM /usr/local/sbin/md-alert', `@@sendmail ${sendmail}`, ...UNITS('active'), '@@end', ''].join('\n'), '/etc');
        expect(testAlertProblem(lines('no'), true, '/usr/sbin/sendmail')?.args).toEqual(['/usr/sbin/sendmail', 'ops@example.com']);
        expect(testAlertProblem(lines('yes'), true, '/usr/sbin/sendmail')).toBeNull();
        expect(testAlertHanded(lines('yes'), '/usr/sbin/sendmail').map(m => m.args)).toEqual([
            ['/usr/sbin/sendmail', 'ops@example.com'], ['/usr/local/sbin/md-alert']]);
        expect(testAlertHanded(read(['PROGRAM /usr/local/sbin/md-alert'], null), '/usr/sbin/sendmail')).toHaveLength(1);
    });

    test('the test alert reads the file shown', () => {
        expect(testAlertArgv('mdadm', state)).toEqual(['mdadm', '--monitor', '--scan', '--oneshot', '--test', '--config=/etc/mdadm/mdadm.conf']);
    });
});

test('systemctl that answers nothing (systemd not running) leaves the service unknown, not missing', () => {
    const state = read(['MAILADDR root'], ['@@units', 'System has not been booted with systemd as init system (PID 1). Can\'t operate.']);
    expect(state.units).toBeNull();
    expect(alertProblem(state)).toBeNull();
    const notFound = read(['MAILADDR root'], ['@@units', 'Id=mdmonitor.service', 'LoadState=not-found', 'ActiveState=inactive', '']);
    expect(notFound.units).toEqual([]);
    expect(alertProblem(notFound)).toBe('not-running');
});
