// SPDX-License-Identifier: LGPL-2.1-or-later
// A new disk put in arrays (issue #34), said so that the script touches that disk and no other
// wherever it runs: the disk is found by the WWID it reports (its serial where it reports none),
// which no other disk shares; its partitions by their numbers on it. It is used only where nothing
// holds, mounts or marks it (unless the plan wipes it), and each step runs only where its end state
// is missing: a second run changes nothing, and a run cut short goes on where it stopped.
// The steps are fixed shell functions (values only as arguments) that the shell script defines
// once and the playbook runs one at a time with `sh -c`.

import type { DiskModel } from '../modelTypes';
import type { Plan, RunCommandStep } from '../plan';
import { partitionNumberOn } from '../replace/partitionCopy';
import { arrayByName, AutomationError, type ArrayRef, type MemberKey } from './targets';

/** A disk of this host as the generators know it: its kernel name here, and what it reports of itself. */
export interface DiskRef {
    name: string;
    wwid: string | null;
    serial: string | null;
}

export function diskRefs(disks: Iterable<DiskModel>): DiskRef[] {
    return [...disks].map(d => ({ name: d.name, wwid: d.wwid?.trim() || null, serial: d.serial?.trim() || null }));
}

/** What finds the disk on a host: its WWID, or its serial where it reports no WWID. */
export interface DiskId {
    ref: DiskRef;
    by: 'wwid' | 'serial';
    value: string;
}

/** A device of the new disk: the disk itself (number 0) or its partition with that number. */
export interface NewDevice {
    disk: DiskId;
    number: number;
}

export type NewDiskAction =
    | { kind: 'wipe'; disk: DiskId }
    | { kind: 'table'; disk: DiskId; script: string }
    | { kind: 'add'; array: ArrayRef; device: NewDevice; how: '--add' | '--add-spare' }
    | { kind: 'replace'; array: ArrayRef; old: SlotKey; device: NewDevice };

/** A member found by its slot: a working member being replaced always has one. */
export type SlotKey = MemberKey & { slot: number };

function diskId(ref: DiskRef): DiskId {
    if (ref.wwid) return { ref, by: 'wwid', value: ref.wwid };
    if (ref.serial) return { ref, by: 'serial', value: ref.serial };
    throw new AutomationError(`${ref.name} reports neither a WWID nor a serial number: another host cannot tell it from its other disks`);
}

function newDevice(word: string | undefined, disks: readonly DiskRef[]): NewDevice {
    const name = word?.startsWith('/dev/') ? word.slice('/dev/'.length) : '';
    for (const ref of disks) {
        if (name === ref.name) return { disk: diskId(ref), number: 0 };
        const number = partitionNumberOn(ref.name, name);
        if (number !== null) return { disk: diskId(ref), number };
    }
    throw new AutomationError(`${word ?? 'a device'} is not a disk raidtune read on this host`);
}

/** The member in the old device's slot. */
function oldMember(array: ArrayRef, word: string | undefined): SlotKey {
    const member = array.members.find(m => `/dev/${m.name}` === word);
    if (!member || member.slot === null) throw new AutomationError(`${word ?? 'a device'} is no member of ${array.name} in a slot`);
    return { array, disk: member.disk, slot: member.slot };
}

/**
 * The step as putting a new disk in place, or null for one that does not: `wipefs --all` of the
 * disk (and its partitions), `sfdisk DISK` fed its table, `mdadm MD --add|--add-spare DEVICE`, and
 * `mdadm MD --replace OLD --with DEVICE`.
 */
