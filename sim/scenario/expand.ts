// SPDX-License-Identifier: LGPL-2.1-or-later
// Expands `generate` families into plain disks and arrays, so a scenario like 128 arrays of 16
// members stays a few lines of JSON. Disks are named after the ones already defined (sdX in
// sd order, vdX, nvmeNn1), arrays continue the md numbering.

import { indexLetters, letterIndex } from '../model/devices';
import { DEFAULT_DISK_KIND, type ArrayFamilySpec, type ArraySpec, type DiskKind, type DiskSpec, type MemberRole, type MemberSpec, type ScenarioSpec } from './types';

class DiskNamer {
    private nextSd = 0;
    private nextVd = 0;
    private nextNvme = 0;

    constructor(existing: DiskSpec[]) {
        for (const { name } of existing) {
            const sd = /^sd([a-z]+)$/.exec(name);
            const vd = /^vd([a-z]+)$/.exec(name);
            const nvme = /^nvme(\d+)n\d+$/.exec(name);
            if (sd) this.nextSd = Math.max(this.nextSd, letterIndex(sd[1]) + 1);
            if (vd) this.nextVd = Math.max(this.nextVd, letterIndex(vd[1]) + 1);
            if (nvme) this.nextNvme = Math.max(this.nextNvme, Number(nvme[1]) + 1);
        }
    }

    next(kind: DiskKind): string {
        if (kind === 'nvme') return `nvme${this.nextNvme++}n1`;
        if (kind === 'virtio') return `vd${indexLetters(this.nextVd++)}`;
        return `sd${indexLetters(this.nextSd++)}`;
    }
}

/** The role of member `index` of `count`: the last ones are faulty, then recovering, then spares. */
function familyRole(family: ArrayFamilySpec, index: number): MemberRole {
    const fromEnd = family.members - 1 - index;
    const faulty = family.faulty ?? 0;
    const recovering = family.recovering ?? 0;
    const spares = family.spares ?? 0;
    if (fromEnd < faulty) return 'faulty';
    if (fromEnd < faulty + recovering) return 'recovering';
    if (fromEnd < faulty + recovering + spares) return 'spare';
    return 'in_sync';
}

export function expandFamilies(spec: ScenarioSpec): ScenarioSpec {
    if (!spec.generate?.length) return spec;
    const disks = [...(spec.disks ?? [])];
    const arrays = [...(spec.arrays ?? [])];
    const namer = new DiskNamer(disks);
    let nextMd = Math.max(-1, ...arrays.map(a => Number(a.name.slice(2)))) + 1;

    for (const family of spec.generate) {
        if (family.firstNumber !== undefined) nextMd = family.firstNumber;
        // A faulty member leaves its slot empty: the array is degraded unless a spare fills it.
        const raidDisks = family.array.raidDisks ?? family.members - (family.spares ?? 0);
        for (let n = 0; n < family.count; n++) {
            const members: MemberSpec[] = [];
            for (let m = 0; m < family.members; m++) {
                const name = namer.next(family.disk.kind ?? DEFAULT_DISK_KIND);
                disks.push({ ...family.disk, name });
                members.push({ device: name, role: familyRole(family, m) });
            }
            const array: ArraySpec = { ...family.array, raidDisks, name: `md${nextMd++}`, members };
            arrays.push(array);
        }
    }
    return { ...spec, disks, arrays, generate: undefined };
}
