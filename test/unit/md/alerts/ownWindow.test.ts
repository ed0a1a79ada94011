// SPDX-License-Identifier: LGPL-2.1-or-later
// raidtune's own check window (src/md/alerts/ownWindow.ts) on a host whose check has none: what the
// dialog reads back from the timers' drop-ins and the limits file, the plan that sets, moves and
// removes it (values checked first, nothing planned on a bad one), and its undo.
import { parseMonitorRead } from '../../../../src/md/alerts/monitor';
import {
    firstRunSeconds, minutesOfDay, ownWindow, parseWindowStart, windowEnd, windowEndNotes,
    windowEndWrites, windowLimitsPreset, windowLimitsText,
} from '../../../../src/md/alerts/ownWindow';
import { valueAfterWindow, windowLimitsInForce } from '../../../../src/md/alerts/windowLimits';
import { msg } from '../../../../src/md/message';
import { splitCheck } from '../../../../src/md/alerts/checkWindow';
import { checkSchedules } from '../../../../src/md/alerts/checkSchedule';
import { splitRuns, splitWindow } from '../../../../src/md/alerts/splitWindow';
import { scheduleInput, schedulePlan, scheduleUndo } from '../../../../src/md/alerts/schedulePlan';
import type { Plan, Step, WriteFileStep } from '../../../../src/md/plan';

const START = 'raidtune-check-window-start.timer';
const END = 'raidtune-check-window-end.timer';
const dropIn = (timer: string) => `systemd/system/${timer}.d/raidtune.conf`;
const timer = (id: string, active: boolean) => [`Id=${id}`, 'LoadState=loaded', `ActiveState=${active ? 'active' : 'inactive'}`,
    `UnitFileState=${active ? 'enabled' : 'disabled'}`, ''];

/** A Debian host (checkarray from cron) with the plugin's window timers, and these /etc files. */
function debian(files: Record<string, string> = {}, on = false, installed = true) {
    const all = { 'default/mdadm': 'AUTOCHECK=true\n', ...files };
    const lines = Object.entries(all).flatMap(([path, text]) => [`@@file /etc/${path}`, ...text.replace(/\n$/, '').split('\n').map(l => `|${l}`)]);
    const units = installed ? [...timer(START, on), ...timer(END, on)] : ['Id=mdmonitor.service', 'LoadState=loaded', 'ActiveState=active', ''];
    return parseMonitorRead([...lines, '@@units', ...units, '@@end'].join('\n'), '/etc');
}
const context = { arrays: ['md0'], calendar: null, systemctl: 'systemctl', timerEnabled: true };
const planOf = (result: ReturnType<typeof schedulePlan>): Plan => {
    if (!result.plan) throw new Error(JSON.stringify(result.errors));
    return result.plan;
};
const files = (plan: Plan) => plan.steps.filter((s): s is WriteFileStep => s.kind === 'write-file').map(s => [s.path, s.content]);
const commands = (plan: Plan) => plan.steps.flatMap(s => (s.kind === 'run' ? [s.argv.join(' ')] : []));
const dropInText = (id: string, at: string) =>
    `# Written by raidtune: when ${id} runs. The empty line drops the package's own calendar.\n[Timer]\nOnCalendar=\nOnCalendar=*-*-* ${at}:00\n`;

test('times of day: HH:MM and the calendar raidtune writes; anything else is refused', () => {
    expect([minutesOfDay('1:30'), minutesOfDay('01:30'), minutesOfDay('*-*-* 23:59:00')]).toEqual([90, 90, 1439]);
    expect([minutesOfDay('24:00'), minutesOfDay('1:3'), minutesOfDay('Sun *-*-* 01:00:00'), minutesOfDay('01:00:30')])
        .toEqual([null, null, null, null]);
    expect(parseWindowStart('')).toEqual({ value: null });
    expect(parseWindowStart('7pm').error?.message).toMatch(/HH:MM/);
});

test('the limits an open window replaced, as the tool keeps them (the automatic restore\'s format)', () => {
    expect(windowLimitsInForce('/proc/sys/dev/raid/speed_limit_max\t2000000\n/proc/sys/dev/raid/speed_limit_min\t50000\n'))
        .toEqual({ before: [['/proc/sys/dev/raid/speed_limit_max', '2000000'], ['/proc/sys/dev/raid/speed_limit_min', '50000']], held: null });
    expect(windowLimitsInForce(undefined, '/proc/sys/dev/raid/speed_limit_min\t10\n')).toBeNull();
});

