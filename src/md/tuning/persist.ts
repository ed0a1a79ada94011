// SPDX-License-Identifier: LGPL-2.1-or-later
// "Keep after reboot": md settings live in the kernel and are gone at the next boot. raidtune keeps
// them the way admins do by hand: the global limits in a sysctl.d file (systemd-sysctl applies it
// at boot; a modules-load.d entry loads md first, so dev.raid.* exists by then), the per-array and
// member-disk attributes in a udev rule that writes them when the device appears. The files are
// rendered here from the live model and parsed back (render -> parse round-trips), so the page can
// say whether the live value is the one kept for reboot. The files' text is keptFiles.ts's. An
// existing sysctl.d file is edited line by line (issue #31: a line an admin added stays); each
// file's text is checked at Apply against the one the dialog opened with.

import { memoLast, memoPerObject, memoPerReading } from '../memo';
import { msg, N_, type Message } from '../message';
import type { ArrayModel, DiskModel, HostModel, RuleMatch, UdevRule } from '../modelTypes';
import { applyLineEdits, type LineEdit } from '../lineEdit';
import type { Plan, Step, WriteFileStep } from '../plan';
import {
    ARRAY_SETTINGS, DISK_SETTINGS, GLOBAL_SETTINGS, type DeviceSetting, type GlobalSetting, type KeptHow,
    type SettingUnit,
} from '../settings/registry';
import { memberDisks } from './diskQueue';
import {
    arrayMatch, diskMatch, MODULES_LOAD_FILE, MODULES_LOAD_TEXT, parseSysctl, renderSysctl, renderUdevRules, sameMatch,
    sysctlLine, SYSCTL_FILE, UDEV_RULES_FILE,
} from './keptFiles';
import type { PlanResult } from './result';

export interface PersistDirs {
    sysctlDir: string;
    udevRulesDir: string;
    modulesLoadDir: string;
}

/** Whether the device a rule is for is present now (a stopped array or a pulled disk has not lost its settings). */
function rulePresent(host: HostModel, rule: UdevRule): boolean {
    if (rule.match.by === 'uuid' || rule.match.by === 'name') return host.arrays.some(a => sameMatch(arrayMatch(a), rule.match));
    return [...host.disks.values()].some(d => sameMatch(diskMatch(d), rule.match));
}

// ---- what the kernel starts with, and what is live ----

export type KeptUnit = SettingUnit;

/** The array and disk settings a udev rule keeps, in the order it writes them, and the kept sysctls. */
const KEPT_ARRAY_SETTINGS: readonly DeviceSetting<ArrayModel>[] = Object.values(ARRAY_SETTINGS).filter(keptInUdevRule);
const KEPT_DISK_SETTINGS: readonly DeviceSetting<DiskModel>[] = Object.values(DISK_SETTINGS).filter(keptInUdevRule);
const KEPT_SYSCTLS: readonly GlobalSetting[] = Object.values(GLOBAL_SETTINGS).filter(s => s.kept.file === 'sysctl.d');

function keptInUdevRule(setting: { kept: KeptHow }): boolean {
    return setting.kept.file === 'udev rule';
}

function numberValue(n: number | null | undefined): string | null {
    return n === null || n === undefined ? null : String(n);
}

function bootValueOf<D>(host: HostModel, deviceName: string, s: DeviceSetting<D>, live: string | null): string | null {
    if (s.bootDefault !== null) return s.bootDefault;
    const path = `/sys/block/${deviceName}/${s.attribute}`;
    return host.journal?.entries.find(e => e.path === path)?.original ?? live;
}

/** The rule that would give a device its live settings after a reboot; null when it needs none. */
function liveRule<D>(host: HostModel, name: string, device: D, match: RuleMatch,
    settings: readonly DeviceSetting<D>[]): UdevRule | null {
    const attributes = settings.flatMap((s): [string, string][] => {
        const value = s.live(device);
        return value === null || value === bootValueOf(host, name, s, value) ? [] : [[s.attribute, value]];
    });
    return attributes.length ? { match, attributes } : null;
}

