// SPDX-License-Identifier: LGPL-2.1-or-later
// The rebuild benchmark's disk models and scale (tools/vm/diskModels.ts, tools/vm/benchPredict.ts).
import type { ArrayModel, HostModel } from '../../../src/md/modelTypes';
import { descaled, settingChanges } from '../../../tools/vm/benchPredict';
import { DISK_MODELS, modelMBs, modelThrottle, scaledDefaults, scaledKiBs } from '../../../tools/vm/diskModels';
import { throttleDriveOptions } from '../../../tools/vm/vm';

describe('rebuild benchmark disk models', () => {
    test('the HDD model charges every request at least 64 KiB of its bandwidth: iops x iops-size = bps', () => {
        const t = modelThrottle(DISK_MODELS.hdd);
        expect(t['bps-read']).toBe(8e6);
        expect(t['iops-size']).toBe(65536);
        expect(t['iops-total']! * t['iops-size']!).toBeCloseTo(t['bps-read']!, 6);
        expect(throttleDriveOptions(t)).toBe(',throttling.bps-read=8000000,throttling.bps-write=8000000,throttling.iops-total=122,throttling.iops-size=65536');
    });

    test('the NVMe model is a bandwidth above the scaled default maximum', () => {
        const nvme = DISK_MODELS.nvme;
        expect(modelThrottle(nvme)).toEqual({ 'bps-read': 25e6, 'bps-write': 25e6 });
        expect(modelMBs(nvme) * 1e6).toBeGreaterThan(scaledDefaults(nvme).maxKiBs * 1024 * 2);
    });

    test('speeds scale, at least 1 KiB/s', () => {
        expect(scaledDefaults(DISK_MODELS.hdd)).toEqual({ minKiBs: 50, maxKiBs: 10000 });
        expect(scaledKiBs(DISK_MODELS.nvme, 10)).toBe(1);
    });

    test('an unknown or non-positive throttle option is refused', () => {
        expect(() => throttleDriveOptions({ 'bps-read': 0 })).toThrow(/positive/);
        expect(() => throttleDriveOptions({ bogus: 1 } as never)).toThrow(/unknown/);
    });
});

describe('rebuild benchmark predictions', () => {
    test('descaled() divides sizes and speeds by the scale, keeps times and counts', () => {
        const sample = {
            at: 2000, doneKiB: 100, stripeCacheActive: 10, stripeCacheSize: 256, minKiBs: 50, maxKiBs: 10000,
            members: [{ member: 'vda', disk: 'vda', role: 'active' as const, sectors: 400, ioMs: 30 }],
        };
        const array = { name: 'md0', speedMin: null, speedMax: { kiBs: 20, local: true }, stripeCache: { size: 256, active: 10 },
            sync: { doneKiB: 100, totalKiB: 1000, ioSamples: [sample] } } as unknown as ArrayModel;
        const global = { speedMinKiBs: 50, speedMaxKiBs: 10000, syncIoDepth: 32 };
        const host = { global, arrays: [array] } as unknown as HostModel;
        const real = descaled(host, array, 0.05);
        expect(real.host.global).toEqual({ speedMinKiBs: 1000, speedMaxKiBs: 200000, syncIoDepth: 32 });
        expect(real.array.speedMax!.kiBs).toBe(400);
        expect(real.array.sync!.totalKiB).toBe(20000);
        const s = real.array.sync!.ioSamples[0];
        expect([s.at, s.doneKiB, s.minKiBs, s.maxKiBs, s.stripeCacheSize, s.members[0].sectors, s.members[0].ioMs])
            .toEqual([2000, 2000, 1000, 200000, 256, 8000, 30]);
        expect(real.host.arrays[0]).toBe(real.array);
    });

    test('a preset is predicted from the changes it makes against the kernel defaults', () => {
        expect(settingChanges({ kind: 'preset', name: 'low-impact' }, true)).toEqual([]);
        expect(settingChanges({ kind: 'preset', name: 'fast-rebuild' }, false)).toEqual([{ kind: 'min', kiBs: 51200 }, { kind: 'max', kiBs: 2048000 }]);
        expect(settingChanges({ kind: 'preset', name: 'balanced' }, true)).toEqual([{ kind: 'min', kiBs: 10240 }, { kind: 'stripe-cache', entries: 4096 }]);
    });
});