export function newDiskAction(step: RunCommandStep, arrays: readonly ArrayRef[],
    disks: readonly DiskRef[]): NewDiskAction | null {
    const [program, first, verb, old, withWord, added] = step.argv;
    if (program === 'wipefs' && first === '--all') {
        const devices = step.argv.slice(2).map(w => newDevice(w, disks));
        if (devices.some(d => d.disk.ref !== devices[0].disk.ref)) throw new AutomationError(`${step.argv.join(' ')} wipes more than one disk`);
        return { kind: 'wipe', disk: devices[0].disk };
    }
    if (program === 'sfdisk' && step.argv.length === 2 && step.stdin !== undefined) {
        const device = newDevice(first, disks);
        if (device.number !== 0) throw new AutomationError(`${first} is a partition: sfdisk writes a disk's table`);
        return { kind: 'table', disk: device.disk, script: step.stdin };
    }
    if (program !== 'mdadm' || !first?.startsWith('/dev/md')) return null;
    const array = arrayByName(arrays, first.slice('/dev/'.length));
    if ((verb === '--add' || verb === '--add-spare') && step.argv.length === 4) {
        return { kind: 'add', array, device: newDevice(old, disks), how: verb };
    }
    if (verb === '--replace' && withWord === '--with' && step.argv.length === 6) {
        return { kind: 'replace', array, old: oldMember(array, old), device: newDevice(added, disks) };
    }
    return null;
}

/** A plan's new disks, each once in the order they first appear, and each step's part in putting them in place. */
export interface NewDisks {
    disks: DiskId[];
    /** By step index; null for a step that is not a new disk's. */
    actions: (NewDiskAction | null)[];
}

export function newDisksOfPlan(plan: Plan, arrays: readonly ArrayRef[], disks: readonly DiskRef[]): NewDisks {
    const actions = plan.steps.map(s => (s.kind === 'run' ? newDiskAction(s, arrays, disks) : null));
    const seen = new Map<string, DiskId>();
    for (const action of actions) {
        if (!action) continue;
        const disk = 'disk' in action ? action.disk : action.device.disk;
        if (!seen.has(disk.ref.name)) seen.set(disk.ref.name, disk);
    }
    return { disks: [...seen.values()], actions };
}

/** Where each new disk goes: the (array, device number) pairs of its adds and replacements. */
export function placesOf({ actions }: NewDisks, disk: DiskId): { array: ArrayRef; number: number }[] {
    return actions.flatMap(a => (a && (a.kind === 'add' || a.kind === 'replace') && a.device.disk.ref === disk.ref
        ? [{ array: a.array, number: a.device.number }] : []));
}

/** Why the disk is not found: said the same by the script and the playbook. */
export function diskMissingText(disk: DiskId): string {
    const what = disk.by === 'wwid' ? 'WWID' : 'serial number';
    return `no single disk with ${what} ${disk.value} on this host (${disk.ref.name} where this was made)`;
}

/**
 * The functions both exports run on the target host. They use `fail`, `report` and `run`, which the
 * shell script's prelude defines, and NEW_DISK_BASICS for the playbook's single commands. Every
 * function takes the tree's root first ("" on a real host).
 */