describe('a limit changed while a window is open (issue #31)', () => {
    const MIN = '/proc/sys/dev/raid/speed_limit_min';
    const MAX = '/proc/sys/dev/raid/speed_limit_max';
    // Before the window: min 1000, max 200000; the window wrote 100000 and 2000000.
    const window = windowLimitsInForce(`${MAX}\t200000\n${MIN}\t1000\n`, `${MIN}\t100000\n${MAX}\t2000000\n`);
    const write = (path: string, to: string, from: string): Step => ({ kind: 'write-attribute', setting: msg('s'), path, to, from });

    test('the value after the window: the one from before while it holds the window\'s own, else the value now', () => {
        expect(valueAfterWindow(window, MIN, '100000')).toBe('1000');
        expect(valueAfterWindow(window, MIN, '50000')).toBe('50000');
        expect(valueAfterWindow(window, '/proc/sys/dev/raid/sync_io_depth', '32')).toBe('32');
        expect(valueAfterWindow(null, MIN, '100000')).toBe('100000');
        // Opened by a version that did not say what it wrote: its end writes every value back.
        const older = windowLimitsInForce(`${MIN}\t1000\n`);
        expect(valueAfterWindow(older, MIN, '50000')).toBe('1000');
    });

    test('what its end will do, from the values now: written back, or kept as changed since it opened', () => {
        const now = new Map([[MIN, '50000'], [MAX, '2000000']]);
        expect(windowEndWrites(window!, path => now.get(path) ?? null))
            .toEqual({ back: [['speed_limit_max', '200000']], kept: [['speed_limit_min', '50000']] });
        expect(windowEndWrites(window!, () => null).kept).toEqual([]);
    });

    test('said before Apply: a new value stays; the window\'s own value cannot be told from its own, and goes back', () => {
        expect(windowEndNotes(window, [write(MIN, '50000', '100000'), write('/sys/block/md0/md/stripe_cache_size', '4096', '256')]))
            .toEqual([msg('A check window is open: $0 stays at $1 when it closes (its end writes back only the limits still at the window\'s own values).',
                'speed_limit_min', '50000')]);
        expect(windowEndNotes(window, [write(MAX, '2000000', '3000000')]))
            .toEqual([msg('A check window is open and holds $0 at $1 too: when it closes, it writes back $2.', 'speed_limit_max', '2000000', '200000')]);
        expect(windowEndNotes(null, [write(MIN, '50000', '100000')])).toEqual([]);
    });
});

test('the limits file: each preset\'s system-wide limits; a file edited by hand is "other"', () => {
    expect(windowLimitsText('fast-rebuild')).toBe('# Written by raidtune: md\'s limits while the check window is open (preset fast-rebuild).\n' +
        '/proc/sys/dev/raid/speed_limit_min\t51200\n/proc/sys/dev/raid/speed_limit_max\t2048000\n');
    expect(windowLimitsPreset(windowLimitsText('low-impact'))).toBe('low-impact');
    expect(windowLimitsPreset('/proc/sys/dev/raid/speed_limit_max\t5000\n')).toBe('other');
    expect(windowLimitsPreset(undefined)).toBeNull();
});

test('a new window: two drop-ins, the limits, a reload, both timers on; the undo takes all of it back', () => {
    const state = debian();
    const input = scheduleInput(state, 'checkarray', true);
    expect([input.windowStart, input.window, input.windowLimits]).toEqual(['', '', '']);
    const plan = planOf(schedulePlan(state, 'checkarray', { ...input, windowStart: '22:30', window: '6', windowLimits: 'low-impact' }, context));
    expect(files(plan)).toEqual([
        [`/etc/${dropIn(START)}`, dropInText(START, '22:30')],
        // Past midnight: the end is the next day's 04:30.
        [`/etc/${dropIn(END)}`, dropInText(END, '04:30')],
        ['/etc/raidtune/check-window-limits', windowLimitsText('low-impact')],
    ]);
    const off = 'systemctl start raidtune-check-window@off.service';
    expect(commands(plan)).toEqual(['systemctl daemon-reload', off, `systemctl enable --now ${START} ${END}`]);
    const undo = scheduleUndo(plan.title, plan.steps);
    expect(files(undo)).toEqual([['/etc/raidtune/check-window-limits', null], [`/etc/${dropIn(END)}`, null], [`/etc/${dropIn(START)}`, null]]);
    // The undo of a window that may be open by then: the limits from before come back too.
    expect(commands(undo)).toEqual(['systemctl daemon-reload', off, `systemctl disable --now ${START} ${END}`]);
});

test('a window in force reads back; moved, its timers restart; emptied, it is removed and stopped', () => {
    const state = debian({
        [dropIn(START)]: dropInText(START, '01:00'), [dropIn(END)]: dropInText(END, '02:30'),
        'raidtune/check-window-limits': windowLimitsText('balanced'),
    }, true);
    const window = ownWindow(state)!;
    expect(window).toEqual({ startMinutes: 60, minutes: 90, on: true, limits: 'balanced' });
    expect(windowEnd(window)).toBe('02:30');
    const input = scheduleInput(state, 'checkarray', true);
    expect([input.windowStart, input.window, input.windowLimits]).toEqual(['01:00', '1.5', 'balanced']);
    expect(planOf(schedulePlan(state, 'checkarray', input, context)).steps).toEqual([]);

    const moved = planOf(schedulePlan(state, 'checkarray', { ...input, windowStart: '2:00' }, context));
    expect(files(moved)).toEqual([[`/etc/${dropIn(START)}`, dropInText(START, '02:00')], [`/etc/${dropIn(END)}`, dropInText(END, '03:30')]]);
    expect(commands(moved)).toEqual(['systemctl daemon-reload', `systemctl try-restart ${START} ${END}`]);

    const off = planOf(schedulePlan(state, 'checkarray', { ...input, windowStart: ' ' }, context));
    expect(files(off).map(([path, content]) => [path, content])).toEqual([
        [`/etc/${dropIn(START)}`, null], [`/etc/${dropIn(END)}`, null], ['/etc/raidtune/check-window-limits', null]]);
    expect(commands(off)).toEqual(['systemctl daemon-reload', `systemctl disable --now ${START} ${END}`,
        'systemctl start raidtune-check-window@off.service']);
});

