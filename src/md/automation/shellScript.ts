// SPDX-License-Identifier: LGPL-2.1-or-later
// A plan as a POSIX sh script for other hosts. It finds each array by the kernel's md/uuid (on
// every kernel with md, needs neither udev's /dev/disk/by-id links nor mdadm, and reads the same
// under a test root), checks everything the plan needs before its first write (the arrays, the
// attributes, a level with a stripe cache, its memory), then writes only what does not already
// read as wanted, so a second run changes nothing. Of the host's own files (mdadm.conf,
// /etc/default/mdadm) it edits only the directives the plan sets, with awk on the target's file.

import { ownerPattern } from '../lineEdit';
import { describeArgv, type EditFileStep, type Plan, type Step } from '../plan';
import { STRIPE_CACHE_MEMORY } from '../tuning/stripeCache';
import { ARRAY_SETTINGS } from '../settings/registry';
import { shLiteral } from './quote';
import {
    diskMissingText, newDisksOfPlan, NEW_DISK_FUNCTIONS, placesOf,
    type DiskId, type DiskRef, type NewDiskAction, type NewDisks,
} from './newDisk';
import {
    argvWords, arrayNumber, attributeTarget, checkedValue, diskNumber, grownBitmap, MEMBER_DISK,
    memberMissingText, missingText, planNames, refuseHostBound, removedMember, restartsForFiles, unitGates, UNITS_ARE,
    type ArrayRef, type MemberKey, type PlanNames, type Target, type UnitGates, type UnitSwitch,
} from './targets';

const REFUSE_PERCENT = Math.round(STRIPE_CACHE_MEMORY.refuse * 100);

