// SPDX-License-Identifier: LGPL-2.1-or-later
// An executable `mdadm` for one simulated host: raidtune's `mdadm` config names a single program,
// and the bridge runs it with its own environment, so the host's root is baked into a small
// shell script that runs the simulated mdadm with MDSIM_ROOT set.

import { chmodSync, writeFileSync } from 'node:fs';

/** Single-quoted for sh. */
function shellWord(text: string): string {
    return `'${text.replace(/'/g, `'\\''`)}'`;
}

export interface MdadmWrapperOptions {
    /** Where to write the script (mode 0755). */
    path: string;
    /** The simulated host's root (mdsim --root). */
    root: string;
    /** build/mdadm-sim.mjs (or build/tee-sim.mjs, build/blockdev-sim.mjs: the same wrapper serves the other tools) */
    program: string;
    /** What it stands in for, in the script's comment (default mdadm). */
    standsFor?: string;
    /** Arguments before the caller's: build/blockdev-sim.mjs is told which tool it is ("lsblk"). */
    leadingArgs?: string[];
    /** Node.js to run it with (default: the one running this code, by absolute path). */
    node?: string;
}

export function writeMdadmWrapper({ path, root, program, standsFor = 'mdadm', leadingArgs = [], node = process.execPath }: MdadmWrapperOptions): void {
    writeFileSync(path, [
        '#!/bin/sh',
        `# ${standsFor} for a simulated md host (sim/mdadm/README.md)`,
        `MDSIM_ROOT=${shellWord(root)}`,
        'export MDSIM_ROOT',
        `exec ${[node, program, ...leadingArgs].map(shellWord).join(' ')} "$@"`,
        '',
    ].join('\n'));
    chmodSync(path, 0o755); // also when the file was there already
}
