// SPDX-License-Identifier: LGPL-2.1-or-later
import { msg } from '../../../src/md/message';
import { changedSinceOpened, filesChangedSinceOpened, filesToRecheck, pathsToRecheck, rebasedOnCurrent } from '../../../src/md/openedValues';
import type { Step } from '../../../src/md/plan';
import { attributeValue } from '../../../src/md/readBack';

const write = (path: string, to: string, from: string | null): Step => ({ kind: 'write-attribute', setting: msg('x'), path, to, from });

const MIN = '/proc/sys/dev/raid/speed_limit_min';
const ARRAY_MAX = '/sys/block/md0/md/sync_speed_max';
const SCHEDULER = '/sys/block/sda/queue/scheduler';

describe('values changed since a dialog opened', () => {
    test('the kernel\'s forms read as raidtune writes them', () => {
        expect(attributeValue(ARRAY_MAX, '200000 (system)\n')).toBe('system');
        expect(attributeValue(ARRAY_MAX, '5000 (local)')).toBe('5000');
        expect(attributeValue(SCHEDULER, 'none [mq-deadline] bfq')).toBe('mq-deadline');
        expect(attributeValue(MIN, '1000\n')).toBe('1000');
    });

    test('only writes that know what they replace are read again; sync_action never', () => {
        const steps = [write(MIN, '2000', '1000'), write('/sys/block/md0/md/sync_action', 'idle', 'recover'),
            write('/x', '1', null), { kind: 'run', setting: msg('x'), argv: ['true'], undoArgv: null } as Step];
        expect(pathsToRecheck(steps)).toEqual([MIN]);
    });

    test('a value another tab changed is reported with what it was and is; equal ones are not', () => {
        const steps = [write(MIN, '80000', '55000'), write(ARRAY_MAX, '5000', 'system'), write(SCHEDULER, 'bfq', 'mq-deadline')];
        const contents = new Map([[MIN, '70000\n'], [ARRAY_MAX, '200000 (system)'], [SCHEDULER, 'none [mq-deadline] bfq']]);
        expect(changedSinceOpened(steps, contents).map(c => [c.step.path, c.was, c.now])).toEqual([[MIN, '55000', '70000']]);
        expect(changedSinceOpened(steps, new Map([[MIN, null]])).map(c => c.now)).toEqual([null, null, null]);
    });

    test('applied anyway, each write replaces what is there now, and one already there is dropped', () => {
        const steps = [write(MIN, '80000', '55000'), write(ARRAY_MAX, '5000', 'system')];
        const contents = new Map([[MIN, '70000'], [ARRAY_MAX, '5000 (local)']]);
        expect(rebasedOnCurrent(steps, changedSinceOpened(steps, contents))).toEqual([write(MIN, '80000', '70000')]);
    });
});

describe('files changed since a dialog opened (issue #31)', () => {
    const CONF = '/etc/mdadm/mdadm.conf';
    const KEPT = '/etc/sysctl.d/90-raidtune.conf';
    const edit: Step = { kind: 'edit-file', setting: msg('x'), path: CONF, format: 'mdadm-conf', edits: [{ key: 'MAILADDR', lines: ['MAILADDR a'] }], opened: 'DEVICE partitions\n' };
    const kept: Step = { kind: 'write-file', setting: msg('x'), path: KEPT, content: 'b = 2\n', previous: 'a = 1\n', checked: true };
    const journal: Step = { kind: 'write-file', setting: msg('x'), path: '/var/lib/raidtune/journal.json', content: '{}', previous: null };

    test('the files edited and the checked files written are read again; raidtune\'s private state is not', () => {
        expect(filesToRecheck([edit, kept, journal])).toEqual([CONF, KEPT]);
    });

    test('a file differs by any line; not by a last newline or by being empty rather than absent (the refresh reads lines)', () => {
        expect(filesChangedSinceOpened([edit], new Map([[CONF, 'DEVICE partitions\n']]))).toEqual([]);
        expect(filesChangedSinceOpened([edit], new Map([[CONF, 'DEVICE partitions\nARRAY /dev/md0\n']])).map(c => c.now))
            .toEqual(['DEVICE partitions\nARRAY /dev/md0\n']);
        expect(filesChangedSinceOpened([edit], new Map([[CONF, null]])).map(c => c.was)).toEqual(['DEVICE partitions\n']);
        expect(filesChangedSinceOpened([kept], new Map([[KEPT, 'a = 1']]))).toEqual([]);
        expect(filesChangedSinceOpened([edit], new Map([[CONF, 'DEVICE partitions']]))).toEqual([]);
        expect(filesChangedSinceOpened([{ ...kept, previous: null }], new Map([[KEPT, '']]))).toEqual([]);
        expect(filesChangedSinceOpened([kept], new Map([[KEPT, 'a = 1\n# mine\n']])).map(c => c.step.path)).toEqual([KEPT]);
    });

    test('applied anyway: the edit is applied to the file as it is now, the write replaces what is there now', () => {
        const now = new Map([[CONF, 'DEVICE partitions\nARRAY /dev/md0\n'], [KEPT, 'a = 1\n# mine\n']]);
        const rebased = rebasedOnCurrent([edit, kept], filesChangedSinceOpened([edit, kept], now));
        expect(rebased).toEqual([{ ...edit, opened: now.get(CONF) }, { ...kept, previous: now.get(KEPT) }]);
    });
});
