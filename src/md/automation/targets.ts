// SPDX-License-Identifier: LGPL-2.1-or-later
// What a plan's step touches, said so that it means the same on another host: an md array by its
// UUID (mdN is only the order in which this host assembled it), a dev.raid sysctl by name, a member
// disk by the array and slot it serves (sdb here may be another disk there, or none), a file by its
// path. The shell script and the playbook both read a plan through this one description.

import type { ArrayModel } from '../modelTypes';
import type { Plan, RunCommandStep, Step } from '../plan';
import { ARRAY_SETTINGS, DISK_SETTINGS, GLOBAL_SETTINGS, type Bounds } from '../settings/registry';

/** A member as the generators know it: its name and whole disk here, and its slot (null: spare or failed). */
export interface MemberRef {
    name: string;
    disk: string;
    slot: number | null;
}

/** An array of this host as the generators know it: its name here, the kernel's md/uuid, its members. */
export interface ArrayRef {
    name: string;
    uuid: string;
    level: string | null;
    members: readonly MemberRef[];
}

/**
 * How a script finds a member disk on another host: the array's member in a slot, or, for one
 * without a slot (a spare), the member of that name, checked to belong to the array there.
 * `disk`: the member's whole disk where the plan was made (for comments and task names).
 */
export type MemberKey = { array: ArrayRef; disk: string } & ({ slot: number } | { name: string });

const SYSFS_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The arrays a script can find elsewhere: those with a UUID the kernel showed in md/uuid. */
export function arrayRefs(arrays: readonly ArrayModel[]): ArrayRef[] {
    return arrays.flatMap(a => {
        const uuid = a.uuid?.trim().toLowerCase() ?? '';
        const members = a.members.map(m => ({ name: m.name, disk: m.disk, slot: m.slot }));
        return SYSFS_UUID.test(uuid) ? [{ name: a.name, uuid, level: a.level, members }] : [];
    });
}

export type Target =
    | { kind: 'sysctl'; path: string; key: string; bounds: Bounds | null }
    /** `attribute` is relative to /sys/block/mdN, e.g. md/stripe_cache_size. */
    | { kind: 'array'; array: ArrayRef; attribute: string; bounds: Bounds | null; needsStripeCache: boolean }
    /** `member`: the disk, as it is found elsewhere. */
    | { kind: 'disk'; member: MemberKey; attribute: string; bounds: Bounds | null };

export class AutomationError extends Error {}

const ARRAY_PATH = /^\/sys\/block\/(md[0-9a-z_]+)\/(.+)$/;
const DISK_PATH = /^\/sys\/block\/([A-Za-z0-9_.:-]+)\/(.+)$/;
const DEV_MD = /^\/dev\/(md[0-9a-z_]+)$/;
/** The attributes a script may write: the registry's, and the sync action of the sync controls. */
const OTHER_ARRAY_ATTRIBUTES = ['md/sync_action'];

type Settings = Record<string, { attribute: string; bounds: Bounds | null }>;

function boundsOf(attribute: string, settings: Settings): Bounds | null {
    return Object.values(settings).find(s => s.attribute === attribute)?.bounds ?? null;
}

/** Attributes only raid4/5/6 have: a host where the array has another level must be told so. */
function needsStripeCache(attribute: string): boolean {
    return attribute === ARRAY_SETTINGS.stripeCache.attribute || attribute === ARRAY_SETTINGS.groupThreads.attribute;
}

export function arrayByName(refs: readonly ArrayRef[], name: string): ArrayRef {
    const ref = refs.find(r => r.name === name);
    if (!ref) throw new AutomationError(`${name} has no UUID the kernel shows: it cannot be found on another host`);
    return ref;
}

