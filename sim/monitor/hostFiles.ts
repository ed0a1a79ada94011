// SPDX-License-Identifier: LGPL-2.1-or-later
// What a simulated host offers for mdadm --monitor besides the kernel: its mdadm.conf (Debian's
// layout, <root>/etc/mdadm/mdadm.conf) and the state of mdmonitor.service, which a small
// `systemctl` stand-in prints as `systemctl show` does. By default the host is set up as Debian's
// installer leaves it (mail to root, the monitor running), so a page on it has nothing to warn of;
// a test writes its own files for another case (alerts.test.ts: nobody told). Files already
// there are kept (a test may have written its own before).

import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SENDMAIL, SENT_MAIL_FILE } from './testAlert';

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
    /** A timer's OnCalendar as its package ships it (a drop-in may replace it: see daemon-reload). */
    calendar?: string;
    /** A service's Environment as systemctl prints the package's ('"MDADM_CHECK_DURATION=6 hours"'). */
    environment?: string;
    /** A service's ExecStart as systemctl prints it ('{ path=... ; argv[]=... ; ... }'). */
    execStart?: string;
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
    const exec = unit.execStart ? `ExecStart=${unit.execStart}\n` : '';
    writeFileSync(path, `LoadState=loaded\nActiveState=${unit.activeState}\nUnitFileState=${unit.unitFileState}\n${next}${exec}`);
    // A unit written anew is as its package ships it: no drop-in loaded yet.
    rmSync(`${path}.loaded`, { force: true });
    if (unit.calendar) writeFileSync(`${path}.calendar`, `${unit.calendar}\n`);
    else rmSync(`${path}.calendar`, { force: true });
    rmSync(`${path}.env-loaded`, { force: true });
    if (unit.environment) writeFileSync(`${path}.environment`, `${unit.environment}\n`);
    else rmSync(`${path}.environment`, { force: true });
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
    // raidtune's own history recorder and check window timers, installed with the plugin and off
    // until the page turns them on (the window's calendars as the package ships them).
    const installed: [string, string | undefined][] = [['raidtune-history.timer', undefined],
        ['raidtune-check-window-start.timer', '*-*-* 01:00:00'], ['raidtune-check-window-end.timer', '*-*-* 07:00:00'],
        ['raidtune-check-window@off.service', undefined]];
    for (const [unit, calendar] of installed) {
        if (!existsSync(join(root, UNITS_DIR, unit))) {
            writeUnit(root, unit, { activeState: 'inactive', unitFileState: unit.endsWith('.service') ? 'static' : 'disabled', calendar });
        }
    }
}

/** A stand-in program: its lines as a script, executable. */
function writeScript(path: string, lines: readonly string[]): void {
    writeFileSync(path, lines.join('\n'));
    chmodSync(path, 0o755);
}

/** The simulated host's kernel lines in the journal, one per line as `journalctl --output=short-unix` prints them. */
export const KERNEL_JOURNAL = 'var/log/kernel.journal';

/**
 * journalctl for a simulated md host: the lines of <root>/var/log/kernel.journal whose message
 * (after "kernel: ") matches `--grep=` (as an extended regular expression, which the patterns
 * raidtune greps with are too), the last `--lines=`; exit 1 when there is no journal or no match,
 * as journalctl does.
 */
export function writeJournalctlStandIn(path: string, root: string): void {
    writeScript(path, [
        '#!/bin/sh',
        '# journalctl for a simulated md host (sim/monitor/hostFiles.ts)',
        `journal=${shellWord(join(root, KERNEL_JOURNAL))}`,
        'pattern=; count=1000000',
        'for arg; do case "$arg" in --grep=*) pattern=${arg#--grep=};; --lines=*) count=${arg#--lines=};; esac; done',
        '[ -f "$journal" ] || exit 1',
        'found=$(while IFS= read -r line; do',
        '  message=$(printf "%s\\n" "$line" | sed "s/^[^ ]* [^ ]* kernel: //")',
        '  printf "%s\\n" "$message" | grep -Eq -- "$pattern" && printf "%s\\n" "$line"',
        'done < "$journal" | tail -n "$count")',
        '[ -n "$found" ] || exit 1',
        'printf "%s\\n" "$found"',
        '',
    ]);
}

/**
 * The mail program mdadm --monitor hands its alerts to (`sendmail -t`), on a simulated host that
 * has a mail transfer agent: it keeps each mail it is handed in <root>/var/mail/mdadm-sent.
 */
export function writeSendmailStandIn(root: string): string {
    const path = join(root, SENDMAIL);
    const sent = join(root, SENT_MAIL_FILE);
    mkdirSync(dirname(path), { recursive: true });
    mkdirSync(dirname(sent), { recursive: true });
    writeFileSync(path, `#!/bin/sh\n# sendmail -t for a simulated md host (sim/monitor/hostFiles.ts)\ncat >> ${shellWord(sent)}\n`);
    chmodSync(path, 0o755);
    return path;
}

