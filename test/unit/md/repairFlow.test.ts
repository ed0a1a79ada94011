// SPDX-License-Identifier: LGPL-2.1-or-later
// The guided "repair, then check again": its step from the host's record and the kernel, its
// plans, the record validated when read, and what it says by level.

import type { ArrayModel, HostModel, SyncAction, SyncModel } from '../../../src/md/modelTypes';
import { mismatchMeaning } from '../../../src/md/mismatches';
import { describePlan } from '../../../src/md/plan';
import { checkAgainPlan, forgetRepairFlowPlan, repairFlowState, repairPlan } from '../../../src/md/repairFlow';
import {
    parseRepairFlow, parseRepairFlows, serializeRepairFlow, type RepairFlowRecord,
} from '../../../src/md/repairFlowRecord';
import { comparisonText, outcomeText, repairDoes, repairDuration } from '../../../src/md/repairTexts';

const UUID = '3c0a3f4b:1e2d3c4b:5a6b7c8d:9e0f1a2b';

/** The fields of an array the flow reads; `running` is the sync in progress, if any. */
function array(level: string, mismatches: number | null, last: string | null,
    running: SyncAction | null = null): ArrayModel {
    return {
        name: 'md0', level, uuid: UUID, sizeKiB: 2 * 1048576, raidDisks: 3, speedMin: null, speedMax: null,
        sync: running ? { action: running } as SyncModel : null,
        mismatchCount: mismatches, mismatchMeaning: mismatchMeaning(running, last), lastSyncAction: last,
    } as ArrayModel;
}

const host = { global: { speedMinKiBs: 1000, speedMaxKiBs: 200000, syncIoDepth: null } } as HostModel;

const record = (over: Partial<RepairFlowRecord> = {}): RepairFlowRecord => ({
    version: 1, array: 'md0', uuid: UUID, before: 2048, repairStartedAt: '2026-11-26T10:00:00.000Z', checkStartedAt: null, ...over,
});

describe('the step', () => {
    test('offered only after a finished check that found mismatches', () => {
        expect(repairFlowState(array('raid5', 2048, 'check'), null)).toEqual({ step: 'offer', before: 2048 });
        expect(repairFlowState(array('raid5', 0, 'check'), null)).toBeNull();
        expect(repairFlowState(array('raid5', 2048, 'check', 'check'), null)).toBeNull();
        expect(repairFlowState(array('raid5', 2048, 'repair'), null)).toBeNull();
        expect(repairFlowState(array('raid5', 2048, 'recovery'), null)).toBeNull();
    });

    test('step 1: asked for, running, ended', () => {
        const flow = record();
        // The record is written before the repair: until the kernel shows it, it is asked for.
        expect(repairFlowState(array('raid5', 2048, 'check'), flow)?.step).toBe('repair-pending');
        expect(repairFlowState(array('raid5', 512, 'repair', 'repair'), flow)?.step).toBe('repairing');
        expect(repairFlowState(array('raid5', 2040, 'repair'), flow)).toEqual({ step: 'repaired', record: flow, rewritten: 2040 });
    });

    test('step 2: asked for, running, then the two counts', () => {
        const flow = record({ checkStartedAt: '2026-11-26T10:05:00.000Z' });
        expect(repairFlowState(array('raid5', 2040, 'repair'), flow)?.step).toBe('check-pending');
        expect(repairFlowState(array('raid5', 0, 'check', 'check'), flow)?.step).toBe('checking');
        expect(repairFlowState(array('raid5', 0, 'check'), flow)).toEqual({ step: 'compared', record: flow, after: 0 });
        expect(repairFlowState(array('raid5', 16, 'check'), flow)).toEqual({ step: 'compared', record: flow, after: 16 });
    });

    test('a record of an array re-created under the same name is not its own', () => {
        expect(repairFlowState(array('raid5', 0, 'check'), record({ uuid: 'aaaaaaaa:bbbbbbbb:cccccccc:dddddddd' }))?.step).toBe('stale');
    });
});

