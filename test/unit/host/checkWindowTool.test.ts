// SPDX-License-Identifier: LGPL-2.1-or-later
// Runs the check window's host tool (recorder/raidtune-check-window) with the real sh against a
// temporary sysfs-like tree: what it reads and refuses, what it writes where. The kernel's own part
// (its rounding and refusals, a check really paused and resumed) is proven in
// test/vm/checkWindow.test.ts; a plain file here takes any value written to it.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fakeTree } from './fakeSysfs';

const TOOL = join(__dirname, '../../../recorder/raidtune-check-window');
const UUID = '0a1b2c3d-1111-2222-3333-444455556666';

const { at, write, md } = fakeTree('raidtune-check-window-');
const attr = (name: string, file: string) => readFileSync(at(`sys/block/${name}/md/${file}`), 'utf8').trim();
const recordPath = (key = UUID) => at(`state/check-window/${key}.window`);
const record = (key = UUID) => (existsSync(recordPath(key)) ? readFileSync(recordPath(key), 'utf8').trim() : null);
/** Why the paused check waits, where resume left it waiting (the page reads it). */
const waiting = () => (existsSync(at(`state/check-window/${UUID}.waiting`)) ? readFileSync(at(`state/check-window/${UUID}.waiting`), 'utf8').trim() : null);
const run = (...args: string[]) => {
    const r = spawnSync('sh', [TOOL, ...args], { encoding: 'utf8' });
    return { code: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
};
const tool = (command: string) => run(command, at('sys'), at('state'));

function array(name: string, attributes: Record<string, string> = {}) {
    md(name, {
        uuid: UUID, sync_action: 'idle', sync_completed: 'none', sync_min: '0', mismatch_cnt: '0', ...attributes,
    });
}

test('pause stops a check and records its position, mismatches and name under the array\'s uuid', () => {
    array('md0', { sync_action: 'check', sync_completed: '65536 / 1048576', mismatch_cnt: '128' });
    expect(tool('pause')).toEqual({ code: 0, out: 'md0: check paused at sector 65536 of 1048576 (6%)', err: '' });
    expect(attr('md0', 'sync_action')).toBe('idle');
    expect(record()).toBe('paused 65536 md0 128');
    // Written through a temporary name: nothing else is left.
    expect(readdirSync(at('state/check-window'))).toEqual([`${UUID}.window`]);
});

test('pause leaves every other sync running and says so; idle arrays are no news', () => {
    array('md0', { sync_action: 'repair', sync_completed: '10 / 100' });
    md('md1', { uuid: '0a1b2c3d-1111-2222-3333-444455550001', sync_action: 'resync' });
    md('md2', { uuid: '0a1b2c3d-1111-2222-3333-444455550002', sync_action: 'idle' });
    expect(tool('pause')).toEqual({
        code: 0, out: '', err: 'md0: repair is not a check: left running\nmd1: resync is not a check: left running',
    });
    expect([attr('md0', 'sync_action'), attr('md1', 'sync_action')]).toEqual(['repair', 'resync']);
    expect(existsSync(at('state/check-window')) && readdirSync(at('state/check-window'))).toEqual([]);
});

test('pause takes a check that has not started yet from where it would start; a uuid not md\'s keys by name', () => {
    array('md0', { uuid: 'a b;c', sync_action: 'check', sync_completed: 'delayed' });
    expect(tool('pause')).toEqual({ code: 0, out: 'md0: check paused at sector 0', err: '' });
    expect(record('md0')).toBe('paused 0 md0 0');
});

test('names that are not md\'s are not touched', () => {
    array('md0.old', { sync_action: 'check', sync_completed: '8 / 16' });
    array('mdX', { sync_action: 'check', sync_completed: '8 / 16' });
    expect(tool('pause')).toEqual({ code: 0, out: '', err: '' });
    expect([attr('md0.old', 'sync_action'), attr('mdX', 'sync_action')]).toEqual(['check', 'check']);
});

test('resume continues an idle array\'s check from its record; a busy or missing array keeps its record', () => {
    array('md0');
    write(`state/check-window/${UUID}.window`, 'paused 65536 md0 128');
    write('state/check-window/0a1b2c3d-1111-2222-3333-444455550009.window', 'paused 800 md9 0');
    expect(tool('resume')).toEqual({
        code: 0, out: 'md0: check resumed at sector 65536', err: 'md9: not present; its check stays paused at sector 800',
    });
    expect([attr('md0', 'sync_min'), attr('md0', 'sync_action')]).toEqual(['65536', 'check']);
    expect(record()).toBe('resumed 65536 md0 128');
    expect(record('0a1b2c3d-1111-2222-3333-444455550009')).toBe('paused 800 md9 0');

    write(`state/check-window/${UUID}.window`, 'paused 65536 md0 128');
    md('md0', { sync_action: 'resync', sync_min: '0' });
    expect(tool('resume').err).toContain('md0: busy (resync); its check stays paused at sector 65536');
    expect(attr('md0', 'sync_min')).toBe('0');
    expect(record()).toBe('paused 65536 md0 128');
    expect(waiting()).toBe('busy md0');
    // The window's end drops the records it forgets with their reasons (off).
    expect(tool('off').code).toBe(0);
    expect([record(), waiting()]).toEqual([null, null]);
});

test('resume leaves the check of a degraded or reshaping array paused: idle, but not whole', () => {
    array('md0');
    write(`state/check-window/${UUID}.window`, 'paused 65536 md0 128');
    md('md0', { degraded: '1' });
    expect(tool('resume')).toEqual({ code: 0, out: '', err: 'md0: degraded (1 member(s) missing); its check stays paused at sector 65536' });
    expect([attr('md0', 'sync_min'), attr('md0', 'sync_action')]).toEqual(['0', 'idle']);
    expect(record()).toBe('paused 65536 md0 128');
    expect(waiting()).toBe('degraded md0');

    md('md0', { degraded: '0', reshape_position: '1048576' });
    expect(tool('start').err).toBe('md0: a reshape is under way (at 1048576); its check stays paused at sector 65536');
    expect(attr('md0', 'sync_action')).toBe('idle');
    expect(waiting()).toBe('reshape md0');

    // Whole again (the rebuild done): the window goes on from where it stopped.
    md('md0', { reshape_position: 'none' });
    expect(tool('resume').out).toBe('md0: check resumed at sector 65536');
    expect(attr('md0', 'sync_action')).toBe('check');
    expect(waiting()).toBeNull();
});

test('an array found by its uuid under another name after a re-assembly', () => {
    array('md127');
    write(`state/check-window/${UUID}.window`, 'paused 4096 md0 0');
    expect(tool('resume').out).toBe('md127: check resumed at sector 4096');
    expect(record()).toBe('resumed 4096 md127 0');
});

test('a resumed check seen idle has ended: sync_min back to 0, the mismatches of every part, the record dropped', () => {
    array('md0', { sync_min: '90112', mismatch_cnt: '64' });
    write(`state/check-window/${UUID}.window`, 'resumed 65536 md0 128');
    expect(tool('tidy')).toEqual({
        code: 0, out: 'md0: the check resumed at sector 65536 has ended; mismatch_cnt over the whole check: 192; sync_min is 0', err: '',
    });
    expect(attr('md0', 'sync_min')).toBe('0');
    expect(record()).toBeNull();
});

test('a resumed check still running is paused again, its mismatches added', () => {
    array('md0', { sync_action: 'check', sync_completed: '98304 / 1048576', mismatch_cnt: '64' });
    write(`state/check-window/${UUID}.window`, 'resumed 65536 md0 128');
    expect(tool('pause').out).toBe('md0: check paused at sector 98304 of 1048576 (9%)');
    expect(record()).toBe('paused 98304 md0 192');
});

test.each([
    'paused 65536;reboot md0 0', 'paused 65536 ../../etc 0', 'paused 65536 md0 0 extra', 'running 65536 md0 0',
    'paused -1 md0 0', 'paused 65536 md0', 'paused 65536 MD0 0', '',
])('a record that is not ours (%j) is dropped, nothing written', text => {
    array('md0');
    write(`state/check-window/${UUID}.window`, text);
    const { code, err } = tool('resume');
    expect(code).toBe(1);
    expect(err).toBe(`raidtune-check-window: ${recordPath()} is not a valid record: dropped`);
    expect([attr('md0', 'sync_min'), attr('md0', 'sync_action')]).toEqual(['0', 'idle']);
    expect(record()).toBeNull();
});

test.each([[[]], [['check']], [['pause', '/sys', '/var/lib/raidtune', '/proc', '/etc/l', 'more']]])('bad usage %j: exit 2', args => {
    expect(run(...args)).toEqual({
        code: 2, out: '', err: 'usage: raidtune-check-window pause|resume|start|end|off|tidy [SYS_ROOT [STATE_DIR [PROC_ROOT [LIMITS]]]]',
    });
});

describe('the window\'s limits', () => {
    const RAID = 'proc/sys/dev/raid';
    const edge = (command: string) => run(command, at('sys'), at('state'), at('proc'), at('etc/limits'));
    const limit = (name: string) => readFileSync(at(`${RAID}/${name}`), 'utf8').trim();
    const armedPath = () => at('state/check-window/limits.armed');
    const armed = () => (existsSync(armedPath()) ? readFileSync(armedPath(), 'utf8') : null);
    const heldPath = () => at('state/check-window/limits.held');
    const held = () => (existsSync(heldPath()) ? readFileSync(heldPath(), 'utf8') : null);
    beforeEach(() => {
        write(`${RAID}/speed_limit_min`, '1000');
        write(`${RAID}/speed_limit_max`, '200000');
    });

    test('start resumes, then writes the limits and keeps the values before; end pauses, then writes those back', () => {
        array('md0');
        write(`state/check-window/${UUID}.window`, 'paused 65536 md0 0');
        write('etc/limits', '# a comment\n/proc/sys/dev/raid/speed_limit_min\t10\n/proc/sys/dev/raid/speed_limit_max\t5000');
        expect(edge('start')).toEqual({
            code: 0, out: 'md0: check resumed at sector 65536\nlimits: speed_limit_min 10\nlimits: speed_limit_max 5000', err: '',
        });
        expect([limit('speed_limit_min'), limit('speed_limit_max'), attr('md0', 'sync_action')]).toEqual(['10', '5000', 'check']);
        // The automatic restore's format, last write first.
        const before = '/proc/sys/dev/raid/speed_limit_max\t200000\n/proc/sys/dev/raid/speed_limit_min\t1000\n';
        expect(armed()).toBe(before);
        // And what it wrote, as read back: the end tells a limit changed meanwhile by it.
        expect(held()).toBe('/proc/sys/dev/raid/speed_limit_min\t10\n/proc/sys/dev/raid/speed_limit_max\t5000\n');
        // A second start (or an end that never came) keeps the values from before any window.
        expect(edge('start').out).toBe('limits: speed_limit_min 10\nlimits: speed_limit_max 5000');
        expect(armed()).toBe(before);

        write('sys/block/md0/md/sync_completed', '98304 / 1048576');
        expect(edge('end')).toEqual({
            code: 0, err: '',
            out: 'md0: check paused at sector 98304 of 1048576 (9%)\nlimits: speed_limit_max 200000 again\nlimits: speed_limit_min 1000 again',
        });
        expect([limit('speed_limit_min'), limit('speed_limit_max'), armed(), held()]).toEqual(['1000', '200000', null, null]);
        // Without limits written, end has nothing to write back.
        expect(edge('end')).toEqual({ code: 0, out: '', err: '' });
    });

    test('a limit changed while the window is open is kept at its end; one still at the window\'s value goes back', () => {
        write('etc/limits', '/proc/sys/dev/raid/speed_limit_min\t10\n/proc/sys/dev/raid/speed_limit_max\t5000');
        expect(edge('start').code).toBe(0);
        // The admin's own minimum, set while the window is open (the page, or sysctl -w).
        write(`${RAID}/speed_limit_min`, '50000');
        expect(edge('end')).toEqual({
            code: 0, err: '',
            out: 'limits: speed_limit_max 200000 again\nlimits: speed_limit_min 50000 kept: changed while the window was open',
        });
        expect([limit('speed_limit_min'), limit('speed_limit_max'), armed(), held()]).toEqual(['50000', '200000', null, null]);
    });

    test('a window opened by a version that kept no values of its own: every value goes back, as before', () => {
        write('etc/limits', '/proc/sys/dev/raid/speed_limit_min\t10');
        expect(edge('start').code).toBe(0);
        rmSync(heldPath());
        write(`${RAID}/speed_limit_min`, '50000');
        expect(edge('end')).toEqual({ code: 0, out: 'limits: speed_limit_min 1000 again', err: '' });
        expect(limit('speed_limit_min')).toBe('1000');
    });

    test('off: the limits from before, and a paused check forgotten (sync_min 0); a resumed one runs on', () => {
        array('md0', { sync_min: '65536' });
        md('md1', { uuid: '0a1b2c3d-1111-2222-3333-444455550001', sync_action: 'check', sync_min: '8' });
        write('etc/limits', '/proc/sys/dev/raid/speed_limit_max\t5000');
        expect(edge('start').code).toBe(0);
        // Left by the window's end: md0 paused at its checkpoint, md1's check resumed.
        write(`state/check-window/${UUID}.window`, 'paused 65536 md0 4');
        write('state/check-window/0a1b2c3d-1111-2222-3333-444455550001.window', 'resumed 8 md1 0');
        expect(edge('off')).toEqual({
            code: 0, err: '',
            out: 'limits: speed_limit_max 200000 again\nmd0: the check paused at sector 65536 is forgotten: the next periodic check checks the whole array',
        });
        expect([limit('speed_limit_max'), armed(), attr('md0', 'sync_min'), record()]).toEqual(['200000', null, '0', null]);
        expect([attr('md1', 'sync_action'), record('0a1b2c3d-1111-2222-3333-444455550001')]).toEqual(['check', 'resumed 8 md1 0']);
    });

    test('no limits file: the window only pauses and resumes', () => {
        array('md0', { sync_action: 'check', sync_completed: '8 / 16' });
        expect(edge('start')).toEqual({ code: 0, out: '', err: '' });
        expect(edge('end').out).toBe('md0: check paused at sector 8 of 16 (50%)');
        expect([limit('speed_limit_max'), armed()]).toEqual(['200000', null]);
    });

    test.each([
        '/proc/sys/dev/raid/speed_limit_max\t5000;reboot', '/etc/passwd\t1', '/proc/sys/dev/raid/../../kernel/panic\t1',
        '/proc/sys/dev/raid/speed_limit_max\t5000\textra', '/proc/sys/dev/raid/speed_limit_max\t12345678901',
        '/proc/sys/dev/raid/speed_limit_max',
    ])('a limits line that is not one of md\'s limits with a number (%j): nothing written', line => {
        write('etc/limits', `/proc/sys/dev/raid/speed_limit_min\t10\n${line}`);
        const { code, err } = edge('start');
        expect(code).toBe(1);
        expect(err).toMatch(/is not one of md's limits with a number: nothing written$/);
        expect([limit('speed_limit_min'), limit('speed_limit_max'), armed()]).toEqual(['1000', '200000', null]);
    });

    test('a limit this kernel does not have (sync_io_depth before 6.16): nothing written, said', () => {
        write('etc/limits', '/proc/sys/dev/raid/speed_limit_max\t5000\n/proc/sys/dev/raid/sync_io_depth\t32');
        expect(edge('start')).toEqual({ code: 1, out: '', err: `limits: ${at(`${RAID}/sync_io_depth`)} cannot be read: no limits written` });
        expect([limit('speed_limit_max'), armed()]).toEqual(['200000', null]);
    });

    test('a limit the kernel refuses keeps the values from before for the next end', () => {
        write('etc/limits', '/proc/sys/dev/raid/speed_limit_max\t5000');
        expect(edge('start').code).toBe(0);
        // A directory where the value was: the write fails as a refused one does.
        rmSync(at(`${RAID}/speed_limit_max`));
        mkdirSync(at(`${RAID}/speed_limit_max`));
        expect(edge('end')).toEqual({ code: 1, out: '', err: 'limits: the kernel refused 200000 in speed_limit_max' });
        expect(armed()).toBe('/proc/sys/dev/raid/speed_limit_max\t200000\n');
    });
});
