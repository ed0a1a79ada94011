/**
 * @jest-environment jsdom
 */
// SPDX-License-Identifier: LGPL-2.1-or-later
// The memoised card parts render again only when one of their listed fields changed
// (src/ui/common/cardProps.ts SUMMARY_FIELDS, LAYOUT_FIELDS). So whatever they show must come from
// those fields alone: here every other field of real models (each simulated scenario, each
// real-kernel capture) takes another array's value, and what the part shows must not change. A
// field a part starts to show without being listed fails here, instead of showing a stale value.

import * as fs from 'node:fs';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { layoutAdvice } from '../../../src/md/advice/layout';
import { buildModel } from '../../../src/md/model';
import type { ArrayModel } from '../../../src/md/modelTypes';
import type { HostConfig } from '../../../src/host/config';
import { HostContext } from '../../../src/ui/common/HostContext';
import { createRefreshStore } from '../../../src/ui/common/refreshStore';
import { ArraySummary, ArrayTitle } from '../../../src/ui/arrays/ArrayCard';
import { LAYOUT_FIELDS, SUMMARY_FIELDS } from '../../../src/ui/common/cardProps';
import { builtinScenarioNames } from '../../../sim';
import { CAPTURES, loadCaptureFiles } from '../helpers/realKernelCapture';
import { gather, removeTempRoots, startHost } from '../sim/simHelpers';

afterAll(removeTempRoots);

/** Arrays in many states: every scenario but the 128-array one (after some progress), every capture. */
function modelArrays(): ArrayModel[] {
    const simulated = builtinScenarioNames().filter(name => name !== 'many-arrays').flatMap(name => {
        const host = startHost(name);
        host.tick(30);
        return buildModel(gather(host), 30000).arrays;
    });
    const captured = fs.readdirSync(CAPTURES).filter(name => fs.existsSync(`${CAPTURES}/${name}/mdstat`)).flatMap(name =>
        buildModel({ files: loadCaptureFiles(name), pageSize: 4096, missingRoots: [], complete: true }, 1000).arrays);
    return [...simulated, ...captured];
}

const arrays = modelArrays();
const FIELDS = Object.keys(arrays[0]) as (keyof ArrayModel)[];

/** Values none of those arrays has: a field with one value among them could not be checked. */
const MORE_VALUES: Partial<Record<keyof ArrayModel, unknown[]>> = {
    health: ['failed', 'read-only'],
    readOnly: ['read-only', 'auto-read-only'],
    metadata: ['0.90', 'external:imsm'],
    previousChunkKiB: [64, 1024],
    syncMaxSectors: [8192, 1048576],
    partitions: [[{ name: 'md0p1', startSectors: 2048 }], [{ name: 'md0p1', startSectors: 63 }, { name: 'md0p2', startSectors: null }]],
};

/** The values a field takes in those arrays and above. */
function valuesOf(field: keyof ArrayModel): unknown[] {
    const byText = new Map(arrays.map(a => [JSON.stringify(a[field]), a[field] as unknown]));
    for (const value of MORE_VALUES[field] ?? []) byText.set(JSON.stringify(value), value);
    return [...byText.values()];
}

/** `array` with `field` set to other values it takes (a few per field). */
function withOthersValue(array: ArrayModel, field: keyof ArrayModel): ArrayModel[] {
    const own = JSON.stringify(array[field]);
    return valuesOf(field).filter(value => JSON.stringify(value) !== own).slice(0, 5)
        .map(value => ({ ...array, [field]: value }));
}

/** Which unlisted fields change what `show` gives for some array; should be none. */
function unlistedFieldsShown(listed: readonly (keyof ArrayModel)[], show: (array: ArrayModel) => unknown): string[] {
    const shown = new Set<string>();
    for (const array of arrays) {
        const before = show(array);
        for (const field of FIELDS.filter(f => !listed.includes(f))) {
            const variants = withOthersValue(array, field);
            if (variants.some(variant => JSON.stringify(show(variant)) !== JSON.stringify(before))) shown.add(field);
        }
    }
    return [...shown];
}

test('every field takes at least two values, so that each one is checked', () => {
    expect(arrays.length).toBeGreaterThan(20);
    expect(FIELDS.filter(field => valuesOf(field).length < 2)).toEqual([]);
    expect(arrays.some(a => a.sync?.reshape)).toBe(true);
});

test('the card\'s title, alert and facts show only SUMMARY_FIELDS', () => {
    const [Title, Summary] = [ArrayTitle.type, ArraySummary.type];
    // The health alert in the summary reads the host's disks from the store (none here).
    const host = { config: {} as HostConfig, admin: null, store: createRefreshStore(), refreshNow: () => undefined };
    // A root per rendering: PatternFly's Alert sets state in its effects, and hundreds of synchronous
    // renders of one root in a row count as nested updates ("Maximum update depth exceeded").
    const markup = (array: ArrayModel) => {
        const container = document.createElement('div');
        const root = createRoot(container);
        flushSync(() => root.render(
            <HostContext.Provider value={host}>
                <Title array={array} /><Summary array={array} />
            </HostContext.Provider>,
        ));
        // Without the ids a new root numbers anew (PatternFly's generated ids and OUIA ids).
        const html = container.innerHTML.replace(/ (data-ouia-component-id|id|aria-labelledby|aria-describedby)="[^"]*"/g, '');
        root.unmount();
        return html;
    };
    expect(markup(arrays[0])).toContain(arrays[0].device);
    expect(unlistedFieldsShown(SUMMARY_FIELDS, markup)).toEqual([]);
});

test('the layout advice reads only LAYOUT_FIELDS and a reshape\'s disk counts', () => {
    const reshapeOf = (a: ArrayModel) => a.sync?.reshape ?? null;
    const advice = (array: ArrayModel) => [layoutAdvice(array), reshapeOf(array)];
    // `sync` matters to it only through the reshape, which the memo rule compares apart.
    expect(unlistedFieldsShown([...LAYOUT_FIELDS, 'sync'], advice)).toEqual([]);
    const reshaping = arrays.find(a => a.sync?.reshape)!;
    expect(JSON.stringify(layoutAdvice({ ...reshaping, sync: null })))
        .not.toBe(JSON.stringify(layoutAdvice(reshaping)));
});
