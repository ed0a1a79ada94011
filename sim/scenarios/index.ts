// SPDX-License-Identifier: LGPL-2.1-or-later
// The built-in scenarios, bundled into the simulator so `--scenario NAME` works from anywhere.
// To add one: drop NAME.json next to this file and list it here (sim/README.md has the format).

import checkMismatches from './check-mismatches.json';
import degradedFailed from './degraded-failed.json';
import empty from './empty.json';
import frozen from './frozen.json';
import llbitmapRebuild from './llbitmap-rebuild.json';
import manyArrays from './many-arrays.json';
import newerKernel from './newer-kernel.json';
import newerKernelRebuild from './newer-kernel-rebuild.json';
import oldKernel from './old-kernel.json';
import raid1Healthy from './raid1-healthy.json';
import raid5Reshape from './raid5-reshape.json';
import raid6Recovery from './raid6-recovery.json';
import repairMismatches from './repair-mismatches.json';
import replaceDisk from './replace-disk.json';
import rhelLayout from './rhel-layout.json';
import seekingRebuild from './seeking-rebuild.json';
import sharedDisks from './shared-disks.json';
import slowRebuilds from './slow-rebuilds.json';

/** Raw JSON: validated when loaded, like a scenario file. */
export const BUILTIN_SCENARIOS: Record<string, unknown> = {
    'raid1-healthy': raid1Healthy,
    'raid6-recovery': raid6Recovery,
    'raid5-reshape': raid5Reshape,
    'shared-disks': sharedDisks,
    'check-mismatches': checkMismatches,
    'repair-mismatches': repairMismatches,
    'degraded-failed': degradedFailed,
    frozen,
    empty,
    'many-arrays': manyArrays,
    'slow-rebuilds': slowRebuilds,
    'newer-kernel': newerKernel,
    'newer-kernel-rebuild': newerKernelRebuild,
    'llbitmap-rebuild': llbitmapRebuild,
    'old-kernel': oldKernel,
    'replace-disk': replaceDisk,
    'seeking-rebuild': seekingRebuild,
    'rhel-layout': rhelLayout,
};
