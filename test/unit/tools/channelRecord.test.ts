// SPDX-License-Identifier: LGPL-2.1-or-later
// The words the 372 subset's guard compares (tools/cockpit/channelRecord.ts): a channel's kind from
// the page's open command, and its ending from the bridge's close command.
import { channelEnd, channelKind } from '../../../tools/cockpit/channelRecord';

test('a spawn names its options that bridges treat differently, not its command line', () => {
    expect(channelKind({ command: 'open', channel: '1:2!3', payload: 'stream', spawn: ['tee', '/sys/x'], superuser: 'require', err: 'message' }))
        .toBe('stream spawn superuser=require err=message');
    expect(channelKind({ command: 'open', payload: 'stream', spawn: ['cat'], err: 'message', environ: ['LC_ALL=C'] }))
        .toBe('stream spawn err=message environ');
    expect(channelKind({ command: 'open', payload: 'dbus-json3', bus: 'internal' })).toBe('dbus-json3 bus=internal');
});

test('an ending is the problem, else whether the process exited 0', () => {
    expect(channelEnd({ command: 'close', problem: 'access-denied' })).toBe('problem=access-denied');
    expect(channelEnd({ command: 'close', 'exit-status': 0 })).toBe('exit=0');
    expect(channelEnd({ command: 'close', 'exit-status': 1 })).toBe('exit!=0');
    expect(channelEnd({ command: 'close', 'exit-signal': 'TERM' })).toBe('signal');
    expect(channelEnd({ command: 'close' })).toBe('closed');
});