export const NEW_DISK_FUNCTIONS = String.raw`
# disk_by_id ROOT wwid|serial VALUE: the one whole disk that reports VALUE; nothing where none or several do.
disk_by_id() {
    found=; count=0
    case $2 in wwid) files='device/wwid wwid' ;; *) files='serial device/serial' ;; esac
    for d in "$1"/sys/block/*; do
        for f in $files; do
            v=
            if [ -r "$d/$f" ]; then read -r v < "$d/$f" || true; fi
            if [ -n "$v" ] && [ "$v" = "$3" ]; then found=${'$'}{d##*/}; count=$((count + 1)); break; fi
        done
    done
    if [ "$count" = 1 ]; then printf '%s\n' "$found"; fi
}

# new_device ROOT DISK N: the disk (N 0) or its partition number N; nothing where it has none.
new_device() {
    if [ "$3" = 0 ]; then printf '%s\n' "$2"; return 0; fi
    for f in "$1/sys/block/$2"/*/partition; do
        if [ -r "$f" ] && [ "$(cat "$f")" = "$3" ]; then f=${'$'}{f%/partition}; printf '%s\n' "${'$'}{f##*/}"; return 0; fi
    done
}

# placed ROOT DISK MD N [MD N ...]: whether the disk's device N is a member of each MD: all, some or none.
placed() {
    r=$1; d=$2; shift 2; in=0; out=0
    while [ "$#" -ge 2 ]; do
        p=$(new_device "$r" "$d" "$2")
        if [ -n "$p" ] && [ -e "$r/sys/block/$1/md/dev-$p" ]; then in=$((in + 1)); else out=$((out + 1)); fi
        shift 2
    done
    if [ "$in" = 0 ]; then echo none; elif [ "$out" = 0 ]; then echo all; else echo some; fi
}

# need_unused ROOT DISK WIPED: fails where anything holds, mounts or swaps on the disk or its
# partitions, or (WIPED 0: the plan wipes nothing) where wipefs finds a signature on them.
need_unused() {
    for h in "$1/sys/block/$2/holders"/* "$1/sys/block/$2"/*/holders/*; do
        if [ -e "$h" ]; then fail "$2 is in use on this host: ${'$'}{h##*/} holds it"; fi
    done
    for f in "$1/proc/mounts" "$1/proc/swaps"; do
        if [ -r "$f" ] && awk -v d="/dev/$2" '$1 == d || index($1, d) == 1 && substr($1, length(d) + 1) ~ /^p?[0-9]+$/ { hit = 1 } END { exit !hit }' "$f"; then
            fail "$2 is mounted or used as swap on this host"
        fi
    done
    if [ "$3" = 1 ]; then return 0; fi
    # shellcheck disable=SC2046
    for x in $(partitions "$1" "$2") "$2"; do
        s=$(wipefs --no-act "/dev/$x") || fail "wipefs cannot read /dev/$x"
        if [ -n "$s" ]; then fail "/dev/$x has signatures on this host (wipefs): it is not used"; fi
    done
}

# partitions ROOT DISK: its partitions' names.
partitions() {
    for f in "$1/sys/block/$2"/*/partition; do
        if [ -e "$f" ]; then f=${'$'}{f%/partition}; printf '%s\n' "${'$'}{f##*/}"; fi
    done
}

# wipe_disk ROOT DISK: every signature on the disk and its partitions, the partitions first.
wipe_disk() {
    # shellcheck disable=SC2046
    run wipefs --all $(partitions "$1" "$2" | sed 's|^|/dev/|') "/dev/$2"
}

# add_member ROOT MD DISK N --add|--add-spare
add_member() {
    p=$(new_device "$1" "$3" "$4")
    [ -n "$p" ] || fail "$3 has no partition $4 on this host"
    if [ -e "$1/sys/block/$2/md/dev-$p" ]; then report unchanged "$p is a member of $2"; return 0; fi
    run mdadm "/dev/$2" "$5" "/dev/$p"
    # mdadm says "added" and exits 0 whatever md does with it: the kernel's list decides.
    [ -e "$1/sys/block/$2/md/dev-$p" ] || fail "md did not take $p into $2"
}

# replace_member ROOT MD OLD DISK N: md copies OLD onto the new device while OLD still serves.
replace_member() {
    p=$(new_device "$1" "$4" "$5")
    [ -n "$p" ] || fail "$4 has no partition $5 on this host"
    md=$1/sys/block/$2/md
    if [ "$3" = "$p" ] || [ ! -e "$md/dev-$3" ]; then report unchanged "$3 of $2 replaced by $p"; return 0; fi
    case ,$(cat "$md/dev-$3/state"),$(cat "$md/dev-$p/state" 2>/dev/null || true), in
    *,want_replacement,* | *,faulty,* | *,replacement,*) report unchanged "$3 of $2 is being replaced"; return 0 ;;
    esac
    run mdadm "/dev/$2" --replace "/dev/$3" --with "/dev/$p"
}
`;

/** What the playbook's single commands define first, as the shell script's prelude does. */
export const NEW_DISK_BASICS = String.raw`set -eu
fail() { printf 'raidtune: %s\n' "$*" >&2; exit 1; }
report() { printf '%s: %s\n' "$1" "$2"; }
run() { "$@" || fail "$* failed"; report changed "$*"; }
`;

/** One function of NEW_DISK_FUNCTIONS as a program of its own: `sh -c PROGRAM raidtune-disk ARGS...`. */
export function newDiskProgram(fn: 'disk_by_id' | 'placed' | 'need_unused' | 'wipe_disk' | 'add_member' | 'replace_member'): string {
    return `${NEW_DISK_BASICS}${NEW_DISK_FUNCTIONS}\n${fn} "$@"\n`;
}