export function liveArrayRule(host: HostModel, array: ArrayModel): UdevRule | null {
    return liveRule(host, array.name, array, arrayMatch(array), KEPT_ARRAY_SETTINGS);
}

export function liveDiskRule(host: HostModel, disk: DiskModel): UdevRule | null {
    return liveRule(host, disk.name, disk, diskMatch(disk), KEPT_DISK_SETTINGS);
}

/** What one array and its member disks need kept, and how their live values compare with the kept ones. */
interface ArrayKeeping {
    rule: UdevRule | null;
    comparisons: (KeptComparison | null)[];
    /** By disk name, only the disks that need a rule / have something to compare. */
    diskRules: Map<string, UdevRule>;
    diskComparisons: Map<string, KeptComparison[]>;
}

// Remembered per array (src/md/memo.ts): the member disks come from host.disks, the boot values
// from the journal, the kept values from the files. Per array object (an idle array), then per
// what is read of it (a syncing array, new at every refresh with the same settings).
const keepingInputs = (host: HostModel) => [host.disks, host.journal, host.persisted];

/** Everything keepingOf reads of an array: its name, what its rule matches, its members, its settings. */
function arrayReading(array: ArrayModel): [string, ...unknown[]] {
    return [array.name, array.uuid, array.metadata, array.members, ...KEPT_ARRAY_SETTINGS.map(s => s.live(array))];
}

const keepingOf = memoPerObject(keepingInputs, memoPerReading(keepingInputs, arrayReading,
    (host, array: ArrayModel): ArrayKeeping => {
        const keeping: ArrayKeeping = {
            rule: liveArrayRule(host, array),
            comparisons: deviceComparisons(host, array.name, array, arrayMatch(array), KEPT_ARRAY_SETTINGS),
            diskRules: new Map(),
            diskComparisons: new Map(),
        };
        for (const disk of memberDisks(host, array)) {
            const { rule, comparisons } = diskKeepingOf(host, disk);
            if (rule) keeping.diskRules.set(disk.name, rule);
            if (comparisons.length) keeping.diskComparisons.set(disk.name, comparisons);
        }
        return keeping;
    }));

/** What the whole host's keeping reads: while none of it changed, neither did the rules or comparisons. */
const hostKeepingInputs = (host: HostModel) =>
    [host.global, ...keepingInputs(host), ...host.arrays.map(a => keepingOf(host, a))];

// A disk's settings object stays the same while they do, whatever its array does.
const diskKeepingOf = memoPerObject((host: HostModel) => [host.journal, host.persisted],
    (host, disk: DiskModel) => ({
        rule: liveDiskRule(host, disk),
        comparisons: deviceComparisons(host, disk.name, disk, diskMatch(disk), KEPT_DISK_SETTINGS)
            .filter(c => c !== null),
    }));

/** One entry per disk under any array, in array order (a disk's queue is shared by every array on it). */
function perTunedDisk<T>(host: HostModel, part: (keeping: ArrayKeeping) => Map<string, T>): T[] {
    const byDisk = new Map<string, T>();
    for (const array of host.arrays) {
        for (const [disk, value] of part(keepingOf(host, array))) if (!byDisk.has(disk)) byDisk.set(disk, value);
    }
    return [...byDisk.values()];
}

/**
 * The sysctls that would give the live global settings after a reboot, as their entries' `kept` says
 * (src/md/settings/registry.ts): those kept together all when any differs from its boot default,
 * none when all are; each of the others where the kernel has it and it differs from its default.
 * null when one kept together is unknown.
 */