/** The member a disk serves, in a slot where it has one (a disk with partitions in two arrays: the first). */
function memberOfDisk(refs: readonly ArrayRef[], disk: string): MemberKey {
    const held = refs.flatMap(array => array.members.filter(m => m.disk === disk).map(member => ({ array, member })));
    const slotted = held.find(h => h.member.slot !== null);
    if (slotted?.member.slot != null) return { array: slotted.array, disk, slot: slotted.member.slot };
    if (held[0]) return { array: held[0].array, disk, name: held[0].member.name };
    throw new AutomationError(`${disk} holds no member of an array with a UUID: it cannot be found on another host`);
}

export function memberKeyId(key: MemberKey): string {
    return 'slot' in key ? `${key.array.uuid}/slot/${key.slot}` : `${key.array.uuid}/name/${key.name}`;
}

/** Why a member's disk cannot be found on a host: said the same by the script and the playbook. */
export function memberMissingText(key: MemberKey): string {
    return 'slot' in key
        ? `md array ${key.array.uuid} has no member in slot ${key.slot} on this host`
        : `md array ${key.array.uuid} has no member ${key.name} on this host`;
}

/** A member as a person reads it: "the member in slot 0 of md array …". */
export function memberText(key: MemberKey): string {
    return 'slot' in key ? `the member in slot ${key.slot} of md array ${key.array.uuid}` : `member ${key.name} of md array ${key.array.uuid}`;
}

/** Why a target's file is missing on a host. */
export function missingText(t: Target): string {
    switch (t.kind) {
    case 'sysctl': return `this kernel has no ${t.key}`;
    case 'array': return `md array ${t.array.uuid} has no ${t.attribute} on this kernel`;
    case 'disk': return `the disk of ${memberText(t.member)} has no ${t.attribute}`;
    }
}

/**
 * Prints the whole disk (sdb) of a member (sdb1 or sdb) of an array, or nothing where it has none:
 * `sh -c` argv root, md device, "slot" or "name", the slot or name; with "member" after them, the
 * member's own name (sdb1) instead. A partition is found by its
 * /sys/block/DISK/PART/partition, as raidtune's own reading does; fixed text, values only as argv.
 */
export const MEMBER_DISK = [
    'm=',
    'if [ "$3" = name ]; then if [ -e "$1/sys/block/$2/md/dev-$4" ]; then m=$4; fi',
    // A replacement md is filling shows the slot of the member it replaces: that member is the slot's.
    'else for s in "$1/sys/block/$2/md"/dev-*/slot; do if [ "$(cat "$s" 2>/dev/null)" = "$4" ]; then ' +
        'case ,$(cat "${s%/slot}/state" 2>/dev/null), in *,replacement,*) ;; *) m=${s%/slot}; m=${m##*/dev-} ;; esac; fi; done; fi',
    'if [ -z "$m" ]; then exit 0; fi',
    'if [ "${5:-}" = member ]; then echo "$m"; exit 0; fi',
    'for p in "$1"/sys/block/*/"$m"/partition; do if [ -e "$p" ]; then p=${p%/"$m"/partition}; echo "${p##*/}"; exit 0; fi; done',
    'echo "$m"',
].join('; ');

/** Where a kernel attribute write lands, or an error for a path outside what raidtune writes. */
export function attributeTarget(path: string, refs: readonly ArrayRef[]): Target {
    const global = Object.values(GLOBAL_SETTINGS).find(s => s.path === path);
    if (global) return { kind: 'sysctl', path, key: global.kept.key, bounds: global.bounds };
    const array = ARRAY_PATH.exec(path);
    if (array) {
        const attribute = array[2];
        const known = Object.values(ARRAY_SETTINGS).some(s => s.attribute === attribute)
            || OTHER_ARRAY_ATTRIBUTES.includes(attribute);
        if (!known) throw new AutomationError(`${path} is not an attribute raidtune writes`);
        return {
            kind: 'array', array: arrayByName(refs, array[1]), attribute,
            bounds: boundsOf(attribute, ARRAY_SETTINGS), needsStripeCache: needsStripeCache(attribute),
        };
    }
    const disk = DISK_PATH.exec(path);
    if (disk && Object.values(DISK_SETTINGS).some(s => s.attribute === disk[2])) {
        return { kind: 'disk', member: memberOfDisk(refs, disk[1]), attribute: disk[2], bounds: boundsOf(disk[2], DISK_SETTINGS) };
    }
    throw new AutomationError(`${path} is not an attribute raidtune writes`);
}