/** The functions every script starts with; fixed text, values only ever arrive as arguments. */
const PRELUDE = String.raw`set -eu
root=${'$'}{RAIDTUNE_ROOT:-}
changed=0
files_changed=0

fail() { printf 'raidtune: %s\n' "$*" >&2; exit 1; }
report() { printf '%s: %s\n' "$1" "$2"; }

# The md device (md127) whose kernel UUID (md/uuid) is $1.
array_by_uuid() {
    for f in "$root"/sys/block/md*/md/uuid; do
        if [ -r "$f" ] && [ "$(cat "$f")" = "$1" ]; then
            d=${'$'}{f%/md/uuid}
            printf '%s\n' "${'$'}{d##*/}"
            return 0
        fi
    done
    fail "no md array with UUID $1 on this host"
}

# The whole disk of a member of md array $2 (root $1): "slot" $4, or "name" $4; nothing if none.
member_disk() ( __MEMBER_DISK__ )

need() { [ -e "$1" ] || fail "$2"; }

# A member to remove ($1: its md/dev-NAME) must have failed where it is still there: on another
# host the same name may be a working disk.
need_failed() {
    [ -e "$1" ] || return 0
    state=$(cat "$1/state")
    case ,$state, in *,faulty,*) ;; *) fail "$2 of md array $3 has not failed on this host ($state): it is not removed" ;; esac
}

need_stripe_cache() {
    level=$(cat "$root/sys/block/$1/md/level" 2>/dev/null) || level=unknown
    case $level in raid4|raid5|raid6) ;; *) fail "md array $2 ($1) is $level on this host: it has no stripe cache" ;; esac
}

# A larger stripe cache may take at most __PERCENT__ % of MemAvailable (page x disks x entries).
need_stripe_memory() {
    md=$root/sys/block/$1/md
    now=$(cat "$md/stripe_cache_size")
    disks=$(cat "$md/raid_disks")
    page=$(getconf PAGESIZE 2>/dev/null || echo 4096)
    avail=$(awk '$1 == "MemAvailable:" { print $2 }' "$root/proc/meminfo")
    extra=$(( ($2 - now) * ${'$'}{disks%% *} * page / 1024 ))
    [ "$extra" -le $(( ${'$'}{avail:-0} * __PERCENT__ / 100 )) ] ||
        fail "a stripe cache of $2 on $1 needs $extra KiB more, over __PERCENT__ % of the $avail KiB available"
}

need_choice() {
    case " $(tr -d '[]' < "$1") " in *" $2 "*) ;; *) fail "$3" ;; esac
}

# The attribute already reads $2 as the kernel shows it back: "N (local)", "N (system)", "a [b] c".
holds() {
    cur=$(cat "$1") || return 1
    case $cur in
    "$2" | "$2 (local)" | *"[$2]"*) return 0 ;;
    *" (system)") [ "$2" = system ] ;;
    *) return 1 ;;
    esac
}

write_attr() {
    if holds "$1" "$2"; then report unchanged "$3 = $2"; return 0; fi
    printf '%s\n' "$2" | tee "$1" >/dev/null || fail "the kernel refused $2 for $3"
    report changed "$3 = $2"
    changed=$((changed + 1))
}

# Puts $1.raidtune-new in place of $1 with $1's owner and mode (a new file: 644).
replace_file() {
    if [ -e "$1" ]; then
        if ! { chown --reference="$1" "$1.raidtune-new" && chmod --reference="$1" "$1.raidtune-new"; }; then
            fail "cannot keep the owner and mode of $1"
        fi
    else
        chmod 644 "$1.raidtune-new"
    fi
    mv -f "$1.raidtune-new" "$1"
    files_changed=$((files_changed + 1))
    changed=$((changed + 1))
}

write_file() {
    if [ -f "$root$1" ] && [ "$(cat "$root$1"; printf x)" = "$2x" ]; then report unchanged "$1"; return 0; fi
    mkdir -p "$(dirname "$root$1")"
    printf '%s' "$2" > "$root$1.raidtune-new"
    replace_file "$root$1"
    report changed "$1"
}

# In file $1, the lines of directive $2 (those matching the ERE $3, with the lines after each that
# start with blank space when $5 is 1) become $4 (its lines; empty: removed): in place of the first,
# or added at the end. Every other line stays; the data reaches awk through its environment only.
edit_lines() {
    f=$root$1
    if [ ! -e "$f" ] && [ -z "$4" ]; then report unchanged "$1: $2 (absent)"; return 0; fi
    mkdir -p "$(dirname "$f")"
    src=$f; [ -e "$f" ] || src=/dev/null
    # A last line without a newline stays so unless it is the directive's or lines follow it.
    noeol=0; if [ -s "$src" ] && [ -n "$(tail -c 1 "$src")" ]; then noeol=1; fi
    RAIDTUNE_RE=$3 RAIDTUNE_LINES=$4 RAIDTUNE_CONT=$5 RAIDTUNE_NOEOL=$noeol awk '
        function out(s) { if (n++) printf "\n"; printf "%s", s }
        BEGIN { re = ENVIRON["RAIDTUNE_RE"]; lines = ENVIRON["RAIDTUNE_LINES"]; cont = ENVIRON["RAIDTUNE_CONT"] }
        cont == "1" && owned && /^[ \t]/ { next }
        { owned = ($0 ~ re) }
        !owned { out($0); plain = 1; next }
        !done && lines != "" { out(lines) }
        { done = 1; plain = 0 }
        END {
            if (!done && lines != "") { out(lines); plain = 0 }
            if (n && !(plain && ENVIRON["RAIDTUNE_NOEOL"] == "1")) printf "\n"
        }
    ' "$src" > "$f.raidtune-new" || fail "cannot read $1"
    if [ -e "$f" ] && cmp -s "$f" "$f.raidtune-new"; then rm -f "$f.raidtune-new"; report unchanged "$1: $2"; return 0; fi
    replace_file "$f"
    report changed "$1: $2"
}

# Whether units are all enabled and active ($2 on) or neither ($2 off); $1 is systemctl.
units_are() { sh -c __UNITS_ARE__ units_are "$@"; }

# A unit is restarted (or systemd reloaded) only where a file it reads changed.
run_if_files_changed() {
    if [ "$files_changed" -eq 0 ]; then report unchanged "$* (no file changed)"; return 0; fi
    run "$@"
}

remove_file() {
    if [ ! -e "$root$1" ]; then report unchanged "$1 (absent)"; return 0; fi
    rm -f "$root$1"
    report changed "$1 (removed)"
    changed=$((changed + 1))
}

run() {
    "$@" || fail "$* failed"
    report changed "$*"
    changed=$((changed + 1))
}

# run_input INPUT COMMAND...: run, with INPUT on the command's standard input.
run_input() {
    input=$1
    shift
    printf '%s' "$input" | "$@" || fail "$* failed"
    report changed "$*"
    changed=$((changed + 1))
}
${NEW_DISK_FUNCTIONS}`.replace(/__PERCENT__/g, String(REFUSE_PERCENT)).replace('__MEMBER_DISK__', MEMBER_DISK).replace('__UNITS_ARE__', shLiteral(UNITS_ARE));