export function liveSysctls(host: HostModel): Map<string, string> | null {
    const together = KEPT_SYSCTLS.filter(s => s.kept.together);
    const values = together.map(s => [s.kept.key, numberValue(s.live(host))] as const);
    if (values.some(([, v]) => v === null)) return null;
    const kept = new Map(together.every((s, i) => values[i][1] === s.bootDefault) ? [] : values as [string, string][]);
    for (const s of KEPT_SYSCTLS.filter(s => !s.kept.together)) {
        const live = numberValue(s.live(host));
        if (live !== null && live !== s.bootDefault) kept.set(s.kept.key, live);
    }
    return kept;
}

// ---- plans ----

export function sysctlPath(dirs: PersistDirs): string {
    return `${dirs.sysctlDir}/${SYSCTL_FILE}`;
}

export function udevRulesPath(dirs: PersistDirs): string {
    return `${dirs.udevRulesDir}/${UDEV_RULES_FILE}`;
}

export function modulesLoadPath(dirs: PersistDirs): string {
    return `${dirs.modulesLoadDir}/${MODULES_LOAD_FILE}`;
}

function fileStep(setting: Message, path: string, content: string | null, previous: string | null): WriteFileStep {
    return { kind: 'write-file', setting, path, content, previous, checked: true };
}

const sysctlSetting = () => msg(N_('system rebuild speed limits kept for reboot'));

/**
 * The sysctl.d file given `sysctls` (none: nothing kept). A new file is written whole, with its
 * header; an existing one is edited line by line, each kept sysctl's line set or removed, so lines
 * an admin added stay; it is removed once it sets nothing else. null: it already says this.
 */
function sysctlStep(host: HostModel, dirs: PersistDirs, sysctls: ReadonlyMap<string, string>): Step | null {
    const kept = host.persisted.sysctl?.text ?? null;
    const path = sysctlPath(dirs);
    if (kept === null) return sysctls.size ? fileStep(sysctlSetting(), path, renderSysctl(sysctls), null) : null;
    const edits: LineEdit[] = KEPT_SYSCTLS.map(({ kept: { key } }) => {
        const value = sysctls.get(key);
        return { key, lines: value === undefined ? [] : [sysctlLine(key, value)] };
    }).filter(edit => applyLineEdits(kept, 'sysctl', [edit]) !== kept);
    const after = applyLineEdits(kept, 'sysctl', edits);
    if (!parseSysctl(after).size) return fileStep(sysctlSetting(), path, null, kept);
    if (after === kept) return null;
    return { kind: 'edit-file', setting: sysctlSetting(), path, format: 'sysctl', edits, opened: kept };
}

/**
 * The rules that give every array and member disk its live settings at boot. Rules for devices not
 * present now are kept as they are: a stopped array or a pulled disk has not lost its settings.
 */
export const wantedRules = memoLast(hostKeepingInputs, (host: HostModel): UdevRule[] => {
    const arrays = host.arrays.map(a => keepingOf(host, a).rule);
    const disks = perTunedDisk(host, k => k.diskRules);
    const absent = (host.persisted.udev?.rules ?? []).filter(r => !rulePresent(host, r));
    return [...arrays, ...disks, ...absent].filter((r): r is UdevRule => r !== null);
});

/**
 * Writes (or removes, when nothing differs from the kernel's boot values) the files; unchanged files
 * are left alone.
 */
export function keepPlan(host: HostModel, dirs: PersistDirs): PlanResult<'persist'> {
    const sysctls = liveSysctls(host);
    if (sysctls === null) return { errors: { persist: msg(N_('The system rebuild speed limits are unknown, so they cannot be kept.')) } };
    const rules = wantedRules(host);
    const steps: Step[] = [
        fileStep(msg(N_('md driver loaded at boot, so the kept limits apply')), modulesLoadPath(dirs),
            sysctls.size ? MODULES_LOAD_TEXT : null, host.persisted.modulesLoad?.text ?? null),
        fileStep(msg(N_('array and disk settings kept for reboot')), udevRulesPath(dirs),
            rules.length ? renderUdevRules(rules) : null, host.persisted.udev?.text ?? null),
    ].filter(s => s.content !== s.previous);
    const sysctl = sysctlStep(host, dirs, sysctls);
    if (sysctl) steps.splice(1, 0, sysctl);
    return { plan: { title: msg(N_('Keep the current settings after a reboot')), steps }, warnings: absentDeviceNotes(host) };
}

