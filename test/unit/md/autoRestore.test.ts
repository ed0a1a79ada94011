// SPDX-License-Identifier: LGPL-2.1-or-later
import {
    armedFileContent, armedFollowSteps, armPlan, armRefusal, cancelPlan, notRestoredBy, parseArmedFile,
    parseAutoRestore, type ArmedRestore,
} from '../../../src/md/autoRestore';
import { recordOriginals, serializeJournal, type Journal } from '../../../src/md/journal';
import { msg } from '../../../src/md/message';
import { describePlan, invertSteps, type Step } from '../../../src/md/plan';
import { WAITER_SCRIPT } from '../../../src/md/waiterScript';

const write = (path: string, to: string, from: string): Step => ({ kind: 'write-attribute', setting: msg('s'), path, to, from });
const journal: Journal = recordOriginals(null, [
    write('/proc/sys/dev/raid/speed_limit_min', '50000', '1000'),
    write('/sys/block/md0/md/sync_speed_max', '900000', 'system'),
], 'T');
const roots = { sysRoot: '/sys', procRoot: '/proc', stateDir: '/var/lib/raidtune' };
const running = { name: 'md0', sync: { runState: 'running' } };

describe('arming the automatic restore', () => {
    test('writes what to restore and the journal as armed, then starts the fixed waiter (no systemd: setsid)', () => {
        const plan = armPlan('md0', journal, roots, false);
        expect(plan.steps.map(s => s.kind)).toEqual(['write-file', 'write-file', 'run']);
        expect(plan.steps[0]).toMatchObject({ path: '/var/lib/raidtune/auto-restore/md0.journal', content: serializeJournal(journal) });
        expect(plan.steps[1]).toMatchObject({
            path: '/var/lib/raidtune/auto-restore/md0.armed',
            content: '/sys/block/md0/md/sync_speed_max\tsystem\n/proc/sys/dev/raid/speed_limit_min\t1000\n',
        });
        expect(plan.steps[2]).toEqual({
            kind: 'run', setting: plan.steps[2].setting, undoArgv: null,
            argv: ['setsid', '-f', 'sh', '-c', WAITER_SCRIPT, 'raidtune-restore', 'md0', '/sys', '/proc', '/var/lib/raidtune', '5', '3', '360'],
        });
    });

    test('with systemd as PID 1 the waiter is a transient unit, stopped by the undo', () => {
        const run = armPlan('md0', journal, roots, true).steps[2];
        expect(run.kind === 'run' && run.argv.slice(0, 6)).toEqual(['systemd-run', '--unit=raidtune-restore-md0', '--collect', '--quiet', 'sh', '-c']);
        expect(run.kind === 'run' && run.argv[6]).toBe(WAITER_SCRIPT);
        expect(run.kind === 'run' && run.undoArgv).toEqual(['sh', '-c', 'systemctl stop "$1" 2>/dev/null; exit 0', 'raidtune-cancel', 'raidtune-restore-md0.service']);
    });

    test('the script text is fixed: no array name, root or value inside it', () => {
        const plan = armPlan('md0', journal, { sysRoot: '/tmp/x/sys', procRoot: '/tmp/x/proc', stateDir: '/tmp/x/state' }, false);
        const run = plan.steps[2];
        expect(run.kind === 'run' && run.argv[4]).toBe(WAITER_SCRIPT);
        for (const data of ['md0', '/tmp/x', '1000', 'speed_limit']) expect(WAITER_SCRIPT).not.toContain(data);
    });

    test('is offered only with a journal, a running sync and a usable array name', () => {
        const text = (m: ReturnType<typeof armRefusal>) => m?.message ?? null;
        expect(armRefusal(running, journal, new Map())).toBeNull();
        expect(text(armRefusal(running, null, new Map()))).toMatch(/nothing to restore/);
        expect(text(armRefusal({ name: 'md0', sync: null }, journal, new Map()))).toMatch(/No sync is running/);
        expect(text(armRefusal({ name: 'md0', sync: { runState: 'pending' } }, journal, new Map()))).toMatch(/No sync is running/);
        expect(text(armRefusal({ name: 'md0; rm -rf /', sync: { runState: 'running' } }, journal, new Map()))).toMatch(/not a name/);
        expect(text(armRefusal(running, journal, new Map([['md0', { writes: [], history: [] }]])))).toBe('Already armed.');
        const withTab = { ...journal, entries: [{ ...journal.entries[0], original: 'a\tb' }] };
        expect(armedFileContent(withTab)).toBeNull();
        expect(text(armRefusal(running, withTab, new Map()))).toMatch(/cannot be handed/);
    });
});

