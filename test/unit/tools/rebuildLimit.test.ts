// SPDX-License-Identifier: LGPL-2.1-or-later
// The rebuild benchmark's limit (tools/vm/rebuildLimit.ts) against a count over md's layouts: every
// data chunk of n stripes (one full parity rotation) read once, with one member missing.
import { degradedLoadShare, rebuildLimitMBs, requestCostFactor, survivorLoadShare } from '../../../tools/vm/rebuildLimit';

type Level = 'raid5' | 'raid6';

/** Member holding data chunk k of stripe s: md's default left-symmetric layout (P, then Q for RAID6). */
function dataMember(level: Level, members: number, stripe: number, k: number): number {
    const parity = members - 1 - (stripe % members);
    return (parity + (level === 'raid6' ? 2 : 1) + k) % members;
}

/**
 * Reads each member serves per data chunk the load reads, when `missing` is absent (null: all
 * present). A missing member's chunk is recomputed from the same range of every other member.
 */
function readsPerChunk(level: Level, members: number, missing: number | null): number[] {
    const reads = new Array<number>(members).fill(0);
    const dataPerStripe = members - (level === 'raid6' ? 2 : 1);
    for (let stripe = 0; stripe < members; stripe++) {
        for (let k = 0; k < dataPerStripe; k++) {
            const member = dataMember(level, members, stripe, k);
            if (member !== missing) reads[member]++;
            else reads.forEach((_, m) => { if (m !== missing) reads[m]++; });
        }
    }
    return reads.map(r => r / (members * dataPerStripe));
}

describe('rebuild benchmark limit', () => {
    const cases = (['raid5', 'raid6'] as const).flatMap(level => [4, 5, 6, 8].map(members => [level, members] as const));

    test.each(cases)('%s of %i: each survivor of a degraded array serves degradedLoadShare of the load', (level, members) => {
        for (let missing = 0; missing < members; missing++) {
            const shares = readsPerChunk(level, members, missing).filter((_, m) => m !== missing);
            for (const share of shares) expect(share).toBeCloseTo(degradedLoadShare(members), 10);
        }
    });

    test.each(cases)('%s of %i: behind the rebuild position each member serves 1/n; survivorLoadShare is the mean of both', (level, members) => {
        for (const share of readsPerChunk(level, members, null)) expect(share).toBeCloseTo(1 / members, 10);
        expect(survivorLoadShare(members)).toBeCloseTo((degradedLoadShare(members) + 1 / members) / 2, 10);
    });

    test('the limit is the read bandwidth left by the load, or the write bandwidth when that is lower', () => {
        expect(rebuildLimitMBs({ members: 4, readMBs: 8, writeMBs: 8, loadMBs: 2 })).toBeCloseTo(8 - 2 * 1.5 / 4, 10);
        expect(rebuildLimitMBs({ members: 5, readMBs: 8, writeMBs: 8, loadMBs: 2 })).toBeCloseTo(8 - 2 * 1.5 / 5, 10);
        expect(rebuildLimitMBs({ members: 4, readMBs: 100, writeMBs: 8, loadMBs: 2 })).toBe(8);
    });

    test.each([4, 6, 8])('raid10 near-2 of %i: the missing half\'s partner serves degradedLoadShare, behind the position 1/n', members => {
        // Chunk c of a near-2 layout is on members 2c mod n and 2c+1 mod n; a read picks either
        // half evenly when both are in sync, the partner alone when one is missing.
        const chunks = members;
        for (let missing = 0; missing < members; missing++) {
            const reads = new Array<number>(members).fill(0);
            const all = new Array<number>(members).fill(0);
            for (let c = 0; c < chunks; c++) {
                const pair = [(2 * c) % members, (2 * c + 1) % members];
                for (const m of pair) all[m] += 0.5;
                const present = pair.filter(m => m !== missing);
                for (const m of present) reads[m] += 1 / present.length;
            }
            const partner = missing % 2 ? missing - 1 : missing + 1;
            expect(reads[partner] / chunks).toBeCloseTo(degradedLoadShare(members), 10);
            for (const a of all) expect(a / chunks).toBeCloseTo(1 / members, 10);
        }
    });

    test('a seek-bound disk charges a small load request the floor, a large one its size', () => {
        expect(requestCostFactor(4096, 65536)).toBe(16);
        expect(requestCostFactor(512 * 1024, 65536)).toBe(1);
        expect(requestCostFactor(65536, null)).toBe(1);
        const disks = { members: 4, readMBs: 8, writeMBs: 8 };
        expect(rebuildLimitMBs({ ...disks, loadMBs: 0.5, loadBlockBytes: 16384, requestFloorBytes: 65536 }))
            .toBeCloseTo(8 - 0.5 * 1.5 / 4 * 4, 10);
        expect(rebuildLimitMBs({ members: 4, readMBs: 1, writeMBs: 8, loadMBs: 100 })).toBe(0);
    });
});