test('bad values give errors and no plan: a time that is not one, hours out of range or missing, an unknown preset', () => {
    const state = debian();
    const input = { ...scheduleInput(state, 'checkarray', true), windowStart: '01:00', window: '6' };
    const errors = (change: object) => schedulePlan(state, 'checkarray', { ...input, ...change }, context);
    expect(errors({ windowStart: '01:00\nOnCalendar=*:*' })).toEqual({ errors: { windowStart: expect.anything() } });
    expect(errors({ window: '0.1' }).errors?.window?.args).toEqual([0.25, 23]);
    expect(errors({ window: '' }).errors?.window?.message).toMatch(/stays open/);
    expect(errors({ windowLimits: 'turbo' }).plan).toBeUndefined();
});

test('where the plugin\'s timers are missing, no window is planned', () => {
    const state = debian({}, false, false);
    expect(ownWindow(state)).toBeNull();
    expect(planOf(schedulePlan(state, 'checkarray', { ...scheduleInput(state, 'checkarray', true), windowStart: '01:00', window: '6' }, context)).steps)
        .toEqual([]);
});

describe('a whole check over raidtune\'s window', () => {
    const hour = 3600;
    const day = 24 * hour;
    // Sun 2026-12-06: raid-check.timer starts the check at 01:00; the window is 23:30 to 05:30.
    const start = Date.UTC(2026, 11, 6, 1, 0) / 1000;
    const windowStarts = Array.from({ length: 5 }, (_, i) => Date.UTC(2026, 11, 6, 23, 30) / 1000 + i * day);

    test('the first run lasts until the end of the window it starts in, or else of the next one', () => {
        expect(firstRunSeconds(start, windowStarts, 6 * hour)).toBe(4.5 * hour);
        // A window of 02:00 to 06:00: the check started at 01:00, before it, runs until 06:00.
        expect(firstRunSeconds(start, [Date.UTC(2026, 11, 6, 2, 0) / 1000], 4 * hour)).toBe(5 * hour);
        expect(firstRunSeconds(start, [], 6 * hour)).toBeNull();
    });

    test('14 hours of check: 4.5 on Sunday night, 6 from Sunday 23:30, the last 3.5 from Monday 23:30', () => {
        expect(splitCheck(14 * hour, 6 * hour, start, windowStarts, 4.5 * hour))
            .toEqual({ runs: 3, finish: windowStarts[1] + 3.5 * hour });
    });

    test('from the host\'s timers: raid-check.timer starts it, the window\'s start continues it; cron has no start to say', () => {
        const files = {
            [dropIn(START)]: dropInText(START, '23:30'), [dropIn(END)]: dropInText(END, '05:30'),
            'sysconfig/raid-check': 'ENABLED=yes\nCHECK=check\n',
        };
        const raidCheck = ['Id=raid-check.timer', 'LoadState=loaded', 'ActiveState=active', 'UnitFileState=enabled',
            'TimersCalendar={ OnCalendar=Sun *-*-* 01:00:00 ; next_elapse=Sun 2026-12-06 01:00:00 UTC }', ''];
        const lines = Object.entries(files).flatMap(([path, text]) => [`@@file /etc/${path}`, ...text.replace(/\n$/, '').split('\n').map(l => `|${l}`)]);
        const state = parseMonitorRead([...lines, '@@units', ...timer(START, true), ...timer(END, true), ...raidCheck, '@@end'].join('\n'), '/etc');
        const split = splitWindow(state, checkSchedules(state))!;
        expect(split).toMatchObject({
            scheduler: 'raid-check', startSpec: 'Sun *-*-* 01:00:00', continueSpec: '*-*-* 23:30:00', window: { seconds: 6 * hour },
        });
        expect(splitRuns(split, { start, continuations: windowStarts }))
            .toEqual({ start, continuations: windowStarts, firstRunSeconds: 4.5 * hour });

        const debianState = debian({ [dropIn(START)]: dropInText(START, '23:30'), [dropIn(END)]: dropInText(END, '05:30') }, true);
        expect(splitWindow(debianState, checkSchedules(debianState))).toBeNull();
    });
});
