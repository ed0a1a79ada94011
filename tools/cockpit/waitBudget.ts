// SPDX-License-Identifier: LGPL-2.1-or-later
// How long the browser harness waits for the page, the shell and the simulated host. A wait is a
// bound on an event that must come, never a speed the page is held to (speed is the benchmarks'
// business). `make check` runs the browser tiers beside emulated kernels on two cores, where the
// same page does its work several times slower than alone (gate30, 2026-12-02: a11y.test.ts 618 s
// in the lanes against 118 s alone, on a machine twice as slow as three days before), so it sets
// RAIDTUNE_TIMEOUT_FACTOR and every wait of the harness and the tests grows by that factor.

function timeoutFactor(): number {
    const text = process.env.RAIDTUNE_TIMEOUT_FACTOR;
    if (text === undefined || text === '') return 1;
    const factor = Number(text);
    if (!Number.isFinite(factor) || factor < 1)
        throw new Error(`RAIDTUNE_TIMEOUT_FACTOR must be a number of at least 1, not ${JSON.stringify(text)}`);
    return factor;
}

export const TIMEOUT_FACTOR = timeoutFactor();

/** `ms`, the wait on a machine with nothing else to do, grown for the one the tests run on. */
export function waitBudget(ms: number): number {
    return Math.round(ms * TIMEOUT_FACTOR);
}