/** A value outside a setting's range is refused here too: the generators never print one. */
export function checkedValue(target: Target, value: string): string {
    if (!target.bounds || value === 'system') return value;
    const n = /^-?\d+$/.test(value) ? Number(value) : NaN;
    if (!(n >= target.bounds.min && n <= target.bounds.max)) {
        throw new AutomationError(`${value} is outside ${target.bounds.min}..${target.bounds.max}`);
    }
    return value;
}

/** A word of an mdadm argv: /dev/mdN becomes a reference to the array, by UUID. */
export type ArgvWord = { literal: string } | { array: ArrayRef };

/**
 * A command that takes a device of this host by its kernel name: a new member (--add, --add-spare,
 * --replace), a wipe, a partition table. On another host a device of that name may hold data: the
 * exports say such a step only as a new disk's (newDisk.ts), which they find by what it reports.
 */
export function takesHostDevice(step: Step): boolean {
    if (step.kind !== 'run') return false;
    if (step.argv[0] === 'wipefs' || step.argv[0] === 'sfdisk') return true;
    return step.argv[0] === 'mdadm' && step.argv.some(w => w === '--add' || w === '--add-spare' || w === '--replace');
}

/** Commands bound to this host: fed input taken from it, or taking one of its devices by name. */
export function refuseHostBound(step: RunCommandStep): void {
    if (step.stdin !== undefined) throw new AutomationError(`${step.argv.join(' ')} reads input taken from this host: not exported`);
    if (takesHostDevice(step)) throw new AutomationError(`${step.argv.join(' ')} takes a device of this host by name: not exported`);
}

export function argvWords(argv: readonly string[], refs: readonly ArrayRef[]): ArgvWord[] {
    return argv.map(word => {
        const md = DEV_MD.exec(word);
        return md ? { array: arrayByName(refs, md[1]) } : { literal: word };
    });
}

/** The arrays a plan touches, each once, in the order they first appear. */
export function arraysOfPlan(plan: Plan, refs: readonly ArrayRef[]): ArrayRef[] {
    const seen = new Map<string, ArrayRef>();
    const add = (ref: ArrayRef) => { if (!seen.has(ref.uuid)) seen.set(ref.uuid, ref); };
    for (const step of plan.steps) {
        if (step.kind === 'write-attribute') {
            const t = attributeTarget(step.path, refs);
            if (t.kind === 'array') add(t.array);
            if (t.kind === 'disk') add(t.member.array);
        } else if (step.kind === 'run') {
            for (const w of argvWords(step.argv, refs)) if ('array' in w) add(w.array);
        }
    }
    return [...seen.values()];
}

/** What a plan touches, each once: its arrays and member disks, numbered by first appearance. */
export interface PlanNames {
    arrays: readonly ArrayRef[];
    disks: readonly MemberKey[];
}

export function planNames(plan: Plan, refs: readonly ArrayRef[]): PlanNames {
    return { arrays: arraysOfPlan(plan, refs), disks: memberDisksOfPlan(plan, refs) };
}

/** The number (from 1) of an array or member disk of a plan: the generators name their variables by it. */
export function arrayNumber(names: PlanNames, ref: ArrayRef): number {
    return names.arrays.findIndex(a => a.uuid === ref.uuid) + 1;
}

export function diskNumber(names: PlanNames, key: MemberKey): number {
    return names.disks.findIndex(k => memberKeyId(k) === memberKeyId(key)) + 1;
}

