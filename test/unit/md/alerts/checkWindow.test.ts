// SPDX-License-Identifier: LGPL-2.1-or-later
// mdcheck's window (src/md/alerts/checkWindow.ts): read from systemd's Environment property or
// raidtune's drop-in, checked as typed, written as drop-ins on both services, and undone.
import { parseMonitorRead } from '../../../../src/md/alerts/monitor';
import { describePlan, type Plan, type WriteFileStep } from '../../../../src/md/plan';
import {
    checkWindow, dropInDuration, durationSeconds, environmentEntries, lastCheckSpeed, parseCalendarIterations,
    parseWindowInput, splitCheck, windowDuration,
} from '../../../../src/md/alerts/checkWindow';
import { scheduleInput, schedulePlan, scheduleUndo } from '../../../../src/md/alerts/schedulePlan';
import { checkSchedules } from '../../../../src/md/alerts/checkSchedule';
import { splitRuns, splitWindow } from '../../../../src/md/alerts/splitWindow';

const unit = (id: string, extra: string[] = []) => [`Id=${id}`, 'LoadState=loaded', 'ActiveState=inactive', 'UnitFileState=static', ...extra, ''];
const timer = (id: string) => unit(id, ['TimersCalendar={ OnCalendar=Sun *-*-01..07 01:00:00 ; next_elapse=Sun 2026-12-06 01:00:00 UTC }']);
// As systemd 246 and later print a package's Environment="MDADM_CHECK_DURATION=6 hours".
const SHIPPED = 'Environment="MDADM_CHECK_DURATION=6 hours"';

function host(files: Record<string, string> = {}, services = ['mdcheck_start.service', 'mdcheck_continue.service']) {
    const lines = Object.entries(files).flatMap(([path, text]) => [`@@file /etc/${path}`, ...text.replace(/\n$/, '').split('\n').map(l => `|${l}`)]);
    const units = [...timer('mdcheck_start.timer'), ...services.flatMap(id => unit(id, [SHIPPED]))];
    return parseMonitorRead([...lines, '@@units', ...units, '@@end'].join('\n'), '/etc');
}
const context = { arrays: ['md0'], calendar: null, systemctl: 'systemctl', timerEnabled: false };
const planOf = (result: ReturnType<typeof schedulePlan>): Plan => {
    if (!result.plan) throw new Error(JSON.stringify(result.errors));
    return result.plan;
};
const START_DROP_IN = 'systemd/system/mdcheck_start.service.d/raidtune.conf';

test('environmentEntries: quoted entries (systemd 246+), bare ones, and the old unquoted form with blanks', () => {
    expect(environmentEntries('"MDADM_CHECK_DURATION=6 hours" LANG=C')).toEqual(new Map([['MDADM_CHECK_DURATION', '6 hours'], ['LANG', 'C']]));
    expect(environmentEntries('MDADM_CHECK_DURATION=6 hours')).toEqual(new Map([['MDADM_CHECK_DURATION', '6 hours']]));
    expect(environmentEntries('"A=say \\"hi\\""')).toEqual(new Map([['A', 'say "hi"']]));
    expect(environmentEntries('')).toEqual(new Map());
});

test('dropInDuration: the last Environment= line that sets it counts', () => {
    expect(dropInDuration('[Service]\nEnvironment="MDADM_CHECK_DURATION=2 hours"\nEnvironment=LANG=C\n')).toBe('2 hours');
    expect(dropInDuration('[Service]\nEnvironment="MDADM_CHECK_DURATION=2 hours"\nEnvironment="MDADM_CHECK_DURATION=90 minutes"\n')).toBe('90 minutes');
    expect(dropInDuration('[Service]\nNice=19\n')).toBeNull();
    expect(dropInDuration(undefined)).toBeNull();
});

test('durationSeconds: what date(1) reads after "now +", or null', () => {
    expect(durationSeconds('6 hours')).toBe(21600);
    expect(durationSeconds('1 hour 30 minutes')).toBe(5400);
    expect(durationSeconds('90 min')).toBe(5400);
    expect(durationSeconds('1 day')).toBe(86400);
    for (const bad of ['', 'hours', '6', '6 fortnights', '-1 hours', '6 hours 3']) expect(durationSeconds(bad)).toBeNull();
});

test('parseWindowInput: hours from 0.25 to 23, a decimal comma too; empty is the package\'s own', () => {
    expect(parseWindowInput(' 4 ')).toEqual({ value: 240 });
    expect(parseWindowInput('1,5')).toEqual({ value: 90 });
    expect(parseWindowInput('0.25')).toEqual({ value: 15 });
    expect(parseWindowInput('')).toEqual({ value: null });
    for (const bad of ['0', '0.2', '24', '-1', '4h', '4 hours', '1e1', '4;reboot']) {
        expect(parseWindowInput(bad).error?.args).toEqual([0.25, 23]);
    }
    expect(windowDuration(240)).toBe('4 hours');
    expect(windowDuration(90)).toBe('90 minutes');
});

