// SPDX-License-Identifier: LGPL-2.1-or-later
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSchedules, shellVariables } from '../../../../src/md/alerts/checkSchedule';
import { parseMonitorRead } from '../../../../src/md/alerts/monitor';

const FIXTURES = join(__dirname, '../../../fixtures/check-schedule');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

/** The read script's output for these files (relative to /etc) and timers. */
function read(files: Record<string, string>, units: string[] | null = null) {
    const lines = Object.entries(files).flatMap(([path, text]) => [`@@file /etc/${path}`, ...text.replace(/\n$/, '').split('\n').map(l => `|${l}`)]);
    return parseMonitorRead([...lines, ...(units ? ['@@units', ...units] : []), '@@end'].join('\n'), '/etc');
}

const TIMER = (id: string, active: string, next: string) =>
    [`Id=${id}`, 'LoadState=loaded', `ActiveState=${active}`, 'UnitFileState=enabled', `NextElapseUSecRealtime=${next}`, ''];

test('shellVariables: quotes, comments, export', () => {
    expect(shellVariables('A="x y"\n# B=1\nexport C=\'z\'\nD=plain # note\n')).toEqual(new Map([['A', 'x y'], ['C', 'z'], ['D', 'plain']]));
});

test('RHEL raid-check: the listed arrays get their action, the others none; the timer gives the next run', () => {
    const [schedule, ...others] = checkSchedules(read({ 'sysconfig/raid-check': fixture('rhel-sysconfig-raid-check') },
        TIMER('raid-check.timer', 'active', 'Sun 2026-11-29 01:00:00 UTC')));
    expect(others).toEqual([]);
    expect(schedule).toMatchObject({ scheduler: 'raid-check', enabled: true, nextRun: 'Sun 2026-11-29 01:00:00 UTC', cron: null });
    expect(['md0', 'md1', 'md2'].map(schedule.actionFor)).toEqual(['check', 'repair', null]);
});

test('RHEL raid-check without lists: every array gets CHECK\'s action unless skipped; ENABLED=no or no runner: disabled', () => {
    const [all] = checkSchedules(read({ 'sysconfig/raid-check': 'ENABLED=yes\nCHECK=repair\nSKIP_DEVS="md9"\n', 'cron.d/raid-check': '0 1 * * Sun root /usr/sbin/raid-check\n' }));
    expect(all).toMatchObject({ enabled: true, cron: '0 1 * * Sun', nextRun: null });
    expect(['md0', 'md9'].map(all.actionFor)).toEqual(['repair', null]);
    expect(checkSchedules(read({ 'sysconfig/raid-check': 'ENABLED=no\n', 'cron.d/raid-check': '0 1 * * Sun root /usr/sbin/raid-check\n' }))[0].enabled).toBe(false);
    expect(checkSchedules(read({ 'sysconfig/raid-check': 'ENABLED=yes\n' }))[0].enabled).toBe(false);
});

test('Debian checkarray from cron.d, on only with a true AUTOCHECK (as checkarray --cron reads it); mdcheck from its timer', () => {
    const cron = fixture('debian-cron-mdadm');
    const on = (autocheck: string) => checkSchedules(read({ 'cron.d/mdadm': cron, 'default/mdadm': `AUTOCHECK=${autocheck}\n` }))[0];
    expect(on('true')).toMatchObject({ scheduler: 'checkarray', enabled: true, cron: '30 1 * * 0' });
    // checkarray --cron's own is_true: yes, y, 1, true, t; anything else, and no AUTOCHECK at all, is off.
    expect(['yes', 'Y', '1', 'True', 't', 'TRUE', 'no', '0', '""'].map(v => on(v).enabled))
        .toEqual([true, true, true, true, true, false, false, false, false]);
    expect(checkSchedules(read({ 'cron.d/mdadm': cron }))[0].enabled).toBe(false);
    expect(checkSchedules(read({ 'cron.d/mdadm': cron, 'default/mdadm': fixture('debian-default-mdadm') }))[0].enabled).toBe(false);
    const [mdcheck] = checkSchedules(read({}, TIMER('mdcheck_start.timer', 'active', 'Sun 2026-12-06 01:00:00 UTC')));
    expect(mdcheck).toMatchObject({ scheduler: 'mdcheck', enabled: true, nextRun: 'Sun 2026-12-06 01:00:00 UTC' });
    expect(mdcheck.actionFor('md5')).toBe('check');
    expect(checkSchedules(read({}))).toEqual([]);
});

test('a file whose last line has no newline is read to the byte (@@noeol); the next file is read apart', () => {
    const state = parseMonitorRead(['@@file /etc/default/mdadm', '|# c', '|AUTOCHECK=false', '@@noeol',
        '@@file /etc/cron.d/mdadm', '|30 1 * * 0 root /usr/share/mdadm/checkarray --cron', '@@end'].join('\n'), '/etc');
    expect(state.scheduleFiles.get('default/mdadm')).toBe('# c\nAUTOCHECK=false');
    expect(state.scheduleFiles.get('cron.d/mdadm')).toBe('30 1 * * 0 root /usr/share/mdadm/checkarray --cron\n');
});

/** mdadm 4.6's mdcheck_start.service as `systemctl show` prints it: it only begins a round. */
const RESTART_SERVICE = ['Id=mdcheck_start.service', 'LoadState=loaded', 'ActiveState=inactive', 'UnitFileState=static',
    'ExecStart={ path=/usr/share/mdadm/mdcheck ; argv[]=/usr/share/mdadm/mdcheck --restart ; ignore_errors=no ; ' +
    'start_time=[n/a] ; stop_time=[n/a] ; pid=0 ; code=(null) ; status=0/0 }', ''];

test('mdcheck from mdadm 4.5 on: the continuation timer\'s runs check, the start timer begins a round; without the first, nothing is checked', () => {
    const units = [...TIMER('mdcheck_start.timer', 'active', 'Sun 2026-12-06 00:45:00 UTC'),
        ...TIMER('mdcheck_continue.timer', 'active', 'Wed 2026-12-02 01:00:00 UTC'), ...RESTART_SERVICE];
    const [mdcheck] = checkSchedules(read({}, units));
    expect(mdcheck).toMatchObject({ scheduler: 'mdcheck', enabled: true, nextRun: 'Wed 2026-12-02 01:00:00 UTC', newRound: 'Sun 2026-12-06 00:45:00 UTC' });
    const idle = [...TIMER('mdcheck_start.timer', 'active', 'Sun 2026-12-06 00:45:00 UTC'), ...RESTART_SERVICE];
    expect(checkSchedules(read({}, idle))[0]).toMatchObject({ enabled: false, nextRun: null });
    // Until 4.4 (ExecStart runs `mdcheck --duration`): the start timer checks, as before.
    const old = [...TIMER('mdcheck_start.timer', 'active', 'Sun 2026-12-06 01:00:00 UTC'),
        ...TIMER('mdcheck_continue.timer', 'active', 'Wed 2026-12-02 01:05:00 UTC'),
        ...RESTART_SERVICE.map(l => l.replace('--restart', '--duration ${MDADM_CHECK_DURATION}'))];
    expect(checkSchedules(read({}, old))[0]).toMatchObject({ enabled: true, nextRun: 'Sun 2026-12-06 01:00:00 UTC', newRound: null });
});
