// SPDX-License-Identifier: LGPL-2.1-or-later
// Where raidtune reads the kernel from. The manifest's `config` holds the defaults; Cockpit's
// standard <pkg>.override.json can point them at a simulated host. Nothing else knows about it.

import { cockpitApi } from './cockpit';
import { _, fmt } from './i18n';

export interface HostConfig {
    procRoot: string;
    sysRoot: string;
    mdadm: string;
    /** The program kernel attributes are written with (a simulated host's tests point it at its own). */
    tee: string;
    /** What a disk replacement reads and runs (util-linux): the block devices, their signatures, partition tables. */
    lsblk: string;
    wipefs: string;
    sfdisk: string;
    /** ledmon's ledctl: where installed, the locate LED goes through it (ledmon, if it runs, then knows). */
    ledctl: string;
    /** Root-owned folder for the restore journal. */
    stateDir: string;
    /** Where "Keep after reboot" writes the global limits (sysctl.d), the md driver's early load
     * (modules-load.d) and the array and disk udev rule. */
    sysctlDir: string;
    udevRulesDir: string;
    modulesLoadDir: string;
    /**
     * udev's database (a file per device, bMAJOR:MINOR for block devices): where a disk's by-path
     * address is read. Hosts without udev (containers) have none, and the page says "not reported".
     */
    udevDataDir: string;
    /** The folder of mdadm.conf and mdadm/mdadm.conf (what mdadm --monitor reads), and systemctl. */
    mdadmConfDir: string;
    systemctl: string;
    /** The journal's reader: the kernel's lines of completed checks (src/md/alerts/checkJournal.ts). */
    journalctl: string;
    /**
     * The program mdadm --monitor hands its mail to (its build's MAILCMD, `/usr/sbin/sendmail -t`
     * in mdadm's Makefile): where it is missing, no alert mail leaves the host.
     */
    sendmail: string;
    /**
     * The time between two refreshes, busy or idle, in place of the page's own (null). Only the
     * soak benchmark sets it (tools/soak.ts), to pass hours of refreshes in minutes.
     */
    refreshIntervalMs: number | null;
}

export const DEFAULT_CONFIG: HostConfig = {
    procRoot: '/proc', sysRoot: '/sys', mdadm: 'mdadm', tee: 'tee', lsblk: 'lsblk', wipefs: 'wipefs', sfdisk: 'sfdisk', ledctl: 'ledctl', stateDir: '/var/lib/raidtune',
    sysctlDir: '/etc/sysctl.d', udevRulesDir: '/etc/udev/rules.d', modulesLoadDir: '/etc/modules-load.d',
    udevDataDir: '/run/udev/data',
    mdadmConfDir: '/etc', systemctl: 'systemctl', journalctl: 'journalctl', sendmail: '/usr/sbin/sendmail', refreshIntervalMs: null,
};

/** What refreshIntervalMs may be: fast enough for a soak, never slower than the page's busy pace. */
export const REFRESH_INTERVAL_MIN_MS = 10;
export const REFRESH_INTERVAL_MAX_MS = 2000;

function isRefreshInterval(value: unknown): value is number {
    return typeof value === 'number' && Number.isInteger(value) &&
        value >= REFRESH_INTERVAL_MIN_MS && value <= REFRESH_INTERVAL_MAX_MS;
}

function isAbsolutePath(value: unknown): value is string {
    return typeof value === 'string' && value.startsWith('/') && !value.split('/').includes('..');
}

export function readHostConfig(): { config: HostConfig; problems: string[] } {
    const raw = cockpitApi().manifests.raidtune?.config ?? {};
    const problems: string[] = [];
    const config = { ...DEFAULT_CONFIG };
    for (const key of ['procRoot', 'sysRoot', 'stateDir', 'sysctlDir', 'udevRulesDir', 'modulesLoadDir', 'udevDataDir', 'mdadmConfDir',
        'sendmail'] as const) {
        if (raw[key] === undefined) continue;
        if (isAbsolutePath(raw[key])) config[key] = raw[key];
        else problems.push(fmt(_('Ignoring the configured $0 $1: not an absolute path.'), key, JSON.stringify(raw[key])));
    }
    for (const program of ['mdadm', 'tee', 'systemctl', 'journalctl', 'lsblk', 'wipefs', 'sfdisk', 'ledctl'] as const) {
        if (typeof raw[program] === 'string' && raw[program].trim()) config[program] = raw[program];
    }
    if (raw.refreshIntervalMs !== undefined) {
        if (isRefreshInterval(raw.refreshIntervalMs)) config.refreshIntervalMs = raw.refreshIntervalMs;
        else problems.push(fmt(_('Ignoring the configured refreshIntervalMs $0: not a whole number of milliseconds from $1 to $2.'),
            JSON.stringify(raw.refreshIntervalMs), REFRESH_INTERVAL_MIN_MS, REFRESH_INTERVAL_MAX_MS));
    }
    return { config, problems };
}
