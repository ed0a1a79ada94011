// SPDX-License-Identifier: LGPL-2.1-or-later
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { confWords, monitorSettingEdit, parseMonitorConf, type MonitorKeyword } from '../../../../src/md/alerts/mdadmConf';
import { applyLineEdits } from '../../../../src/md/lineEdit';
import { readRecipients } from '../../../../sim/monitor/testAlert';

const FIXTURES = join(__dirname, '../../../fixtures/mdadm-conf');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

describe('parseMonitorConf', () => {
    test('RHEL layout: shortened and cased keywords, quoted MAILFROM, first word and first line only', () => {
        expect(parseMonitorConf(fixture('rhel-program.conf'))).toEqual({
            mailAddr: 'root@example.com', mailFrom: 'RAID monitor <raid@example.com>', program: '/usr/local/sbin/md-event',
        });
    });

    test('Debian default: a commented-out MAILADDR names nobody', () => {
        expect(parseMonitorConf(fixture('debian-default.conf'))).toEqual({ mailAddr: null, mailFrom: null, program: null });
    });

    test('a two-letter word is no keyword; a continued line gives its words to the line before', () => {
        expect(parseMonitorConf(fixture('continued.conf')).mailAddr).toBe('ops@example.com');
    });

    test('the simulated mdadm reads the fixtures as raidtune does', () => {
        for (const name of ['rhel-program.conf', 'debian-default.conf', 'continued.conf']) {
            const ours = parseMonitorConf(fixture(name));
            const sim = readRecipients(fixture(name));
            expect([sim.mailAddr ?? null, sim.program ?? null]).toEqual([ours.mailAddr, ours.program]);
        }
    });

    test('confWords: quotes group, # at a word start ends the line', () => {
        expect(confWords(`PROGRAM '/a b' x#y # z`)).toEqual(['PROGRAM', '/a b', 'x#y']);
    });
});

/** The file after the edit that sets `keyword` to `value`, as the host applies it to its text. */
const withMonitorSetting = (text: string, keyword: MonitorKeyword, value: string | null) =>
    applyLineEdits(text, 'mdadm-conf', [monitorSettingEdit(keyword, value)]);

describe('monitorSettingEdit', () => {
    test('replaces the first line with its continuation lines in place and keeps the rest', () => {
        const after = withMonitorSetting(fixture('continued.conf'), 'MAILADDR', 'admin@example.com');
        expect(after).toBe(fixture('continued.conf').replace('MAILADDR\n   ops@example.com\n   second@example.com\n', 'MAILADDR admin@example.com\n'));
        expect(parseMonitorConf(after).mailAddr).toBe('admin@example.com');
    });

    test('a shortened keyword is replaced under its full name, the later lines of it too; null removes every one', () => {
        const text = fixture('rhel-program.conf');
        const changed = withMonitorSetting(text, 'PROGRAM', '/usr/sbin/other');
        expect(changed).toContain('PROGRAM /usr/sbin/other\n');
        expect(changed).not.toContain('PROG /usr/local/sbin/md-event');
        expect(changed).not.toContain('/usr/bin/ignored-second-line');
        expect(parseMonitorConf(changed).program).toBe('/usr/sbin/other');
        // A later PROGRAM line mdadm ignored would count once the first is gone: removing removes every one.
        expect(parseMonitorConf(withMonitorSetting(text, 'PROGRAM', null)).program).toBe(null);
    });

    test('a file without the keyword gets it at the end; an empty file becomes one line', () => {
        expect(withMonitorSetting(fixture('debian-default.conf'), 'MAILADDR', 'root').endsWith('name=host:0\nMAILADDR root\n')).toBe(true);
        expect(withMonitorSetting('', 'PROGRAM', '/bin/true')).toBe('PROGRAM /bin/true\n');
        expect(withMonitorSetting('PROGRAM /bin/true\n', 'PROGRAM', null)).toBe('');
    });
});
