// SPDX-License-Identifier: LGPL-2.1-or-later
import { msg } from '../../../src/md/message';
import { changedSinceOpened, pathsToRecheck, rebasedOnCurrent } from '../../../src/md/openedValues';
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
