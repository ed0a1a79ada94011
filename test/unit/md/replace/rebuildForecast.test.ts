// SPDX-License-Identifier: LGPL-2.1-or-later
// The Replace disk dialog's forecast of the rebuild (issue #34), before it starts: between the
// limits as they are, with the limits the diagnosis proposes for a rebuild held back, and at the
// pace the array's last rebuild or resync kept.

import { buildModel } from '../../../../src/md/model';
import type { ArrayModel, HostModel } from '../../../../src/md/modelTypes';
import type { OperationType, SyncOperation } from '../../../../src/md/history';
import { lastRebuild, proposedLimits, rebuildForecast } from '../../../../src/md/replace/rebuildForecast';
import { PRESETS } from '../../../../src/md/tuning/presets';
import { loadCaptureFiles } from '../../helpers/realKernelCapture';

const captured: HostModel = buildModel({ files: loadCaptureFiles('raid5-degraded'), pageSize: 4096, missingRoots: [], complete: true }, 0);
const md0 = captured.arrays[0];
const fast = PRESETS['fast-rebuild'];
/** A 2 TB member's component size, KiB. */
const COMPONENT = 1953382400;

function operation(type: OperationType, avgKiBs: number | null, finished = true): SyncOperation {
    return {
        array: md0.name, uuid: md0.uuid ?? md0.name, type, start: 1000, end: 2000, seconds: 1000, startKiB: 0,
        doneKiB: COMPONENT, sizeKiB: COMPONENT, avgKiBs, speedMinKiBs: 1000, speedMaxKiBs: 200000,
        limitsChanged: false, mismatches: 0, finished, intervalSeconds: 60,
    };
}

type Limit = { kiBs: number; source: 'system' | 'local' } | null;
const system = (kiBs: number | null): Limit => (kiBs === null ? null : { kiBs, source: 'system' });

/** md0 following these system limits (as its sync_speed_min/max then read), with its history, newest first. */
function situation(minKiBs: number | null, maxKiBs: number | null, operations: SyncOperation[] = [],
    own: { speedMin: Limit; speedMax: Limit } = { speedMin: system(minKiBs), speedMax: system(maxKiBs) }) {
    const byKey = new Map(operations.length ? [[md0.uuid ?? md0.name, { operations, skipped: 0 }]] : []);
    const array: ArrayModel = { ...md0, ...own };
    const host: HostModel = {
        ...captured, arrays: [array],
        global: { ...captured.global, speedMinKiBs: minKiBs, speedMaxKiBs: maxKiBs },
        history: { byKey, lastRun: null },
    };
    return { array, host };
}

function forecast(minKiBs: number | null, maxKiBs: number | null, operations: SyncOperation[] = []) {
    const { array, host } = situation(minKiBs, maxKiBs, operations);
    return rebuildForecast(array, host, COMPONENT);
}

test('at the kernel\'s defaults: the bounds as they are, and Fast rebuild\'s minimum and maximum both gain', () => {
    const predicted = forecast(1000, 200000)!;
    expect(predicted.now).toMatchObject({ minKiBs: 1000, maxKiBs: 200000 });
    expect(predicted.now.shortestSeconds).toBeCloseTo(COMPONENT / 200000);
    expect(predicted.now.longestSeconds).toBeCloseTo(COMPONENT / 1000);
    expect(predicted.withFix?.raises).toBe('both');
    expect(predicted.withFix?.bounds).toMatchObject({ minKiBs: fast.speedMinKiBs, maxKiBs: fast.speedMaxKiBs });
    expect(predicted.withFix?.bounds.shortestSeconds).toBeCloseTo(COMPONENT / fast.speedMaxKiBs);
    expect(predicted.withFix?.bounds.longestSeconds).toBeCloseTo(COMPONENT / fast.speedMinKiBs);
    expect(predicted.measured).toBeNull();
});

test('only the limit below Fast rebuild\'s is raised; at or above both, nothing to gain', () => {
    expect(forecast(1000, fast.speedMaxKiBs)?.withFix).toMatchObject({
        raises: 'min', bounds: { minKiBs: fast.speedMinKiBs, maxKiBs: fast.speedMaxKiBs },
    });
    expect(forecast(fast.speedMinKiBs, 200000)?.withFix).toMatchObject({
        raises: 'max', bounds: { minKiBs: fast.speedMinKiBs, maxKiBs: fast.speedMaxKiBs },
    });
    expect(forecast(fast.speedMinKiBs * 2, fast.speedMaxKiBs * 2)?.withFix).toBeNull();
});

test('the array\'s own limits count, not the system\'s', () => {
    const local = (kiBs: number): Limit => ({ kiBs, source: 'local' });
    const { array, host } = situation(1000, 200000, [],
        { speedMin: local(fast.speedMinKiBs), speedMax: local(fast.speedMaxKiBs) });
    const predicted = rebuildForecast(array, host, COMPONENT)!;
    expect(predicted.now).toMatchObject({ minKiBs: fast.speedMinKiBs, maxKiBs: fast.speedMaxKiBs });
    expect(predicted.withFix).toBeNull();
});

test('the proposed limits are the diagnosis\'s and Fast rebuild\'s, and never lower a limit', () => {
    expect(proposedLimits(1000, 200000)).toEqual({ minKiBs: fast.speedMinKiBs, maxKiBs: fast.speedMaxKiBs });
    expect(proposedLimits(1000, 10000)).toEqual({ minKiBs: fast.speedMinKiBs, maxKiBs: fast.speedMaxKiBs });
    expect(proposedLimits(fast.speedMinKiBs + 1, fast.speedMaxKiBs + 1))
        .toEqual({ minKiBs: fast.speedMinKiBs + 1, maxKiBs: fast.speedMaxKiBs + 1 });
});

test('an unknown or zero limit: no forecast, as no bound can be given', () => {
    expect(forecast(null, 200000)).toBeNull();
    expect(forecast(1000, null)).toBeNull();
    expect(forecast(0, 200000)).toBeNull();
});

test('the last finished rebuild or resync with an average: its pace for the new member', () => {
    const history = [
        operation('check', 150000),
        operation('recover', 90000, false),
        operation('recover', null),
        operation('resync', 120000),
        operation('recover', 60000),
    ];
    const predicted = forecast(1000, 200000, history)!;
    expect(predicted.measured?.operation).toBe(history[3]);
    expect(predicted.measured?.kiBs).toBe(120000);
    expect(predicted.measured?.seconds).toBeCloseTo(COMPONENT / 120000);
    const checked = situation(1000, 200000, [operation('check', 150000)]);
    expect(lastRebuild(checked.array, checked.host)).toBeNull();
});

test('a pace above today\'s maximum is not given: md would not reach it', () => {
    const { array, host } = situation(1000, 100000, [operation('recover', 150000)]);
    expect(lastRebuild(array, host)?.avgKiBs).toBe(150000);
    expect(rebuildForecast(array, host, COMPONENT)?.measured).toBeNull();
});
