// SPDX-License-Identifier: LGPL-2.1-or-later
// Deterministic randomness: the same seed gives the same run, so tests and demos repeat exactly.

export type Rng = () => number;

/** mulberry32: a tiny, good-enough 32-bit generator returning numbers in [0, 1). */
export function createRng(seed: number): Rng {
    let state = seed >>> 0;
    return () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

/** FNV-1a: turns a name into a seed. */
export function hashText(text: string): number {
    let hash = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
    return hash;
}

/** A stable uuid for a name, formatted like sysfs md/uuid. */
export function uuidFromText(text: string): string {
    const rng = createRng(hashText(text));
    const hex = Array.from({ length: 32 }, () => Math.floor(rng() * 16).toString(16)).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
