// SPDX-License-Identifier: LGPL-2.1-or-later
// The schedule change as a plan (src/md/alerts/schedulePlan.ts): only the lines concerned change,
// values are checked before any step exists, the calendar waits for systemd's answer, and the undo
// puts the files back before it reloads and restarts.
import { applyLineEdits } from '../../../../src/md/lineEdit';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMonitorRead } from '../../../../src/md/alerts/monitor';
import { describePlan, editedText, type EditFileStep, type Plan, type WriteFileStep } from '../../../../src/md/plan';
import {
    dropInCalendar, parseArrayList, parseCalendarInput, scheduleInput, schedulePlan, scheduleUndo, shellVariableEdit,
    scheduleTimer, dropInNotLoaded, windowCloses, type CalendarAnswer, type ScheduleInput,
} from '../../../../src/md/alerts/schedulePlan';

const SYSCONFIG = readFileSync(join(__dirname, '../../../fixtures/check-schedule/rhel-sysconfig-raid-check'), 'utf8');
const ARRAYS = ['md0', 'md1', 'md2'];

function read(files: Record<string, string>, units: string[] = []) {
    const lines = Object.entries(files).flatMap(([path, text]) => [`@@file /etc/${path}`, ...text.replace(/\n$/, '').split('\n').map(l => `|${l}`)]);
    return parseMonitorRead([...lines, '@@units', ...units, '@@end'].join('\n'), '/etc');
}

const timer = (id: string, active: string, calendar: string) => [`Id=${id}`, 'LoadState=loaded', `ActiveState=${active}`,
    'UnitFileState=enabled', `TimersCalendar={ OnCalendar=${calendar} ; next_elapse=Sun 2026-11-29 01:00:00 UTC }`, ''];

const RHEL = () => read({ 'sysconfig/raid-check': SYSCONFIG }, timer('raid-check.timer', 'active', 'Sun *-*-* 01:00:00'));
const context = (calendar: CalendarAnswer | null = null) => ({ arrays: ARRAYS, calendar, systemctl: 'systemctl', timerEnabled: true });
const planOf = (result: ReturnType<typeof schedulePlan>): Plan => {
    if (!result.plan) throw new Error(JSON.stringify(result.errors));
    return result.plan;
};

test('shellVariableEdit: every assignment gives way to one, in place of the first; others and comments stay; a new one is added', () => {
    const withShellVariable = (text: string, name: string, value: string) => applyLineEdits(text, 'shell-vars', [shellVariableEdit(name, value)]);
    expect(withShellVariable('# c\nA=1\nB=2\nA=3\n', 'A', 'x y')).toBe('# c\nA="x y"\nB=2\n');
    expect(withShellVariable('# c\nB=2', 'A', 'no')).toBe('# c\nB=2\nA=no\n');
    expect(withShellVariable('', 'AUTOCHECK', 'false')).toBe('AUTOCHECK=false\n');
    expect(withShellVariable('export AUTOCHECK=true # on\n', 'AUTOCHECK', 'false')).toBe('AUTOCHECK=false\n');
});

test('dropInCalendar: the last OnCalendar counts, an empty one resets', () => {
    expect(dropInCalendar('[Timer]\nOnCalendar=\nOnCalendar=Sat 03:30\n')).toBe('Sat 03:30');
    expect(dropInCalendar('[Timer]\nOnCalendar=Sat 03:30\nOnCalendar=\n')).toBeNull();
    expect(dropInCalendar(undefined)).toBeNull();
});

test('parseArrayList: names and /dev/ paths of this host\'s arrays; an unknown one is refused', () => {
    expect(parseArrayList(' /dev/md1, md0 md1 ', ARRAYS)).toEqual({ value: ['md1', 'md0'] });
    expect(parseArrayList('md0 md9', ARRAYS).error).toEqual({ message: 'There is no array $0 on this host.', args: ['md9'] });
    expect(parseArrayList('md0;reboot', ARRAYS).error?.args).toEqual(['md0;reboot']);
});

test('raid-check: an array the file lists but the host does not run now is kept, a new unknown one refused', () => {
    const state = RHEL();
    const two = { arrays: ['md0'], calendar: null, systemctl: 'systemctl', timerEnabled: true };
    const input = scheduleInput(state, 'raid-check', true);
    expect(planOf(schedulePlan(state, 'raid-check', input, two)).steps).toEqual([]);
    expect(schedulePlan(state, 'raid-check', { ...input, skipDevs: 'md5' }, two).errors?.skipDevs?.args).toEqual(['md5']);
});

test('raid-check: the dialog opens with the host\'s values and, unchanged, plans nothing', () => {
    const state = RHEL();
    const input = scheduleInput(state, 'raid-check', true);
    expect(input).toEqual({ enabled: true, action: 'check', checkDevs: 'md0', repairDevs: 'md1', skipDevs: '', calendar: 'Sun *-*-* 01:00:00', window: '', windowStart: '', windowLimits: '' });
    expect(planOf(schedulePlan(state, 'raid-check', input, context())).steps).toEqual([]);
});