function shellWord(text: string): string {
    return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The `systemctl` stand-in, on the unit files in <root>/run/systemd-sim:
 * - `show` prints each unit named (options skipped), with a timer's TimersCalendar and a service's
 *   Environment, or "not-found" as systemd does for a unit it has no file for;
 * - `daemon-reload` loads each timer's calendar: the last OnCalendar of raidtune's drop-in under
 *   <root>/etc/systemd/system, else the package's own (`<unit>.calendar`); and each service's
 *   Environment: the drop-in's last Environment= (it replaces the package's variable of the same
 *   name, as systemd's does: the simulated services have one variable), else the package's;
 * - `restart` and `try-restart` of known units succeed; a running timer computes its next run from
 *   the calendar it has loaded (with this machine's own `systemd-analyze calendar`);
 * - `start` of known units succeeds and adds their names to <units dir>/started (the service
 *   itself does not run here: its tool is tested on its own and on a real kernel);
 * - `enable` and `disable` (with `--now`: start or stop) change the unit's state;
 * anything else exits 1.
 */
export function writeSystemctlStandIn(path: string, root: string): void {
    writeScript(path, [
        '#!/bin/sh',
        '# systemctl for a simulated md host (sim/monitor/hostFiles.ts)',
        `units=${shellWord(join(root, UNITS_DIR))}`,
        `etc=${shellWord(join(root, 'etc'))}`,
        'calendar() { if [ -f "$units/$1.loaded" ]; then cat "$units/$1.loaded"; elif [ -f "$units/$1.calendar" ]; then cat "$units/$1.calendar"; fi; }',
        'environment() { if [ -f "$units/$1.env-loaded" ]; then cat "$units/$1.env-loaded"; elif [ -f "$units/$1.environment" ]; then cat "$units/$1.environment"; fi; }',
        'analyze() { systemd-analyze calendar -- "$1" 2>/dev/null | sed -n "s/^ *$2: //p"; }',
        'set_key() { grep -v "^$2=" "$units/$1" > "$units/$1.new"; [ -z "$3" ] || echo "$2=$3" >> "$units/$1.new"; mv "$units/$1.new" "$units/$1"; }',
        'rearm() { spec=$(calendar "$1"); [ -z "$spec" ] || set_key "$1" NextElapseUSecRealtime "$(analyze "$spec" "Next elapse")"; }',
        'known() { [ -f "$units/$1" ] || { echo "Failed to $command $1: Unit $1 not found." >&2; exit 5; }; }',
        'command=$1; shift',
        'case "$command" in',
        'show)',
        '  for unit in "$@"; do',
        '    case "$unit" in -*) continue;; esac',
        '    echo "Id=$unit"',
        '    if [ -f "$units/$unit" ]; then',
        '      cat "$units/$unit"',
        '      spec=$(calendar "$unit")',
        '      [ -z "$spec" ] || echo "TimersCalendar={ OnCalendar=$(analyze "$spec" "Normalized form") ; next_elapse=$(analyze "$spec" "Next elapse") }"',
        '      env=$(environment "$unit"); [ -z "$env" ] || echo "Environment=$env"',
        '    else printf \'LoadState=not-found\\nActiveState=inactive\\nUnitFileState=\\n\'; fi',
        '    echo',
        '  done;;',
        'daemon-reload)',
        '  for file in "$units"/*.timer "$units"/*.service; do',
        '    [ -f "$file" ] || continue',
        '    unit=${file##*/}; dropin="$etc/systemd/system/$unit.d/raidtune.conf"',
        '    case "$unit" in *.timer) key=OnCalendar loaded="$file.loaded";; *) key=Environment loaded="$file.env-loaded";; esac',
        '    if [ -f "$dropin" ]; then sed -n "s/^$key=//p" "$dropin" | tail -n 1 > "$loaded"; else rm -f "$loaded"; fi',
        '  done;;',
        'restart|try-restart)',
        '  for unit in "$@"; do',
        '    known "$unit"',
        '    case "$unit" in *.timer) if grep -q "^ActiveState=active" "$units/$unit"; then rearm "$unit"; fi;; esac',
        '  done;;',
        'start)',
        '  for unit in "$@"; do known "$unit"; echo "$unit" >> "$units/started"; done;;',
        'enable|disable)',
        '  now=; if [ "$1" = --now ]; then now=1; shift; fi',
        '  for unit in "$@"; do',
        '    known "$unit"',
        '    set_key "$unit" UnitFileState "${command}d"',
        '    [ -n "$now" ] || continue',
        '    if [ "$command" = enable ]; then set_key "$unit" ActiveState active; rearm "$unit"',
        '    else set_key "$unit" ActiveState inactive; set_key "$unit" NextElapseUSecRealtime ""; fi',
        '  done;;',
        '*) echo "systemctl (simulated): $command is not simulated" >&2; exit 1;;',
        'esac',
        '',
    ]);
}
