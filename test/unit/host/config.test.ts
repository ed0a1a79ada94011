/**
 * @jest-environment jsdom
 */
// SPDX-License-Identifier: LGPL-2.1-or-later
// The manifest's config as the page reads it: the soak benchmark's refresh interval is taken only
// when it is a sane whole number of milliseconds, and the page's own pace stays otherwise.

import { readHostConfig, REFRESH_INTERVAL_MAX_MS, REFRESH_INTERVAL_MIN_MS } from '../../../src/host/config';
import type { CockpitApi } from '../../../src/host/cockpit';

function withConfig(config: Record<string, unknown> | undefined) {
    window.cockpit = {
        manifests: { raidtune: config === undefined ? {} : { config } },
        gettext: (text: string) => text,
    } as unknown as CockpitApi;
    return readHostConfig();
}

afterEach(() => {
    delete window.cockpit;
});

test('without the knob the page keeps its own pace', () => {
    expect(withConfig(undefined)).toEqual({
        config: expect.objectContaining({ refreshIntervalMs: null }), problems: [],
    });
    expect(withConfig({ procRoot: '/tmp/sim/proc' }).config.refreshIntervalMs).toBeNull();
});

test.each([REFRESH_INTERVAL_MIN_MS, 20, REFRESH_INTERVAL_MAX_MS])('refreshIntervalMs %p is taken', ms => {
    expect(withConfig({ refreshIntervalMs: ms })).toEqual({
        config: expect.objectContaining({ refreshIntervalMs: ms }), problems: [],
    });
});

test.each([0, REFRESH_INTERVAL_MIN_MS - 1, REFRESH_INTERVAL_MAX_MS + 1, 20.5, '20', null, -5, Number.NaN])(
    'refreshIntervalMs %p is ignored and said so', value => {
        const { config, problems } = withConfig({ refreshIntervalMs: value });
        expect(config.refreshIntervalMs).toBeNull();
        expect(problems).toEqual([
            `Ignoring the configured refreshIntervalMs ${JSON.stringify(value)}: not a whole number of milliseconds from 10 to 2000.`,
        ]);
    });