describe('the plans', () => {
    const stateDir = '/var/lib/raidtune';

    test('step 1 writes the record, then repair', () => {
        const plan = repairPlan(array('raid5', 2048, 'check'), 2048, stateDir, '2026-11-26T10:00:00.000Z');
        expect(describePlan(plan)).toBe([
            "cat > /var/lib/raidtune/repair/md0.json <<'EOF'",
            serializeRepairFlow(record()).trim(),
            'EOF',
            'echo repair > /sys/block/md0/md/sync_action',
        ].join('\n'));
    });

    test('step 2 keeps the count before and adds when the check began; ending removes the record', () => {
        const plan = checkAgainPlan(record(), stateDir, '2026-11-26T10:05:00.000Z');
        const written = plan.steps[0].kind === 'write-file' ? plan.steps[0].content : null;
        expect(parseRepairFlow(written, 'md0')).toEqual(record({ checkStartedAt: '2026-11-26T10:05:00.000Z' }));
        expect(describePlan(plan).split('\n').at(-1)).toBe('echo check > /sys/block/md0/md/sync_action');
        expect(describePlan(forgetRepairFlowPlan(record(), stateDir))).toBe('rm -f /var/lib/raidtune/repair/md0.json');
    });
});

describe('the record, validated when read', () => {
    test('as written, for the array its file names', () => {
        const text = serializeRepairFlow(record());
        expect(parseRepairFlow(text, 'md0')).toEqual(record());
        expect(parseRepairFlow(text, 'md1')).toBeNull();
        expect(parseRepairFlows(new Map([['/raidtune-state/repair/md0.json', text], ['/raidtune-state/restore.json', '{}']])))
            .toEqual(new Map([['md0', record()]]));
    });

    test.each([
        ['not JSON', '{"version":1,'],
        ['another version', JSON.stringify({ ...record(), version: 2 })],
        ['a negative count', JSON.stringify({ ...record(), before: -1 })],
        ['a count that is not a whole number', JSON.stringify({ ...record(), before: '2048' })],
        ['a date that does not parse', JSON.stringify({ ...record(), repairStartedAt: 'yesterday' })],
        ['a uuid with a newline', JSON.stringify({ ...record(), uuid: 'ab\ncd' })],
        ['no check field', JSON.stringify({ ...record(), checkStartedAt: undefined })],
    ])('refused: %s', (_what, text) => {
        expect(parseRepairFlow(text, 'md0')).toBeNull();
    });
});

describe('what it says by level', () => {
    test('what a repair does', () => {
        expect(repairDoes('raid1').message).toMatch(/copies the first copy it could read over the others\. Which copy wins is not chosen by its content/);
        expect(repairDoes('raid10').args).toEqual(['RAID10']);
        expect(repairDoes('raid6').message).toMatch(/rewrites the parity from the data/);
        expect(repairDoes('raid6').args).toEqual(['RAID6']);
    });

    test('how long it takes at the current limits: one member\'s data, raid10 the whole array', () => {
        // 2 GiB over 3 disks in RAID5: 1 GiB on each.
        expect(repairDuration(array('raid5', 0, 'check'), host)).toEqual({
            perDiskKiB: 1048576, maxKiBs: 200000, fastestSeconds: 1048576 / 200000,
            minKiBs: 1000, slowestSeconds: 1048576 / 1000,
        });
        expect(repairDuration(array('raid10', 0, 'check'), host)?.perDiskKiB).toBe(2 * 1048576);
    });

    test('the comparison, and what a count after the repair means', () => {
        expect(comparisonText(2048, 0)).toEqual({
            message: 'Before the repair: $0 mismatched sectors; after the repair\'s check: $1.', args: [2048, 0],
        });
        expect(outcomeText('raid1', 0).message).toMatch(/^Repaired: /);
        expect(outcomeText('raid1', 128).message).toMatch(/never written since the array was made, such as swap/);
        expect(outcomeText('raid5', 8).message).toMatch(/a sign of a disk or controller problem/);
        expect(outcomeText('raid5', 8).args).toEqual(['RAID5']);
    });
});
