// SPDX-License-Identifier: LGPL-2.1-or-later
// The check window's records as the page reads them: paused checks with why they wait.

import { parsePausedChecks } from '../../../../src/md/alerts/pausedChecks';

const dir = '/raidtune-state/check-window/';
const files = (entries: Record<string, string>) =>
    new Map(Object.entries(entries).map(([name, text]) => [dir + name, text]));

test('a paused check, with the reason the window left it paused; a resumed one is not listed', () => {
    expect(parsePausedChecks(files({
        'a1.window': 'paused 65536 md10 128\n', 'a1.waiting': 'degraded md10\n',
        'b2.window': 'paused 8 md2 0\n',
        'c3.window': 'resumed 4096 md3 0\n',
        'limits.armed': '/proc/sys/dev/raid/speed_limit_max\t200000\n',
    }))).toEqual([
        { array: 'md2', sector: 8, waits: null },
        { array: 'md10', sector: 65536, waits: 'degraded' },
    ]);
});

test('a record or reason that is not the tool\'s is left out, never guessed', () => {
    expect(parsePausedChecks(files({
        'a.window': 'paused 12x md0 0', 'b.window': 'paused 8 sda 0', 'c.window': 'paused 8 md1 0 extra',
        'd.window': 'paused 8 md4 0', 'd.waiting': 'tired md4',
        'e.window': 'paused 8 md5 0', 'e.waiting': 'busy md6',
    }))).toEqual([{ array: 'md4', sector: 8, waits: null }, { array: 'md5', sector: 8, waits: null }]);
});