/** The member disks a plan writes to, each once, in the order they first appear. */
export function memberDisksOfPlan(plan: Plan, refs: readonly ArrayRef[]): MemberKey[] {
    const seen = new Map<string, MemberKey>();
    for (const step of plan.steps) {
        if (step.kind !== 'write-attribute') continue;
        const t = attributeTarget(step.path, refs);
        if (t.kind === 'disk' && !seen.has(memberKeyId(t.member))) seen.set(memberKeyId(t.member), t.member);
    }
    return [...seen.values()];
}

/** Members an `mdadm --fail X --remove X` removes (its idempotence: gone already is done). */
export function removedMember(step: Step): string | null {
    if (step.kind !== 'run' || step.argv[0] !== 'mdadm') return null;
    const i = step.argv.indexOf('--remove');
    const dev = i >= 0 ? step.argv[i + 1] : undefined;
    return dev?.startsWith('/dev/') ? dev.slice('/dev/'.length) : null;
}

/** `--bitmap=internal|none` of an `mdadm --grow`, which says what end state it reaches. */
export function grownBitmap(step: Step): string | null {
    if (step.kind !== 'run' || step.argv[0] !== 'mdadm' || !step.argv.includes('--grow')) return null;
    return step.argv.find(w => w.startsWith('--bitmap='))?.slice('--bitmap='.length) ?? null;
}

/** systemctl verbs that make a unit read its files again: worth running only where a file changed. */
const RELOADS = ['restart', 'try-restart', 'reload-or-restart', 'daemon-reload'];

/** Whether a command only makes systemd or a service read the files the plan edits or writes. */
export function restartsForFiles(step: Step): boolean {
    return step.kind === 'run' && /(^|\/)systemctl$/.test(step.argv[0]) && RELOADS.includes(step.argv[1]);
}

/**
 * `systemctl enable --now` or `disable --now` of units: the state it leaves them in. Run again
 * where they are so already it changes nothing, yet reports a change: the exports test first.
 */
export interface UnitSwitch {
    want: 'on' | 'off';
    systemctl: string;
    units: string[];
}

export function unitSwitch(step: Step): UnitSwitch | null {
    if (step.kind !== 'run' || !/(^|\/)systemctl$/.test(step.argv[0]) || step.argv[2] !== '--now') return null;
    const verb = step.argv[1];
    if (verb !== 'enable' && verb !== 'disable') return null;
    return { want: verb === 'enable' ? 'on' : 'off', systemctl: step.argv[0], units: step.argv.slice(3) };
}

/**
 * Exits 0 when each unit named is enabled and active ($2 on) or neither ($2 off); $1 is systemctl.
 * Fixed text, given its values as arguments (`sh -c UNITS_ARE units_are systemctl on a.timer`).
 */
export const UNITS_ARE = 'systemctl=$1; want=$2; shift 2; for u; do e=0; a=0; "$systemctl" is-enabled --quiet "$u" && e=1; ' +
    '"$systemctl" is-active --quiet "$u" && a=1; case $want$e$a in on11|off00) ;; *) exit 1 ;; esac; done';

/**
 * The plan's unit switches by step index, and for a `systemctl start` in a plan that switches units
 * (the check window's `off`, run when its timers go on or off) those switches: it runs only where
 * one of them changes something. The states are read before the first change.
 */
export interface UnitGates {
    switches: Map<number, UnitSwitch>;
    /** The indexes of the switches the step at `index` goes with ([]: it runs as it is). */
    startGatedBy: (index: number) => number[];
}

export function unitGates(plan: Plan): UnitGates {
    const switches = new Map<number, UnitSwitch>();
    plan.steps.forEach((step, i) => {
        const found = unitSwitch(step);
        if (found) switches.set(i, found);
    });
    const isStart = (step: Step | undefined) =>
        step?.kind === 'run' && /(^|\/)systemctl$/.test(step.argv[0]) && step.argv[1] === 'start';
    return { switches, startGatedBy: index => (isStart(plan.steps[index]) ? [...switches.keys()] : []) };
}
