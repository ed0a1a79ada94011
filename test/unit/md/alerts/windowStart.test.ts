// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #31: raidtune's own check window against when the host's scheduler starts its check
// (src/md/alerts/windowStart.ts): cron's and systemd's times of day, the window's edges (its first
// minute inside, its last not), and the schedule dialog refusing a window the check starts outside.
import { parseMonitorRead } from '../../../../src/md/alerts/monitor';
import { scheduleInput, schedulePlan, windowStartCheck, type CalendarAnswer } from '../../../../src/md/alerts/schedulePlan';
import {
    cronClockMinutes, parseCalendarClockMinutes, schedulerStart, startOutside, windowStartVerdict,
} from '../../../../src/md/alerts/windowStart';

const timer = (id: string, calendar?: string) => [`Id=${id}`, 'LoadState=loaded', 'ActiveState=active', 'UnitFileState=enabled',
    ...(calendar ? [`TimersCalendar={ OnCalendar=${calendar} ; next_elapse=Sun 2026-11-29 01:00:00 UTC }`] : []), ''];
const WINDOW_TIMERS = [...timer('raidtune-check-window-start.timer'), ...timer('raidtune-check-window-end.timer')];

function host(files: Record<string, string>, units: string[] = []) {
    const lines = Object.entries(files).flatMap(([path, text]) => [`@@file /etc/${path}`, ...text.replace(/\n$/, '').split('\n').map(l => `|${l}`)]);
    return parseMonitorRead([...lines, '@@units', ...WINDOW_TIMERS, ...units, '@@end'].join('\n'), '/etc');
}
/** Debian's checkarray from cron at 01:30 on Sundays. */
const debian = () => host({ 'default/mdadm': 'AUTOCHECK=true\n', 'cron.d/mdadm': '30 1 * * 0 root /usr/share/mdadm/checkarray --cron --all --idle --quiet\n' });
const LIMITS = 'speed_limit_min 1000 KiB/s, speed_limit_max 200000 KiB/s';
const context = (calendar: CalendarAnswer | null = null) =>
    ({ arrays: ['md0'], calendar, systemctl: 'systemctl', timerEnabled: true, limitsOutside: LIMITS });

test('cron: the minutes of the day of its minute and hour fields; the day fields do not matter', () => {
    expect(cronClockMinutes('30 1 * * 0')).toEqual([90]);
    expect(cronClockMinutes('57 0 * * 0')).toEqual([57]);
    expect(cronClockMinutes('0,30 1-2 * * *')).toEqual([60, 90, 120, 150]);
    expect(cronClockMinutes('*/20 23 1 * *')).toEqual([1380, 1400, 1420]);
    expect(cronClockMinutes('10-30/10 4 * * *')).toEqual([250, 260, 270]);
    expect([cronClockMinutes('@weekly'), cronClockMinutes('@daily')]).toEqual([[0], [0]]);
    expect(cronClockMinutes('@hourly')).toHaveLength(24);
    expect([cronClockMinutes('@reboot'), cronClockMinutes('61 1 * * *'), cronClockMinutes('30 24 * * *'), cronClockMinutes('x 1 * * *'),
        cronClockMinutes('30')]).toEqual([null, null, null, null, null]);
});

test('systemd: the times of day of the runs systemd-analyze prints, in the host\'s zone (not the UTC lines)', () => {
    const output = [
        '  Original form: Sun *-*-* 01:00', 'Normalized form: Sun *-*-* 01:00:00',
        '    Next elapse: Sun 2026-11-29 01:00:00 CET', '       (in UTC): Sun 2026-11-29 00:00:00 UTC', '       From now: 23h left',
        '       Iter. #2: Sun 2026-12-06 13:30:00 CET', '       (in UTC): Sun 2026-12-06 12:30:00 UTC',
        '       Iter. #3: Sun 2026-12-13 01:00:00 CET', '       (in UTC): Sun 2026-12-13 00:00:00 UTC',
    ].join('\n');
    expect(parseCalendarClockMinutes(output)).toEqual([60, 810]);
    expect(parseCalendarClockMinutes('')).toEqual([]);
});

test('the start: a timer\'s from systemd\'s answer for the calendar it follows (waiting until then), else cron\'s', () => {
    const answer = { spec: 'Sun *-*-* 01:00:00', error: null, clockMinutes: [60] };
    expect(schedulerStart(null, 'Sun *-*-* 01:00:00', null)).toBe('waiting');
    expect(schedulerStart(null, 'Sat 03:00', answer)).toBe('waiting');
    expect(schedulerStart('30 1 * * 0', 'Sun *-*-* 01:00:00', answer)).toEqual({ minutes: [60], schedule: 'Sun *-*-* 01:00:00' });
    expect(schedulerStart(null, 'bogus', { spec: 'bogus', error: 'Invalid argument', clockMinutes: [] })).toBeNull();
    expect(schedulerStart('30 1 * * 0', null, null)).toEqual({ minutes: [90], schedule: 'cron: 30 1 * * 0' });
    expect(schedulerStart('@reboot', null, null)).toBeNull();
    expect(schedulerStart(null, null, null)).toBeNull();
});