function absentDeviceNotes(host: HostModel): Message[] {
    return (host.persisted.udev?.rules ?? []).filter(r => !rulePresent(host, r)).map(r =>
        r.match.by === 'uuid' || r.match.by === 'name'
            ? msg(N_('The kept settings of $0 stay: that array is not assembled now.'), matchLabel(r.match))
            : msg(N_('The kept settings of disk $0 stay: that disk is not present now.'), matchLabel(r.match)));
}

export function matchLabel(match: RuleMatch): string {
    switch (match.by) {
    case 'uuid': return match.uuid;
    case 'wwid': return match.wwid;
    default: return match.name;
    }
}

/** Removes the files: at the next boot the kernel starts with its defaults again. */
export function forgetPlan(host: HostModel, dirs: PersistDirs): Plan {
    const { sysctl, udev, modulesLoad } = host.persisted;
    const steps: Step[] = [];
    if (modulesLoad) steps.push(fileStep(msg(N_('md driver loaded at boot, so the kept limits apply')), modulesLoadPath(dirs), null, modulesLoad.text));
    const sysctlForgotten = sysctl && sysctlStep(host, dirs, new Map());
    if (sysctlForgotten) steps.push(sysctlForgotten);
    if (udev) steps.push(fileStep(msg(N_('array and disk settings kept for reboot')), udevRulesPath(dirs), null, udev.text));
    return { title: msg(N_('Stop keeping settings after a reboot')), steps };
}

// ---- live against kept ----

export type KeptState = 'kept' | 'differs' | 'not-kept';

export interface KeptComparison {
    setting: Message;
    /** Live value as the kernel file says it ("50000", "system", "mq-deadline"); null when unknown. */
    live: string | null;
    /** The value it gets at boot: the kept one, else the kernel's default. */
    atBoot: string;
    /** Whether a file keeps it. */
    kept: boolean;
    state: KeptState;
    /** Speeds are KiB/s, read-ahead KiB; the rest shown as they are. */
    unit: KeptUnit;
}

function compare(setting: Message, live: string | null, keptValue: string | undefined, bootValue: string | null,
    unit: KeptUnit): KeptComparison | null {
    if (keptValue === undefined && (live === null || bootValue === null || live === bootValue)) return null;
    const atBoot = keptValue ?? bootValue!;
    const state: KeptState = keptValue === undefined ? 'not-kept' : live === keptValue ? 'kept' : 'differs';
    return { setting, live, atBoot, kept: keptValue !== undefined, state, unit };
}

function deviceComparisons<D>(host: HostModel, name: string, device: D, match: RuleMatch,
    settings: readonly DeviceSetting<D>[]): (KeptComparison | null)[] {
    const rule = host.persisted.udev?.rules.find(r => sameMatch(r.match, match));
    const kept = new Map(rule?.attributes);
    return settings.map(s => {
        const live = s.live(device);
        return compare(msg(s.label, name), live, kept.get(s.attribute), bootValueOf(host, name, s, live), s.unit);
    });
}

/**
 * Every setting that is kept for reboot or differs from what the kernel starts with: whether the
 * live value is the kept one. Settings at their boot value and not kept are left out.
 */
export const keptComparisons = memoLast(hostKeepingInputs, (host: HostModel): KeptComparison[] => {
    const sysctls = host.persisted.sysctl?.values;
    const global = KEPT_SYSCTLS.map(s =>
        compare(msg(s.label), numberValue(s.live(host)), sysctls?.get(s.kept.key), s.bootDefault, s.unit));
    const arrays = host.arrays.flatMap(a => keepingOf(host, a).comparisons);
    const disks = perTunedDisk(host, k => k.diskComparisons).flat();
    return [...global, ...arrays, ...disks].filter((c): c is KeptComparison => c !== null);
});