describe('a change made while armed', () => {
    const grown = recordOriginals(journal, [write('/sys/block/md0/queue/read_ahead_kb', '4096', '128')], 'T2');
    const armed = new Map<string, ArmedRestore>([['md0', { writes: [['/proc/sys/dev/raid/speed_limit_min', '1000']], history: [] }]]);

    test('every armed waiter gets the grown journal, its .armed file before the journal copy', () => {
        const [step, ...rest] = armedFollowSteps(grown, armed, roots);
        expect(rest).toEqual([]);
        expect(step.kind === 'run' && step.argv.slice(3)).toEqual(['raidtune-follow', '/var/lib/raidtune/auto-restore/md0.armed',
            armedFileContent(grown), '/var/lib/raidtune/auto-restore/md0.journal', serializeJournal(grown)]);
        expect(armedFollowSteps(grown, new Map(), roots)).toEqual([]);
    });

    test('the settings an armed waiter would leave as they are', () => {
        expect(notRestoredBy(armed.get('md0')!, grown).map(m => m.message)).toEqual(['s', 's']);
        expect(notRestoredBy({ writes: parseArmedFile(armedFileContent(grown)!), history: [] }, grown)).toEqual([]);
    });
});

describe('cancelling', () => {
    const armed: ArmedRestore = { writes: [['/proc/sys/dev/raid/speed_limit_min', '1000']], history: [] };

    test('removes the armed file (the waiter ends at its next poll); undoing it puts the file back', () => {
        const plan = cancelPlan('md0', armed, roots, false);
        expect(describePlan(plan)).toBe('rm -f /var/lib/raidtune/auto-restore/md0.armed');
        expect(invertSteps(plan.title, plan.steps).steps).toMatchObject([{ content: '/proc/sys/dev/raid/speed_limit_min\t1000\n' }]);
    });

    test('also stops the systemd unit, tolerating one that already ended', () => {
        expect(describePlan(cancelPlan('md0', armed, roots, true))).toBe('rm -f /var/lib/raidtune/auto-restore/md0.armed\n' +
            `sh -c 'systemctl stop "$1" 2>/dev/null; exit 0' raidtune-cancel raidtune-restore-md0.service`);
    });
});

describe('reading the auto-restore folder', () => {
    test('armed arrays with their history; other files, odd names and unsafe paths are ignored', () => {
        const files = new Map([
            ['/raidtune-state/auto-restore/md0.armed', '/proc/sys/dev/raid/speed_limit_min\t1000\n/etc/passwd\tx\n/sys/../etc\tx\n'],
            ['/raidtune-state/auto-restore/md0.history', '100.50 10 100 4000 1000 200000\n101.5 - - - - -\ngarbage\n'],
            ['/raidtune-state/auto-restore/md1.history', '100 1 2 3 4 5\n'],
            ['/raidtune-state/auto-restore/x;y.armed', ''],
            ['/raidtune-state/restore.json', '{}'],
        ]);
        const armed = parseAutoRestore(files);
        expect([...armed.keys()]).toEqual(['md0']);
        expect(armed.get('md0')).toEqual({
            writes: [['/proc/sys/dev/raid/speed_limit_min', '1000']],
            history: [
                { at: 100500, doneKiB: 10, totalKiB: 100, speedKiBs: 4000, minKiBs: 1000, maxKiBs: 200000 },
                { at: 101500, doneKiB: null, totalKiB: null, speedKiBs: null, minKiBs: null, maxKiBs: null },
            ],
        });
    });

    test('the armed file round-trips', () => {
        expect(parseArmedFile(armedFileContent(journal)!)).toEqual([
            ['/sys/block/md0/md/sync_speed_max', 'system'], ['/proc/sys/dev/raid/speed_limit_min', '1000'],
        ]);
    });
});
