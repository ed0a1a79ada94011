// SPDX-License-Identifier: LGPL-2.1-or-later
import { historyOf, parseHistoryFile, parseHistoryLine, parseSyncHistory } from '../../../src/md/history';
import { recordingPlan, recordingState } from '../../../src/md/historyRecording';
import type { MonitorState } from '../../../src/md/alerts/monitor';

const UUID = '0a1b2c3d-1111-2222-3333-444455556666';
const line = (fields: Record<string, unknown> = {}) => JSON.stringify({
    v: 1, array: 'md0', uuid: UUID, type: 'check', start: 1000, end: 1120, seconds: 120, startKiB: 0,
    doneKiB: 1000000, sizeKiB: 1000000, avgKiBps: 8333, speedMin: 1000, speedMax: 200000, limitsChanged: false,
    mismatches: 128, result: 'finished', interval: 60, ...fields,
});

describe('a history line', () => {
    test('reads as the operation the recorder wrote', () => {
        expect(parseHistoryLine(line())).toEqual({
            array: 'md0', uuid: UUID, type: 'check', start: 1000, end: 1120, seconds: 120, startKiB: 0, doneKiB: 1000000,
            sizeKiB: 1000000, avgKiBs: 8333, speedMinKiBs: 1000, speedMaxKiBs: 200000, limitsChanged: false,
            mismatches: 128, finished: true, intervalSeconds: 60,
        });
        expect(parseHistoryLine(line({ result: 'interrupted', mismatches: null, avgKiBps: null }))).toMatchObject({
            finished: false, mismatches: null, avgKiBs: null,
        });
    });

    test.each([
        ['truncated', line().slice(0, 60)],
        ['not JSON', 'hello'],
        ['a list', '[1,2]'],
        ['another version', line({ v: 2 })],
        ['an unknown type', line({ type: 'scrub' })],
        ['an array name with a shell character', line({ array: 'md0;rm' })],
        ['a uuid with a slash', line({ uuid: '../x' })],
        ['an end before its start', line({ end: 900, seconds: -100 })],
        ['a duration that does not match', line({ seconds: 5 })],
        ['a negative count', line({ mismatches: -1 })],
        ['a fraction', line({ doneKiB: 1.5 })],
        ['a number as text', line({ speedMax: '200000' })],
        ['a missing field', line({ interval: undefined })],
        ['an unknown result', line({ result: 'done' })],
    ])('%s is skipped', (_name, text) => {
        expect(parseHistoryLine(text)).toBeNull();
    });
});

describe('a history file', () => {
    test('newest first; bad and truncated lines skipped and counted, blank lines ignored', () => {
        const text = [line({ start: 1, end: 2, seconds: 1 }), 'garbage', '', line(), line().slice(0, 30)].join('\n');
        const history = parseHistoryFile(text);
        expect(history.operations.map(o => o.start)).toEqual([1000, 1]);
        expect(history.skipped).toBe(2);
    });

    test('the section: files by uuid, the last run, other names ignored; an array found by uuid, else by name', () => {
        const history = parseSyncHistory(new Map([
            [`/raidtune-history/${UUID}.jsonl`, line()],
            ['/raidtune-history/md9.jsonl', line({ array: 'md9', uuid: 'md9' })],
            ['/raidtune-history/last-run', '1180\n'],
            ['/raidtune-history/x y.jsonl', line()],
            ['/raidtune-history/md0.running', 'check md0 1000'],
        ]));
        expect([...history.byKey.keys()]).toEqual([UUID, 'md9']);
        expect(history.lastRun).toBe(1180);
        expect(historyOf(history, { name: 'md0', uuid: UUID })?.operations).toHaveLength(1);
        expect(historyOf(history, { name: 'md9', uuid: null })?.operations[0].array).toBe('md9');
        expect(historyOf(history, { name: 'md1', uuid: 'other' })).toBeNull();
    });

    test('the same text gives the same object (a full read every 10 s hands the card nothing new)', () => {
        const files = new Map([[`/raidtune-history/${UUID}.jsonl`, line()]]);
        expect(parseSyncHistory(files).byKey.get(UUID)).toBe(parseSyncHistory(new Map(files)).byKey.get(UUID));
    });
});

describe('recording on or off', () => {
    const state = (units: MonitorState['units']) => ({ units } as MonitorState);
    const timer = (activeState: string) => ({
        id: 'raidtune-history.timer', loadState: 'loaded', activeState, unitFileState: 'enabled', nextElapse: null, calendar: null, environment: null, execStart: null,
    });

    test('is the timer as systemd holds it', () => {
        expect(recordingState(state([timer('active')]))).toBe('on');
        expect(recordingState(state([timer('inactive')]))).toBe('off');
        expect(recordingState(state([]))).toBe('not-installed');
        expect(recordingState(state(null))).toBe('unknown');
        expect(recordingState(null)).toBe('unknown');
    });

    test('turns the timer on or off with argv, the other being its undo', () => {
        const [on] = recordingPlan(true, 'systemctl').steps;
        expect(on).toMatchObject({ kind: 'run', argv: ['systemctl', 'enable', '--now', 'raidtune-history.timer'],
            undoArgv: ['systemctl', 'disable', '--now', 'raidtune-history.timer'] });
        const [off] = recordingPlan(false, '/x/systemctl').steps;
        expect(off).toMatchObject({ argv: ['/x/systemctl', 'disable', '--now', 'raidtune-history.timer'] });
    });
});
