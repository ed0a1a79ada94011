// SPDX-License-Identifier: LGPL-2.1-or-later
// Which Cockpit the harness runs: the system's (Debian 12: 287, the C bridge) or one that
// tools/install-cockpit.sh put beside it (337, 372: the Python bridge that RHEL 9.3+/10 and Fedora
// run). Chosen with RAIDTUNE_COCKPIT=287|337|372 (`make check-browser COCKPIT=372`); default 287.
//
// Each version's shell logs lines of its own on this machine (no systemd, a private system bus).
// They are known here by exact text, per version, so that anything else, raidtune's own errors
// first, still fails a test on every version.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type CockpitVersionKey = '287' | '337' | '372';

export interface CockpitInstall {
    readonly key: CockpitVersionKey;
    /** The packaged version, e.g. 287.1-0+deb12u3 or 372-1~bpo13+1. */
    readonly version: string;
    /** The Python bridge (337, 372) or the C bridge (287). */
    readonly pythonBridge: boolean;
    readonly ws: string;
    /** The session program (`--local-session=`). */
    readonly bridge: string;
    /** What ws and the bridge need to find this version's packages and modules. */
    readonly env: Readonly<Record<string, string>>;
    /** Data folders holding cockpit/<package> (static, base1, shell, ...). */
    readonly dataDirs: readonly string[];
    /** The Python bridge crashes when the shell opens a D-Bus channel and no system bus exists. */
    readonly needsSystemBus: boolean;
    /** Console messages of the shell page (never of raidtune's page) that are this version's own. */
    readonly shellConsoleNoise: readonly ShellNoise[];
    /** Uncaught errors of the shell page that are this version's own, by their exact text. */
    readonly shellPageErrors: readonly string[];
}

/** A console message by its exact text and, where the text alone says too little, its source. */
export interface ShellNoise {
    readonly text: string;
    /** The end of the URL the message is about (a failed resource's address). */
    readonly urlEnd?: string;
}

export const COCKPIT_CACHE = process.env.RAIDTUNE_COCKPIT_CACHE || '/var/cache/raidtune/cockpit';

const SYSTEM_WS = ['/usr/lib/cockpit/cockpit-ws', '/usr/libexec/cockpit-ws'].find(p => existsSync(p)) ||
    '/usr/lib/cockpit/cockpit-ws';

// 287 without a system bus.
const NOISE_287: ShellNoise[] = [
    { text: 'Could not connect: No such file or directory' },
    { text: 'ListUnitsFiltered failed:  Internal error' },
    { text: 'Failed to get ScheduledShutdown property Could not connect: No such file or directory' },
];
// 337 and 372 with a private system bus that has no systemd or other services on it.
const NOISE_PYTHON_BRIDGE: ShellNoise[] = [
    { text: 'ListUnitsFiltered failed:  not-found' },
    { text: 'Failed to get ScheduledShutdown property not-found' },
    { text: 'Failed to get current crypto policy: not-found ; falling back to /etc/crypto-policies/config' },
];
// 337's shell, overview (system: what the shell shows where raidtune's condition hides it) and
// accounts pages ask for fonts its packages do not ship (the Python bridge answers 404 with the
// reason "ERROR"), and its accounts page, preloaded when the shell switches pages,
// warns about the logged-in accounts it cannot list without systemd.
const FONT_404 = 'Failed to load resource: the server responded with a status of 404 (ERROR)';
const NOISE_337: ShellNoise[] = [
    { text: FONT_404, urlEnd: '/shell/assets/fonts/RedHatText/RedHatTextVF.woff2' },
    { text: FONT_404, urlEnd: '/system/assets/fonts/RedHatText/RedHatTextVF.woff2' },
    { text: FONT_404, urlEnd: '/system/assets/fonts/RedHatDisplay/RedHatDisplayVF.woff2' },
    { text: FONT_404, urlEnd: '/users/assets/fonts/RedHatText/RedHatTextVF.woff2' },
    { text: FONT_404, urlEnd: '/users/assets/fonts/RedHatDisplay/RedHatDisplayVF.woff2' },
    { text: 'Unexpected error when getting logged in accounts se', urlEnd: '/users/users.js' },
];
// 372's shell pages behind 337's ws: the same warning of its accounts page.
const NOISE_372: ShellNoise[] = [
    { text: 'Unexpected error when getting logged in accounts ne', urlEnd: '/users/users.js' },
];

/** The Cockpit chosen for this run. Throws with the install command when it is not there. */
export function cockpitUnderTest(key = process.env.RAIDTUNE_COCKPIT || '287', cache = COCKPIT_CACHE): CockpitInstall {
    if (key === '287')
        return systemCockpit();
    if (key !== '337' && key !== '372')
        throw new Error(`RAIDTUNE_COCKPIT=${key}: the harness knows 287, 337 and 372`);
    const dir = join(cache, key);
    const versionFile = join(dir, 'version');
    if (!existsSync(versionFile))
        throw new Error(`Cockpit ${key} is not installed: run tools/install-cockpit.sh ${key} (as root)`);
    const root = join(dir, 'root');
    return {
        key,
        version: readFileSync(versionFile, 'utf8').trim(),
        pythonBridge: true,
        ws: join(dir, 'ws'),
        bridge: join(root, 'usr/bin/cockpit-bridge'),
        env: { PYTHONPATH: join(root, 'usr/lib/python3/dist-packages'), XDG_DATA_DIRS: join(dir, 'data') },
        dataDirs: [join(dir, 'data')],
        needsSystemBus: true,
        shellConsoleNoise: [...NOISE_PYTHON_BRIDGE, ...(key === '372' ? NOISE_372 : NOISE_337)],
        // 372's shell throws a value without a stack behind 337's ws, with or without raidtune.
        shellPageErrors: key === '372' ? ['null: ne'] : [],
    };
}

function systemCockpit(): CockpitInstall {
    return {
        key: '287',
        version: systemVersion(),
        pythonBridge: false,
        ws: process.env.RAIDTUNE_COCKPIT_WS || SYSTEM_WS,
        bridge: 'cockpit-bridge',
        env: {},
        dataDirs: ['/usr/share'],
        needsSystemBus: false,
        shellConsoleNoise: NOISE_287,
        shellPageErrors: [],
    };
}

/** The system's Cockpit version from dpkg's database ('' elsewhere: only shown, never compared). */
function systemVersion(): string {
    const status = '/var/lib/dpkg/status';
    if (!existsSync(status))
        return '';
    const entry = readFileSync(status, 'utf8').split('\n\n').find(e => e.startsWith('Package: cockpit-bridge\n'));
    return entry?.match(/^Version: (.*)$/m)?.[1] ?? '';
}