/** The shell variables that hold an array's name and a member's whole disk on the host the script runs on. */
const arrayVar = (names: PlanNames, ref: ArrayRef) => `md_${arrayNumber(names, ref)}`;
const diskVar = (names: PlanNames, key: MemberKey) => `disk_${diskNumber(names, key)}`;

/** The file of a target as a shell word: "$root/sys/block/$md_1/md/stripe_cache_size". */
function targetFile(names: PlanNames, t: Target): string {
    switch (t.kind) {
    case 'sysctl': return `"$root"${shLiteral(t.path)}`;
    case 'array': return `"$root/sys/block/$${arrayVar(names, t.array)}/"${shLiteral(t.attribute)}`;
    case 'disk': return `"$root/sys/block/$${diskVar(names, t.member)}/"${shLiteral(t.attribute)}`;
    }
}

/** What a person reads in the script's output and failures for a target. */
function targetName(names: PlanNames, t: Target): string {
    switch (t.kind) {
    case 'sysctl': return shLiteral(t.key);
    case 'array': return `"$${arrayVar(names, t.array)}/"${shLiteral(t.attribute)}`;
    case 'disk': return `"$${diskVar(names, t.member)}/"${shLiteral(t.attribute)}`;
    }
}

function attributeChecks(names: PlanNames, t: Target, value: string): string[] {
    const file = targetFile(names, t);
    const lines: string[] = [];
    if (t.kind === 'array' && t.needsStripeCache) {
        lines.push(`need_stripe_cache "$${arrayVar(names, t.array)}" ${shLiteral(t.array.uuid)}`);
    }
    lines.push(`need ${file} ${shLiteral(missingText(t))}`);
    if (t.kind === 'array' && t.attribute === ARRAY_SETTINGS.stripeCache.attribute) {
        lines.push(`need_stripe_memory "$${arrayVar(names, t.array)}" ${shLiteral(value)}`);
    }
    if (t.kind === 'disk' && t.attribute === 'queue/scheduler') {
        lines.push(`need_choice ${file} ${shLiteral(value)} "$${diskVar(names, t.member)}"${shLiteral(` offers no I/O scheduler ${value}`)}`);
    }
    return lines;
}

function argvText(names: PlanNames, argv: readonly string[]): string {
    return argvWords(argv, names.arrays).map(w => 'array' in w ? `"/dev/$${arrayVar(names, w.array)}"` : shLiteral(w.literal)).join(' ');
}

/**
 * A command runs only where its end state is not there yet: a bitmap added or removed, a member
 * gone. A member is removed only where it has failed (checked with the other checks).
 */
function runLines(names: PlanNames, step: Step & { kind: 'run' }, gate: RunGate): { checks: string[]; writes: string[] } {
    refuseHostBound(step);
    const words = argvWords(step.argv, names.arrays);
    const array = words.find((w): w is { array: ArrayRef } => 'array' in w)?.array;
    const run = `run ${argvText(names, step.argv)}`;
    const md = array && `"$root/sys/block/$${arrayVar(names, array)}/md`;
    const installed = `command -v ${shLiteral(step.argv[0])} >/dev/null || fail ${shLiteral(`${step.argv[0]} is not installed`)}`;
    const bitmap = grownBitmap(step);
    if (md && bitmap) {
        const test = bitmap === 'none' ? '= none' : '!= none';
        return { checks: [installed], writes: [`if [ "$(cat ${md}/bitmap/location")" ${test} ]; then report unchanged ${shLiteral(`bitmap ${bitmap}`)}; else ${run}; fi`] };
    }
    const member = removedMember(step);
    if (array && member) {
        const dir = `${md}/dev-"${shLiteral(member)}`;
        return {
            checks: [installed, `need_failed ${dir} ${shLiteral(member)} ${shLiteral(array.uuid)}`],
            writes: [`if [ ! -e ${dir} ]; then report unchanged ${shLiteral(`${member} removed`)}; else ${run}; fi`],
        };
    }
    if (gate.switched) {
        const checks = [installed, `${gate.switched.name}=1; if units_are ${unitsAreArgs(gate.switched.is)}; then ${gate.switched.name}=0; fi`];
        return { checks, writes: [unlessSwitched([gate.switched.name], step, run)] };
    }
    if (gate.startedWith.length) return { checks: [installed], writes: [unlessSwitched(gate.startedWith, step, run)] };
    const gated = restartsForFiles(step) ? `run_if_files_changed ${argvText(names, step.argv)}` : run;
    return { checks: [installed], writes: [gated] };
}

