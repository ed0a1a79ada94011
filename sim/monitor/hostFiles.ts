// SPDX-License-Identifier: LGPL-2.1-or-later
// What a simulated host offers for mdadm --monitor besides the kernel: its mdadm.conf (Debian's
// layout, <root>/etc/mdadm/mdadm.conf) and the state of mdmonitor.service, which a small
// `systemctl` stand-in prints as `systemctl show` does. By default the host is set up as Debian's
// installer leaves it (mail to root, the monitor running), so a page on it has nothing to warn of;
// a test writes its own files for another case (alerts.test.ts: nobody told). Files already
// there are kept (a test may have written its own before).

import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const UNITS_DIR = 'run/systemd-sim';

export const DEFAULT_MDADM_CONF = [
    '# mdadm.conf of a simulated md host (see mdadm.conf(5))',
    '',
    '# Arrays are found by scanning every partition.',
    'DEVICE partitions',
    'HOMEHOST <system>',
    'MAILADDR root',
    '',
].join('\n');

/** A unit's state, as `systemctl show -p LoadState,ActiveState,UnitFileState` prints it. */
export interface SimulatedUnit {
    activeState: 'active' | 'inactive' | 'failed';
    unitFileState: 'enabled' | 'disabled' | 'static';
    /** A timer's next run, as systemctl prints NextElapseUSecRealtime. */
    nextElapse?: string;
}

function writeIfMissing(path: string, text: string): void {
    if (existsSync(path)) return;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
}

export function writeUnit(root: string, id: string, unit: SimulatedUnit): void {
    const path = join(root, UNITS_DIR, id);
    mkdirSync(dirname(path), { recursive: true });
    const next = unit.nextElapse ? `NextElapseUSecRealtime=${unit.nextElapse}\n` : '';
    writeFileSync(path, `LoadState=loaded\nActiveState=${unit.activeState}\nUnitFileState=${unit.unitFileState}\n${next}`);
}

/** Debian's monthly check: checkarray from cron (AUTOCHECK in /etc/default/mdadm switches it off). */
export const DEFAULT_CRON_MDADM = '# checkarray on a simulated md host\n30 1 * * 0 root /usr/share/mdadm/checkarray --cron --all --idle --quiet\n';

export function writeMonitorFiles(root: string): void {
    writeIfMissing(join(root, 'etc/mdadm/mdadm.conf'), DEFAULT_MDADM_CONF);
    writeIfMissing(join(root, 'etc/cron.d/mdadm'), DEFAULT_CRON_MDADM);
    writeIfMissing(join(root, 'etc/default/mdadm'), 'AUTOCHECK=true\n');
    if (!existsSync(join(root, UNITS_DIR, 'mdmonitor.service'))) {
        writeUnit(root, 'mdmonitor.service', { activeState: 'active', unitFileState: 'static' });
    }
}

function shellWord(text: string): string {
    return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The `systemctl` stand-in: `show` prints each unit named (options skipped) from <root>/run/systemd-sim,
 * or "not-found" as systemd does for a unit it has no file for; `restart` of a known unit succeeds
 * and changes nothing else; anything else exits 1.
 */
export function writeSystemctlStandIn(path: string, root: string): void {
    writeFileSync(path, [
        '#!/bin/sh',
        '# systemctl for a simulated md host (sim/monitor/hostFiles.ts)',
        `units=${shellWord(join(root, UNITS_DIR))}`,
        'command=$1; shift',
        'case "$command" in',
        'show)',
        '  for unit in "$@"; do',
        '    case "$unit" in -*) continue;; esac',
        '    echo "Id=$unit"',
        '    if [ -f "$units/$unit" ]; then cat "$units/$unit"; else printf \'LoadState=not-found\\nActiveState=inactive\\nUnitFileState=\\n\'; fi',
        '    echo',
        '  done;;',
        'restart) [ -f "$units/$1" ] || { echo "Failed to restart $1: Unit $1 not found." >&2; exit 5; };;',
        '*) echo "systemctl (simulated): $command is not simulated" >&2; exit 1;;',
        'esac',
        '',
    ].join('\n'));
    chmodSync(path, 0o755);
}
