// SPDX-License-Identifier: LGPL-2.1-or-later
// `systemd-analyze verify` on installed unit files: what it says (it exits 0 on values it ignores,
// so its words are the verdict) and its exit status; null where systemd-analyze is missing.

import { spawnSync } from 'node:child_process';

export function verifyUnits(paths: string[]): { said: string; status: number | null } | null {
    if (spawnSync('systemd-analyze', ['--version']).status !== 0) {
        console.warn('SKIPPED: systemd-analyze is missing');
        return null;
    }
    // --man=no: the units' Documentation= names md(4), which only a host with mdadm's manual pages
    // has; the test machine need not (tools/install-deps.sh installs no mdadm).
    const result = spawnSync('systemd-analyze', ['verify', '--man=no', ...paths], { encoding: 'utf8' });
    return { said: `${result.stdout}${result.stderr}`.trim(), status: result.status };
}