/** The shell variable that says whether the plan's step at `index` switches units (1) or finds them so (0). */
const switchVar = (index: number) => `switch_${index + 1}`;

function unitsAreArgs(is: UnitSwitch): string {
    return [is.systemctl, is.want, ...is.units].map(shLiteral).join(' ');
}

/** `run` only where one of the switches changes something (their state read before the first change). */
function unlessSwitched(vars: string[], step: Step & { kind: 'run' }, run: string): string {
    const none = vars.map(v => `[ "$${v}" = 0 ]`).join(' && ');
    return `if ${none}; then report unchanged ${shLiteral(`${describeArgv(step.argv)} (as it is already)`)}; else ${run}; fi`;
}

/** How a run step is gated on the plan's unit switches (unitGates): its own, or the ones it goes with. */
interface RunGate {
    switched: { name: string; is: UnitSwitch } | null;
    startedWith: string[];
}

function runGate(gates: UnitGates, index: number): RunGate {
    const own = gates.switches.get(index);
    return {
        switched: own ? { name: switchVar(index), is: own } : null,
        startedWith: gates.startGatedBy(index).map(switchVar),
    };
}

/** The edits of a file, each one edit_lines call; the lines are one argument. */
function editLines(step: EditFileStep): string[] {
    return step.edits.map(edit => {
        const { regex, continues } = ownerPattern(step.format, edit.key);
        return `edit_lines ${shLiteral(step.path)} ${shLiteral(edit.key)} ${shLiteral(regex)} ${shLiteral(edit.lines.join('\n'))} ${continues ? 1 : 0}`;
    });
}

/** The shell variables of a new disk: its name on the host the script runs on, and whether it is in place. */
const newVar = (disks: readonly DiskId[], disk: DiskId) => `new_${disks.findIndex(d => d.ref === disk.ref) + 1}`;
const placedVar = (disks: readonly DiskId[], disk: DiskId) => `placed_${disks.findIndex(d => d.ref === disk.ref) + 1}`;

/**
 * Each new disk found by what it reports, whether its devices are in their arrays already (all,
 * some or none), and where none is, that nothing uses it: a run cut short goes on from there.
 */
function findNewDiskLines(names: PlanNames, plan: NewDisks): string[] {
    return plan.disks.flatMap(disk => {
        const v = newVar(plan.disks, disk);
        const places = placesOf(plan, disk).map(p => `"$${arrayVar(names, p.array)}" ${p.number}`).join(' ');
        const wiped = plan.actions.some(a => a?.kind === 'wipe' && a.disk.ref === disk.ref) ? 1 : 0;
        return [
            `${v}=$(disk_by_id "$root" ${disk.by} ${shLiteral(disk.value)})  # ${disk.ref.name} where this was made`,
            `[ -n "$${v}" ] || fail ${shLiteral(diskMissingText(disk))}`,
            `${placedVar(plan.disks, disk)}=$(placed "$root" "$${v}" ${places})`,
            `if [ "$${placedVar(plan.disks, disk)}" = none ]; then need_unused "$root" "$${v}" ${wiped}; fi`,
        ];
    });
}

/** A new disk's step: wipe and table only where none of its devices is in place yet. */
function newDiskLines(names: PlanNames, plan: NewDisks, action: NewDiskAction,
    index: number): { checks: string[]; writes: string[] } {
    const installed = (program: string) => `command -v ${program} >/dev/null || fail ${shLiteral(`${program} is not installed`)}`;
    const checks = [installed('wipefs')];
    const untouched = (disk: DiskId, write: string, what: string) =>
        `if [ "$${placedVar(plan.disks, disk)}" = none ]; then ${write}; else report unchanged ${shLiteral(`${what} (it is in place)`)}; fi`;
    switch (action.kind) {
    case 'wipe':
        return { checks, writes: [untouched(action.disk, `wipe_disk "$root" "$${newVar(plan.disks, action.disk)}"`, `signatures on ${action.disk.ref.name}`)] };
    case 'table':
        return {
            checks: [...checks, installed('sfdisk')],
            writes: [untouched(action.disk, `run_input ${shLiteral(action.script)} sfdisk "/dev/$${newVar(plan.disks, action.disk)}"`,
                `partition table of ${action.disk.ref.name}`)],
        };
    case 'add': {
        const { array, device, how } = action;
        return {
            checks: [...checks, installed('mdadm')],
            writes: [`add_member "$root" "$${arrayVar(names, array)}" "$${newVar(plan.disks, device.disk)}" ${device.number} ${how}`],
        };
    }
    case 'replace': {
        const { array, old, device } = action;
        const oldVar = `old_${index + 1}`;
        return {
            checks: [...checks, installed('mdadm'),
                `${oldVar}=$(member_disk "$root" "$${arrayVar(names, array)}" slot ${old.slot} member)  # ${old.disk} where this was made`,
                `[ -n "$${oldVar}" ] || fail ${shLiteral(memberMissingText(old))}`],
            writes: [`replace_member "$root" "$${arrayVar(names, array)}" "$${oldVar}" "$${newVar(plan.disks, device.disk)}" ${device.number}`],
        };
    }
    }
}

