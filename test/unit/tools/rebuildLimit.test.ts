// SPDX-License-Identifier: LGPL-2.1-or-later
// The rebuild benchmark's limit (tools/vm/rebuildLimit.ts) against a count over md's layouts: every
// data chunk of n stripes (one full parity rotation) read once, with one member missing.
import { degradedLoadShare, rebuildLimitMBs, survivorLoadShare } from '../../../tools/vm/rebuildLimit';

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
});