test('checkWindow: the package\'s as systemd holds it, raidtune\'s drop-in before it; none without mdcheck_start.service', () => {
    expect(checkWindow(host())).toEqual({ duration: '6 hours', seconds: 21600, source: 'package' });
    const own = host({ [START_DROP_IN]: '[Service]\nEnvironment="MDADM_CHECK_DURATION=90 minutes"\n' });
    expect(checkWindow(own)).toEqual({ duration: '90 minutes', seconds: 5400, source: 'raidtune' });
    expect(scheduleInput(own, 'mdcheck', true).window).toBe('1.5');
    expect(scheduleInput(host(), 'mdcheck', true).window).toBe('');
    expect(checkWindow(host({}, []))).toBeNull();
});

test('the window is a drop-in on both services, then a reload; the undo takes them away and reloads', () => {
    const state = host();
    const input = { ...scheduleInput(state, 'mdcheck', false), window: '4' };
    const plan = planOf(schedulePlan(state, 'mdcheck', input, context));
    const files = plan.steps.filter((s): s is WriteFileStep => s.kind === 'write-file');
    expect(files.map(f => [f.path, f.previous])).toEqual([
        ['/etc/systemd/system/mdcheck_start.service.d/raidtune.conf', null],
        ['/etc/systemd/system/mdcheck_continue.service.d/raidtune.conf', null],
    ]);
    expect(files.map(f => dropInDuration(f.content ?? ''))).toEqual(['4 hours', '4 hours']);
    expect(files[0].content).toMatch(/^\[Service\]$/m);
    expect(describePlan({ ...plan, steps: plan.steps.filter(s => s.kind === 'run') })).toBe('systemctl daemon-reload');
    const undo = scheduleUndo(plan.title, plan.steps);
    expect(undo.steps.map(s => (s.kind === 'write-file' ? [s.path, s.content] : s.kind === 'run' ? s.argv : s))).toEqual([
        ['/etc/systemd/system/mdcheck_continue.service.d/raidtune.conf', null],
        ['/etc/systemd/system/mdcheck_start.service.d/raidtune.conf', null],
        ['systemctl', 'daemon-reload'],
    ]);
});

test('the window: unchanged plans nothing, a bad value gives its message and no plan, empty removes raidtune\'s', () => {
    const state = host();
    expect(planOf(schedulePlan(state, 'mdcheck', scheduleInput(state, 'mdcheck', false), context)).steps).toEqual([]);
    const bad = schedulePlan(state, 'mdcheck', { ...scheduleInput(state, 'mdcheck', false), window: '30' }, context);
    expect(bad.plan).toBeUndefined();
    expect(bad.errors?.window?.message).toMatch(/^Enter the hours one run may check/);
    const own = host({ [START_DROP_IN]: '[Service]\nEnvironment="MDADM_CHECK_DURATION=2 hours"\n' }, ['mdcheck_start.service']);
    const back = planOf(schedulePlan(own, 'mdcheck', { ...scheduleInput(own, 'mdcheck', false), window: '' }, context));
    expect(back.steps.map(s => (s.kind === 'write-file' ? [s.path, s.content] : s.kind === 'run' ? s.argv : s))).toEqual([
        ['/etc/systemd/system/mdcheck_start.service.d/raidtune.conf', null],
        ['systemctl', 'daemon-reload'],
    ]);
});

test('parseCalendarIterations: systemd-analyze\'s next elapse and iterations, in UTC', () => {
    const output = [
        '  Original form: 1:05', 'Normalized form: *-*-* 01:05:00', '    Next elapse: Fri 2026-11-27 01:05:00 UTC',
        '       From now: 10h left', '       Iter. #2: Sat 2026-11-28 01:05:00 UTC', '       From now: 1 day 10h left',
    ].join('\n');
    const at = (day: number) => Date.UTC(2026, 10, day, 1, 5) / 1000;
    expect(parseCalendarIterations(output)).toEqual([at(27), at(28)]);
    expect(parseCalendarIterations('Failed to parse calendar specification')).toEqual([]);
});