test('the window\'s edges: its first minute is inside, its closing minute is not; across midnight too', () => {
    const at = (minutes: number) => ({ minutes: [minutes], schedule: 'x' });
    const window = (startMinutes: number, minutes: number) => ({ startMinutes, minutes });
    expect(startOutside(at(90), window(600, 120))).toBe(90);
    expect(startOutside(at(90), window(90, 60))).toBeNull();
    expect(startOutside(at(149), window(90, 60))).toBeNull();
    expect(startOutside(at(150), window(90, 60))).toBe(150);
    // 23:30 for 2 hours closes at 01:30: a check started then races the end's pause.
    expect(startOutside(at(90), window(1410, 120))).toBe(90);
    expect(startOutside(at(90), window(1410, 135))).toBeNull();
    expect(startOutside(at(1409), window(1410, 135))).toBe(1409);
    expect(startOutside({ minutes: [60, 810], schedule: 'x' }, window(30, 120))).toBe(810);
});

test('what is said: when the check starts and at which limits it runs', () => {
    const start = { minutes: [90], schedule: 'cron: 30 1 * * 0' };
    const outside = windowStartVerdict('checkarray', start, { startMinutes: 600, minutes: 120 }, { limitsOutside: LIMITS, windowLimits: true });
    expect(outside).toEqual({ kind: 'outside', at: 90, note: { message: expect.stringMatching(/^\$0 starts its check at \$1 \(\$2\), outside the window/),
        args: ['checkarray', '01:30', 'cron: 30 1 * * 0', '10:00', '12:00', LIMITS] } });
    const inside = windowStartVerdict('checkarray', start, { startMinutes: 1410, minutes: 135 }, { limitsOutside: LIMITS, windowLimits: true });
    expect(inside.kind === 'inside' && inside.note.args).toEqual(['checkarray', '01:30', 'cron: 30 1 * * 0', '01:45']);
    const asTheyAre = windowStartVerdict('checkarray', start, { startMinutes: 60, minutes: 60 }, { limitsOutside: LIMITS, windowLimits: false });
    expect(asTheyAre.kind === 'inside' && asTheyAre.note.args).toEqual(['checkarray', '01:30', 'cron: 30 1 * * 0', LIMITS, '02:00']);
    expect(windowStartVerdict('checkarray', null, { startMinutes: 60, minutes: 60 }, { limitsOutside: LIMITS, windowLimits: false }).kind)
        .toBe('unknown');
});

describe('the schedule dialog', () => {
    const window = (windowStart: string, hours: string) => ({ ...scheduleInput(debian(), 'checkarray', true), windowStart, window: hours });

    test.each([['10:00', '2'], ['23:30', '2'], ['01:31', '1']])('checkarray at 01:30: a window at %s for %s hours is refused, nothing planned', (at, hours) => {
        const result = schedulePlan(debian(), 'checkarray', window(at, hours), context());
        expect(result.plan).toBeUndefined();
        expect(result.errors?.windowStart?.args?.slice(0, 3)).toEqual(['checkarray', '01:30', 'cron: 30 1 * * 0']);
    });

    test.each([['23:30', '2.25'], ['01:30', '1'], ['22:00', '6']])('checkarray at 01:30: a window at %s for %s hours is taken', (at, hours) => {
        const result = schedulePlan(debian(), 'checkarray', window(at, hours), context());
        expect(result.errors).toBeUndefined();
        expect(windowStartCheck(debian(), 'checkarray', window(at, hours), null, LIMITS)).toMatchObject({ kind: 'inside' });
    });

    test('no check, no window, or a start not known: nothing refused (a start not known is a warning)', () => {
        const off = { ...window('10:00', '2'), enabled: false };
        expect(schedulePlan(debian(), 'checkarray', off, context()).errors).toBeUndefined();
        expect(schedulePlan(debian(), 'checkarray', window('', ''), context()).errors).toBeUndefined();
        const reboot = host({ 'default/mdadm': 'AUTOCHECK=true\n', 'cron.d/mdadm': '@reboot root /usr/share/mdadm/checkarray --cron --all\n' });
        const result = schedulePlan(reboot, 'checkarray', { ...scheduleInput(reboot, 'checkarray', true), windowStart: '10:00', window: '2' }, context());
        expect(result.warnings?.map(w => w.args)).toEqual([['checkarray', '10:00', '12:00', LIMITS]]);
    });

    test('raid-check.timer: no plan until systemd has read its calendar; then refused where it starts outside', () => {
        const rhel = host({ 'sysconfig/raid-check': 'ENABLED=yes\nCHECK=check\n' }, timer('raid-check.timer', 'Sun *-*-* 01:00:00'));
        const input = { ...scheduleInput(rhel, 'raid-check', true), windowStart: '10:00', window: '2' };
        expect(schedulePlan(rhel, 'raid-check', input, context())).toEqual({ errors: {} });
        const answer = (spec: string, clockMinutes: number[]) => ({ spec, error: null, nextElapse: 'x', normalized: spec, clockMinutes });
        const refused = schedulePlan(rhel, 'raid-check', input, context(answer('Sun *-*-* 01:00:00', [60])));
        expect(refused.errors?.windowStart?.args?.slice(0, 3)).toEqual(['raid-check', '01:00', 'Sun *-*-* 01:00:00']);
        // The calendar typed is the one that counts.
        const moved = { ...input, calendar: 'Sun 10:30' };
        expect(schedulePlan(rhel, 'raid-check', moved, context(answer('Sun 10:30', [630]))).plan).toBeDefined();
    });
});