test('raid-check: only the lines concerned change; the calendar is a drop-in, reloaded and the timer restarted', () => {
    const state = RHEL();
    const input = { ...scheduleInput(state, 'raid-check', true), action: 'repair' as const, skipDevs: 'md2', calendar: 'Sat 03:30' };
    expect(schedulePlan(state, 'raid-check', input, context())).toEqual({ errors: {} });
    const plan = planOf(schedulePlan(state, 'raid-check', input, context({ spec: 'Sat 03:30', error: null, nextElapse: 'x', normalized: 'Sat *-*-* 03:30:00', clockMinutes: [210] })));
    const [sysconfig, dropIn] = plan.steps as [EditFileStep, WriteFileStep];
    expect(editedText(sysconfig, SYSCONFIG)).toBe(SYSCONFIG.replace('CHECK=check', 'CHECK=repair').replace('SKIP_DEVS=""', 'SKIP_DEVS=md2'));
    expect(sysconfig.opened).toBe(SYSCONFIG);
    expect(describePlan({ ...plan, steps: plan.steps.slice(1) })).toBe([
        "cat > /etc/systemd/system/raid-check.timer.d/raidtune.conf <<'EOF'",
        "# Written by raidtune: when raid-check.timer runs. The empty line drops the package's own calendar.",
        '[Timer]', 'OnCalendar=', 'OnCalendar=Sat 03:30', 'EOF',
        'systemctl daemon-reload', 'systemctl try-restart raid-check.timer',
    ].join('\n'));
    expect(dropIn.previous).toBeNull();
    // The undo: the files first (the drop-in removed, the old sysconfig lines), then reload and restart.
    const undo = scheduleUndo(plan.title, plan.steps);
    expect(describePlan(undo)).toBe([
        'rm -f /etc/systemd/system/raid-check.timer.d/raidtune.conf',
        '# edit /etc/sysconfig/raid-check, every other line kept as it is:', '#   SKIP_DEVS becomes: SKIP_DEVS=""', '#   CHECK becomes: CHECK=check',
        'systemctl daemon-reload', 'systemctl try-restart raid-check.timer',
    ].join('\n'));
    const applied = `${editedText(sysconfig, SYSCONFIG)}# added by the admin since\n`;
    expect(editedText(undo.steps[1] as EditFileStep, applied)).toBe(`${SYSCONFIG}# added by the admin since\n`);
});

test('bad values: an unknown array, a spec systemd refuses or one with a newline give errors and no plan', () => {
    const state = RHEL();
    const input = scheduleInput(state, 'raid-check', true);
    expect(schedulePlan(state, 'raid-check', { ...input, checkDevs: 'md0 md7' }, context()).errors?.checkDevs?.args).toEqual(['md7']);
    const refused = { spec: 'bogus', error: "Failed to parse calendar specification 'bogus': Invalid argument", nextElapse: null, normalized: null, clockMinutes: [] };
    expect(schedulePlan(state, 'raid-check', { ...input, calendar: 'bogus' }, context(refused)).errors?.calendar)
        .toEqual({ message: 'systemd cannot read this calendar spec: $0', args: [refused.error] });
    for (const bad of ['Sun\nOnCalendar=minutely', 'Sun 01:00 \\', '%H:00', '$(reboot)']) {
        expect(schedulePlan(state, 'raid-check', { ...input, calendar: bad }, context()).errors?.calendar?.message)
            .toBe('Enter one calendar spec on one line, such as "Sun *-*-* 01:00" (see systemd.time(7)).');
    }
    expect(parseCalendarInput(' Mon..Fri *-*-1/2 04:00 Europe/Berlin ')).toEqual({ value: 'Mon..Fri *-*-1/2 04:00 Europe/Berlin' });
});

test('checkarray: AUTOCHECK alone changes, the cron job is left as the package has it', () => {
    const text = '# defaults\nAUTOCHECK=true\nSTART_DAEMON=true\n';
    const state = read({ 'default/mdadm': text, 'cron.d/mdadm': '57 0 * * 0 root /usr/share/mdadm/checkarray --cron --all\n' });
    const plan = planOf(schedulePlan(state, 'checkarray', { ...scheduleInput(state, 'checkarray', true), enabled: false }, context()));
    expect(plan.steps).toEqual([expect.objectContaining({ path: '/etc/default/mdadm', opened: text })]);
    expect(editedText(plan.steps[0] as EditFileStep, text)).toBe('# defaults\nAUTOCHECK=false\nSTART_DAEMON=true\n');
    // AUTOCHECK=yes is on for checkarray too: opened and applied as it is, nothing is rewritten.
    const yes = read({ 'default/mdadm': 'AUTOCHECK=yes\n', 'cron.d/mdadm': '57 0 * * 0 root checkarray --cron\n' });
    expect(planOf(schedulePlan(yes, 'checkarray', scheduleInput(yes, 'checkarray', true), context())).steps).toEqual([]);
    // No /etc/default/mdadm: off, and switching it on writes the file.
    const none = read({ 'cron.d/mdadm': '57 0 * * 0 root checkarray --cron\n' });
    expect(planOf(schedulePlan(none, 'checkarray', { ...scheduleInput(none, 'checkarray', false), enabled: true }, context())).steps)
        .toEqual([expect.objectContaining({ path: '/etc/default/mdadm', edits: [{ key: 'AUTOCHECK', lines: ['AUTOCHECK=true'] }], opened: null })]);
});