test('parseCalendarIterations: on a host in another time zone, the times systemd gives in UTC', () => {
    // TZ=Europe/Berlin systemd-analyze calendar --iterations=2 --base-time=@1764000000 -- "*-*-* 23:30:00"
    // (systemd 252).
    const output = [
        'Normalized form: *-*-* 23:30:00',
        '    Next elapse: Mon 2025-11-24 23:30:00 CET', '       (in UTC): Mon 2025-11-24 22:30:00 UTC', '       From now: 1 year 0 months ago',
        '       Iter. #2: Tue 2025-11-25 23:30:00 CET', '       (in UTC): Tue 2025-11-25 22:30:00 UTC',
    ].join('\n');
    const at = (day: number) => Date.UTC(2025, 10, day, 22, 30) / 1000;
    expect(parseCalendarIterations(output)).toEqual([at(24), at(25)]);
    // A time in a zone systemd gave no UTC line for is not guessed.
    expect(parseCalendarIterations('    Next elapse: Mon 2025-11-24 23:30:00 CET')).toEqual([]);
});

test('splitCheck: a check longer than the window goes on at the first continuation after each run stopped', () => {
    const hour = 3600;
    const day = 24 * hour;
    const start = Date.UTC(2026, 11, 6, 1, 0) / 1000; // Sun 01:00
    const daily = Array.from({ length: 10 }, (_, i) => start + 5 * 60 + i * day); // 01:05 from that day on
    expect(splitCheck(5 * hour, 6 * hour, start, daily)).toEqual({ runs: 1, finish: start + 5 * hour });
    // 14 hours: 6 on Sunday (the 01:05 run that day finds it busy), 6 on Monday from 01:05, 2 on Tuesday.
    expect(splitCheck(14 * hour, 6 * hour, start, daily)).toEqual({ runs: 3, finish: daily[2] + 2 * hour });
    expect(splitCheck(100 * hour, 6 * hour, start, daily.slice(0, 3))).toBeNull();
});

test('lastCheckSpeed: the newest check or repair with a speed, a run stopped at its window\'s end too', () => {
    const op = (type: string, avgKiBs: number | null, finished: boolean) =>
        ({ type, avgKiBs, sizeKiB: 1000, finished }) as never;
    const ops = [op('recover', 900, true), op('check', 500, false), op('check', 300, true)];
    expect(lastCheckSpeed(ops)).toEqual({ kibPerSecond: 500, sizeKiB: 1000 });
    expect(lastCheckSpeed([op('check', null, true), op('resync', 100, true)])).toBeNull();
});

test('checkWindow from mdadm 4.5 on: the continuation service\'s, the one that checks (the start service has none)', () => {
    const restart = 'ExecStart={ path=/usr/share/mdadm/mdcheck ; argv[]=/usr/share/mdadm/mdcheck --restart ; ignore_errors=no }';
    const units = [...timer('mdcheck_start.timer'), ...unit('mdcheck_start.service', [restart]),
        ...unit('mdcheck_continue.service', ['Environment="MDADM_CHECK_DURATION=4 hours"'])];
    const state = parseMonitorRead(['@@units', ...units, '@@end'].join('\n'), '/etc');
    expect(checkWindow(state)).toEqual({ duration: '4 hours', seconds: 4 * 3600, source: 'package' });
    const own = parseMonitorRead(['@@file /etc/systemd/system/mdcheck_continue.service.d/raidtune.conf',
        '|[Service]', '|Environment="MDADM_CHECK_DURATION=90 minutes"', '@@units', ...units, '@@end'].join('\n'), '/etc');
    expect(checkWindow(own)).toEqual({ duration: '90 minutes', seconds: 5400, source: 'raidtune' });
});

test('splitRuns from mdadm 4.5 on: the start timer begins the round, its first run is the continuation after it', () => {
    const on = (id: string, calendar: string) => [`Id=${id}`, 'LoadState=loaded', 'ActiveState=active', 'UnitFileState=enabled',
        `TimersCalendar={ OnCalendar=${calendar} ; next_elapse=n/a }`, ''];
    const restart = 'ExecStart={ path=/usr/share/mdadm/mdcheck ; argv[]=/usr/share/mdadm/mdcheck --restart ; ignore_errors=no }';
    const units = [...on('mdcheck_start.timer', 'Sun *-*-01..07 00:45:00'), ...on('mdcheck_continue.timer', '*-*-* 01:00:00'),
        ...unit('mdcheck_start.service', [restart]), ...unit('mdcheck_continue.service', [SHIPPED])];
    const state = parseMonitorRead(['@@units', ...units, '@@end'].join('\n'), '/etc');
    const split = splitWindow(state, checkSchedules(state));
    expect(split).toMatchObject({
        scheduler: 'mdcheck', startSpec: 'Sun *-*-01..07 00:45:00', continueSpec: '*-*-* 01:00:00', roundOnly: true,
        window: { seconds: 6 * 3600 },
    });
    const start = 1_000_000;
    const continuations = [start + 900, start + 900 + 86400, start + 900 + 2 * 86400];
    expect(splitRuns(split!, { start, continuations }))
        .toEqual({ start: continuations[0], continuations: continuations.slice(1) });
});
