// SPDX-License-Identifier: LGPL-2.1-or-later
// parseMdstatReusing (src/md/mdstatReuse.ts) against parseMdstat: the same result on every
// /proc/mdstat the project has (real-kernel captures, the peers' samples, the simulator's 128
// arrays), read cold or after another text; and an unchanged stanza keeps its array object.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseMdstat } from '../../../src/md/mdstat';
import { parseMdstatReusing } from '../../../src/md/mdstatReuse';
import { loadPeerSamples } from './mdstatPeers';
import { read, removeTempRoots, startHost } from '../sim/simHelpers';

const KERNEL_DIR = path.join(__dirname, '../../fixtures/real-kernel');
const kernelTexts = fs.readdirSync(KERNEL_DIR).filter(f => fs.existsSync(path.join(KERNEL_DIR, f, 'mdstat'))).sort()
    .map(folder => [`real-kernel/${folder}`, fs.readFileSync(path.join(KERNEL_DIR, folder, 'mdstat'), 'utf8')] as const);
const peerTexts = loadPeerSamples().map(sample => [`peers/${sample.id}`, sample.text] as const);
const allTexts = [...kernelTexts, ...peerTexts];

afterEach(removeTempRoots);

describe('parseMdstatReusing reads what parseMdstat reads', () => {
    test.each(allTexts)('%s, read cold', (_name, text) => {
        expect(parseMdstatReusing(text).mdstat).toEqual(parseMdstat(text));
    });

    test.each(allTexts)('%s, read after itself and after each real-kernel capture', (_name, text) => {
        for (const other of [text, ...kernelTexts.map(([, kernel]) => kernel)]) {
            const { reused } = parseMdstatReusing(other);
            expect(parseMdstatReusing(text, reused).mdstat).toEqual(parseMdstat(text));
        }
    });

    test('the real-kernel captures take the reused way, the pasted ones with problems do not', () => {
        const reusedStanzas = kernelTexts.map(([, text]) => parseMdstatReusing(text).reused.stanzas.size);
        expect(reusedStanzas.filter(n => n > 0).length).toBeGreaterThan(kernelTexts.length / 2);
        for (const [, text] of peerTexts) {
            if (parseMdstat(text).problems.length) expect(parseMdstatReusing(text).reused.stanzas.size).toBe(0);
        }
    });
});

describe('on the simulated 128 arrays, refresh after refresh', () => {
    test('only the syncing arrays\' stanzas make new objects, with the same members; the rest are the last ones', () => {
        const host = startHost('many-arrays');
        const first = parseMdstatReusing(read(host, 'proc/mdstat'));
        expect(first.mdstat.arrays).toHaveLength(128);
        host.tick(2);
        const text = read(host, 'proc/mdstat');
        const second = parseMdstatReusing(text, first.reused);
        expect(second.mdstat).toEqual(parseMdstat(text));
        const before = new Map(first.mdstat.arrays.map(a => [a.name, a]));
        const renewed = second.mdstat.arrays.filter(a => a !== before.get(a.name));
        expect(renewed.length).toBeGreaterThan(0);
        expect(renewed.every(a => a.sync?.state === 'running')).toBe(true);
        // Their header lines did not change: neither did their members.
        expect(renewed.every(a => a.members === before.get(a.name)!.members)).toBe(true);
        expect(second.mdstat.arrays.filter(a => a.sync === null).every(a => a === before.get(a.name))).toBe(true);
    });
});