test('mdcheck: disable stops both timers, the undo starts them again; the calendar comes back to the package\'s', () => {
    const state = read({}, [...timer('mdcheck_start.timer', 'active', 'Sun *-*-01..07 01:00:00'), ...timer('mdcheck_continue.timer', 'active', '1:05')]);
    const input = scheduleInput(state, 'mdcheck', true);
    const off = planOf(schedulePlan(state, 'mdcheck', { ...input, enabled: false }, context()));
    expect(describePlan(off)).toBe('systemctl disable --now mdcheck_start.timer mdcheck_continue.timer');
    expect(describePlan(scheduleUndo(off.title, off.steps))).toBe('systemctl enable --now mdcheck_start.timer mdcheck_continue.timer');
    const withDropIn = read({ 'systemd/system/mdcheck_start.timer.d/raidtune.conf': '[Timer]\nOnCalendar=\nOnCalendar=Sat 02:00\n' },
        timer('mdcheck_start.timer', 'active', 'Sat *-*-* 02:00:00'));
    expect(scheduleInput(withDropIn, 'mdcheck', true).calendar).toBe('Sat 02:00');
    const back = planOf(schedulePlan(withDropIn, 'mdcheck', { ...scheduleInput(withDropIn, 'mdcheck', true), calendar: '' }, context()));
    expect(describePlan(back)).toBe('rm -f /etc/systemd/system/mdcheck_start.timer.d/raidtune.conf\nsystemctl daemon-reload\nsystemctl try-restart mdcheck_start.timer');
});

test('raid-check from cron: no calendar, no drop-in for a timer the host lacks', () => {
    const state = read({ 'sysconfig/raid-check': 'ENABLED=yes\n', 'cron.d/raid-check': '0 1 * * Sun root /usr/sbin/raid-check\n' });
    expect(scheduleTimer(state, 'raid-check')).toBeNull();
    const input = { ...scheduleInput(state, 'raid-check', true), calendar: 'Sat 03:00', enabled: false };
    expect(input.calendar).toBe('Sat 03:00');
    expect(describePlan(planOf(schedulePlan(state, 'raid-check', input, context())))).toBe(
        '# edit /etc/sysconfig/raid-check, every other line kept as it is:\n#   ENABLED becomes: ENABLED=no');
});

test('the check after a change: a drop-in systemd has not loaded is named, one it follows is not', () => {
    const dropIn = { 'systemd/system/raid-check.timer.d/raidtune.conf': '[Timer]\nOnCalendar=\nOnCalendar=Sat 03:30\n' };
    const answer = { spec: 'Sat 03:30', error: null, nextElapse: 'x', normalized: 'Sat *-*-* 03:30:00', clockMinutes: [210] };
    const stale = read(dropIn, timer('raid-check.timer', 'active', 'Sun *-*-* 01:00:00'));
    expect(dropInNotLoaded(stale, 'raid-check.timer', answer)?.args).toEqual(
        ['/etc/systemd/system/raid-check.timer.d/raidtune.conf', 'Sat 03:30', 'Sun *-*-* 01:00:00', 'raid-check.timer']);
    expect(dropInNotLoaded(stale, 'raid-check.timer', null)).toBeNull();
    const loaded = read(dropIn, timer('raid-check.timer', 'active', 'Sat *-*-* 03:30:00'));
    expect(dropInNotLoaded(loaded, 'raid-check.timer', answer)).toBeNull();
});

test('windowCloses: the end of the window as the dialog has it, a clock time and whether it is the next day', () => {
    const input = (windowStart: string, window: string) => ({ ...scheduleInput(RHEL(), 'raid-check', true), windowStart, window }) as ScheduleInput;
    expect(windowCloses(input('01:30', '3'))).toEqual({ at: '04:30', nextDay: false });
    expect(windowCloses(input('22:00', '2'))).toEqual({ at: '00:00', nextDay: true });
    expect(windowCloses(input('23:30', '2.25'))).toEqual({ at: '01:45', nextDay: true });
    // Until both are valid there is no end to say.
    expect(windowCloses(input('01:30', ''))).toBeNull();
    expect(windowCloses(input('25:00', '3'))).toBeNull();
    expect(windowCloses(input('01:30', '24'))).toBeNull();
});