function stepLines(names: PlanNames, step: Step, gate: RunGate): { checks: string[]; writes: string[] } {
    switch (step.kind) {
    case 'write-attribute': {
        const t = attributeTarget(step.path, names.arrays);
        const value = checkedValue(t, step.to);
        return {
            checks: attributeChecks(names, t, value),
            writes: [`write_attr ${targetFile(names, t)} ${shLiteral(value)} ${targetName(names, t)}`],
        };
    }
    case 'write-file':
        return {
            checks: [],
            writes: [step.content === null ? `remove_file ${shLiteral(step.path)}` : `write_file ${shLiteral(step.path)} ${shLiteral(step.content)}`],
        };
    case 'run':
        return runLines(names, step, gate);
    case 'edit-file':
        return { checks: [], writes: editLines(step) };
    }
}

function findDiskLines(names: PlanNames, key: MemberKey): string[] {
    const v = diskVar(names, key);
    const how = 'slot' in key ? `slot ${key.slot}` : `name ${shLiteral(key.name)}`;
    return [
        `${v}=$(member_disk "$root" "$${arrayVar(names, key.array)}" ${how})  # ${key.disk} where this was made`,
        `[ -n "$${v}" ] || fail ${shLiteral(memberMissingText(key))}`,
    ];
}

/** Checks once each, in order: two steps on one array need it found once. */
function unique(lines: string[]): string[] {
    return [...new Set(lines)];
}

/**
 * The plan as a script. `arrays`: this host's arrays with their UUIDs (`arrayRefs`); throws
 * AutomationError for a step that cannot be said for another host.
 */
export function shellScript(plan: Plan, title: string, arrays: readonly ArrayRef[],
    disks: readonly DiskRef[] = []): string {
    const names = planNames(plan, arrays);
    const gates = unitGates(plan);
    const newDisks = newDisksOfPlan(plan, arrays, disks);
    const parts = plan.steps.map((s, i) => {
        const action = newDisks.actions[i];
        return action ? newDiskLines(names, newDisks, action, i) : stepLines(names, s, runGate(gates, i));
    });
    const header = [
        '#!/bin/sh',
        `# raidtune: ${title.replace(/\n/g, ' ')}`,
        '# Run as root on any host with these arrays: it finds them by UUID, checks everything first,',
        '# and writes only what differs (a second run changes nothing). RAIDTUNE_ROOT: a test tree.',
        '# Values are single-quoted: nothing in them is expanded.',
        '# shellcheck disable=SC2016',
        ...plan.steps.map(s => `#   ${describeStepLine(s)}`),
    ];
    const find = [
        ...names.arrays.map(a => `${arrayVar(names, a)}=$(array_by_uuid ${shLiteral(a.uuid)})  # ${a.name} where this was made`),
        ...names.disks.flatMap(k => findDiskLines(names, k)),
        ...findNewDiskLines(names, newDisks),
    ];
    return [
        ...header, '', PRELUDE,
        '# Checks: nothing is written unless all of them pass.',
        ...find, ...unique(parts.flatMap(p => p.checks)), '',
        '# Changes.',
        ...parts.flatMap(p => p.writes), '',
        `report finished "$changed changed"`, '',
    ].join('\n');
}

/** One comment line per step: the command as previewed, with newlines of file contents left out. */
function describeStepLine(step: Step): string {
    switch (step.kind) {
    case 'write-attribute': return `${step.path} = ${step.to}`.replace(/\n/g, ' ');
    case 'write-file': return step.content === null ? `remove ${step.path}` : `write ${step.path}`;
    case 'run': return describeArgv(step.argv).replace(/\n/g, ' ');
    case 'edit-file': return `edit ${step.path}: ${step.edits.map(e => e.key).join(', ')}`.replace(/\n/g, ' ');
    }
}
