// SPDX-License-Identifier: LGPL-2.1-or-later
// "Keep after reboot": md settings live in the kernel and are gone at the next boot. raidtune keeps
// them the way admins do by hand: the global limits in a sysctl.d file (systemd-sysctl applies it
// at boot; a modules-load.d entry loads md first, so dev.raid.* exists by then), the per-array and
// member-disk attributes in a udev rule that writes them when the device appears. The files are
// rendered here from the live model and parsed back (render -> parse round-trips), so the page can
// say whether the live value is the one kept for reboot.

import { memoLast, memoPerObject, memoPerReading } from '../memo';
import { msg, N_, type Message } from '../message';
import type { ArrayModel, DiskModel, HostModel, PersistedSettings, RuleMatch, UdevRule } from '../modelTypes';
import type { Plan, WriteFileStep } from '../plan';
import {
    ARRAY_SETTINGS, DISK_SETTINGS, GLOBAL_SETTINGS, type DeviceSetting, type GlobalSetting, type SettingUnit,
} from '../settings/registry';
import { memberDisks } from './diskQueue';
import type { PlanResult } from './result';

export const SYSCTL_FILE = '90-raidtune.conf';
/**
 * udev applies rules files in lexical order and starts every event with only the kernel's
 * properties: MD_UUID exists once mdadm's 63-md-raid-arrays.rules has imported `mdadm --detail
 * --export`. A name sorting after it (64-) is what makes the ENV{MD_UUID} match work.
 */
export const UDEV_RULES_FILE = '64-raidtune.rules';
/**
 * systemd-sysctl runs after systemd-modules-load, but md_mod is often loaded only later, when udev
 * or mdadm assemble the first array: /proc/sys/dev/raid does not exist yet and the kept limits are
 * silently skipped. Loading md_mod from modules-load.d makes them apply (a built-in md is fine too).
 */
export const MODULES_LOAD_FILE = 'raidtune.conf';

/** Where the gather script puts the files in a snapshot (its `raidtune-sysctl`, `-udev`, `-modules` roots). */
export const SYSCTL_SNAPSHOT_PATH = `/raidtune-sysctl/${SYSCTL_FILE}`;
export const UDEV_SNAPSHOT_PATH = `/raidtune-udev/${UDEV_RULES_FILE}`;
export const MODULES_LOAD_SNAPSHOT_PATH = `/raidtune-modules/${MODULES_LOAD_FILE}`;

export interface PersistDirs {
    sysctlDir: string;
    udevRulesDir: string;
    modulesLoadDir: string;
}

// ---- UUIDs ----

const SYSFS_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MDADM_UUID = /^[0-9a-f]{8}(:[0-9a-f]{8}){3}$/;

/**
 * sysfs md/uuid ("f2e16c73-83d8-51dd-1941-28e831d2c297") as udev's MD_UUID, which mdadm prints
 * as four groups of 8 ("f2e16c73:83d851dd:194128e8:31d2c297"): the same hex digits in the same
 * order for 1.x metadata (checked on every real-kernel capture against `mdadm --detail`). 0.90
 * superblocks keep the UUID as host-endian words, so the two orders differ there: null.
 */
export function mdadmUuid(sysfsUuid: string | null, metadata: string | null): string | null {
    const uuid = sysfsUuid?.trim().toLowerCase() ?? '';
    if (!SYSFS_UUID.test(uuid) || !metadata?.startsWith('1.')) return null;
    return uuid.replace(/-/g, '').match(/.{8}/g)!.join(':');
}

/** How the rule for this array matches it; by name only when the UUID cannot be used. */
export function arrayMatch(array: ArrayModel): RuleMatch {
    const uuid = mdadmUuid(array.uuid, array.metadata);
    return uuid ? { by: 'uuid', uuid } : { by: 'name', name: array.name };
}

/**
 * A WWID udev can match exactly: printable, and none of the characters a udev match value treats
 * as a pattern (* ? [ ] |) or cannot hold (" and backslash). ATA disks report "t10.ATA  <model>  <serial>".
 */
const MATCHABLE_WWID = /^[\x20-\x7e]+$/;
const UDEV_PATTERN_CHARS = /["\\*?[\]|]/;

/** How the rule for this disk matches it; by kernel name only when it reports no usable WWID. */
export function diskMatch(disk: DiskModel): RuleMatch {
    const wwid = disk.wwid?.trim();
    return wwid && MATCHABLE_WWID.test(wwid) && !UDEV_PATTERN_CHARS.test(wwid) ? { by: 'wwid', wwid } : { by: 'disk-name', name: disk.name };
}

function sameMatch(a: RuleMatch, b: RuleMatch): boolean {
    switch (a.by) {
    case 'uuid': return b.by === 'uuid' && a.uuid === b.uuid;
    case 'wwid': return b.by === 'wwid' && a.wwid === b.wwid;
    default: return b.by === a.by && a.name === b.name;
    }
}

/** Whether the device a rule is for is present now (a stopped array or a pulled disk has not lost its settings). */
function rulePresent(host: HostModel, rule: UdevRule): boolean {
    if (rule.match.by === 'uuid' || rule.match.by === 'name') return host.arrays.some(a => sameMatch(arrayMatch(a), rule.match));
    return [...host.disks.values()].some(d => sameMatch(diskMatch(d), rule.match));
}

// ---- what the kernel starts with, and what is live ----

export type KeptUnit = SettingUnit;

/** The array and disk settings a udev rule keeps, in the order it writes them. */
const KEPT_ARRAY_SETTINGS: readonly DeviceSetting<ArrayModel>[] = Object.values(ARRAY_SETTINGS);
const KEPT_DISK_SETTINGS: readonly DeviceSetting<DiskModel>[] = Object.values(DISK_SETTINGS);
const KEPT_SYSCTLS: readonly GlobalSetting[] = Object.values(GLOBAL_SETTINGS);

function numberValue(n: number | null | undefined): string | null {
    return n === null || n === undefined ? null : String(n);
}

function bootValueOf<D>(host: HostModel, deviceName: string, s: DeviceSetting<D>, live: string | null): string | null {
    if (s.bootDefault !== null) return s.bootDefault;
    const path = `/sys/block/${deviceName}/${s.attribute}`;
    return host.journal?.entries.find(e => e.path === path)?.original ?? live;
}

/** The rule that would give a device its live settings after a reboot; null when it needs none. */
function liveRule<D>(host: HostModel, name: string, device: D, match: RuleMatch, settings: readonly DeviceSetting<D>[]): UdevRule | null {
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
const hostKeepingInputs = (host: HostModel) => [host.global, ...keepingInputs(host), ...host.arrays.map(a => keepingOf(host, a))];

// A disk's settings object stays the same while they do, whatever its array does.
const diskKeepingOf = memoPerObject((host: HostModel) => [host.journal, host.persisted],
    (host, disk: DiskModel) => ({
        rule: liveDiskRule(host, disk),
        comparisons: deviceComparisons(host, disk.name, disk, diskMatch(disk), KEPT_DISK_SETTINGS).filter(c => c !== null),
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
 * The sysctls that would give the live global limits after a reboot: both speed lines when either
 * differs from the kernel default (the file then says the whole setting), none when both are; the
 * sync I/O depth where the kernel has it and it differs from its default.
 */
export function liveSysctls(host: HostModel): Map<string, string> | null {
    const settings = KEPT_SYSCTLS;
    const limits = settings.filter(s => !s.featureDetected);
    const values = limits.map(s => [s.sysctl, numberValue(s.live(host))] as const);
    if (values.some(([, v]) => v === null)) return null;
    const kept = new Map(limits.every((s, i) => values[i][1] === s.bootDefault) ? [] : values as [string, string][]);
    for (const s of settings.filter(s => s.featureDetected)) {
        const live = numberValue(s.live(host));
        if (live !== null && live !== s.bootDefault) kept.set(s.sysctl, live);
    }
    return kept;
}

// ---- the files ----

const SYSCTL_HEADER = [
    '# Written by raidtune (Cockpit, RAID tuning): md rebuild speed limits, in KiB/s per member',
    '# disk, applied by systemd-sysctl at boot. Remove it in raidtune ("Stop keeping") or delete it.',
];

const UDEV_HEADER = [
    '# Written by raidtune (Cockpit, RAID tuning): md array and member disk settings, written when an',
    '# array starts ("change" event) or a disk appears. MD_UUID comes from mdadm\'s',
    '# 63-md-raid-arrays.rules, hence the 64- name. Remove it in raidtune ("Stop keeping") or delete it.',
];

const MODULES_LOAD_TEXT = [
    '# Written by raidtune (Cockpit, RAID tuning): load the md driver at boot, before systemd-sysctl',
    `# applies ${SYSCTL_FILE} (dev.raid.* exists only once md is loaded). Removed with that file.`,
    'md_mod',
].join('\n') + '\n';

export function renderSysctl(values: Map<string, string>): string {
    return [...SYSCTL_HEADER, ...[...values].map(([key, value]) => `${key} = ${value}`)].join('\n') + '\n';
}

/** sysctl.d syntax: `key = value`, `#` or `;` comments; keys may use `/` for `.` (sysctl.d(5)). */
export function parseSysctl(text: string): Map<string, string> {
    const values = new Map<string, string>();
    for (const raw of text.split('\n')) {
        const line = raw.trim();
        if (!line || line.startsWith('#') || line.startsWith(';')) continue;
        const m = line.match(/^-?([^=\s]+)\s*=\s*(.*)$/);
        if (m) values.set(m[1].replace(/\//g, '.'), m[2].trim());
    }
    return values;
}

function matchKeys(match: RuleMatch): string {
    switch (match.by) {
    case 'uuid': return `KERNEL=="md*", ENV{MD_UUID}=="${match.uuid}"`;
    case 'name': return `KERNEL=="${match.name}"`;
    // ATTRS: the WWID is an attribute of the disk's SCSI device (its parent) or of an NVMe namespace
    // itself; DEVTYPE keeps the disk's partitions, which see the same parent, out.
    case 'wwid': return `ENV{DEVTYPE}=="disk", ATTRS{wwid}=="${match.wwid}"`;
    case 'disk-name': return `ENV{DEVTYPE}=="disk", KERNEL=="${match.name}"`;
    }
}

function ruleComment(match: RuleMatch): string {
    switch (match.by) {
    case 'uuid': return `# md array ${match.uuid}`;
    case 'name': return `# ${match.name} (matched by name: its UUID is not usable by udev)`;
    case 'wwid': return `# disk ${match.wwid}`;
    case 'disk-name': return `# disk ${match.name} (matched by name: it reports no WWID; the name can change when disks are added or moved)`;
    }
}

function ruleLine(match: RuleMatch, attribute: string, assignment: string): string {
    return `SUBSYSTEM=="block", ACTION=="add|change", ${matchKeys(match)}, TEST=="${attribute}", ${assignment}`;
}

/**
 * Newer kernels (7.3 here; not 6.1) take the tag set's update_nr_hwq_lock with a trylock when
 * queue/scheduler is written (elv_iosched_store), and nr_requests answered EBUSY the same way, so
 * such a write can fail while other disks of the same host adapter change theirs, as udev does for
 * every disk at once at boot: the reboot test saw it in about one boot of three on 7.3, for either
 * file. udev logs
 * the failure and moves on (and an nr_requests after a failed scheduler fails too, above the tags
 * without one). This RUN, after every ATTR of the event, writes whichever of the two is not yet in
 * effect, scheduler first, until both are, at most QUEUE_RETRY_TRIES times 0.2 s = 30 s (under
 * emulation 5 s were not always enough). A fixed script: the values are its arguments, never its
 * text; "-" stands for a value not kept.
 */
const QUEUE_RETRY_SCRIPT = 'q=/sys$$1/queue; i=0; ' +
    'while read -r s < $$q/scheduler; read -r n < $$q/nr_requests; ' +
    'if [ $$2 != - ] && case $$s in *[[]$$2[]]*) false;; *) true;; esac; then f=scheduler; v=$$2; ' +
    'elif [ $$3 != - ] && [ $$n != $$3 ]; then f=nr_requests; v=$$3; else exit 0; fi; ' +
    '[ $$i -lt $$4 ]; do i=$$((i+1)); echo $$v > $$q/$$f; sleep 0.2; done; exit 1';
export const QUEUE_RETRY_MARK = 'raidtune-queue-retry';
export const QUEUE_RETRY_TRIES = 150;

function queueRetryLine(rule: UdevRule): string | null {
    const value = (attribute: string, valid: RegExp) => {
        const v = rule.attributes.find(([a]) => a === attribute)?.[1];
        return v !== undefined && valid.test(v) ? v : '-';
    };
    const scheduler = value('queue/scheduler', /^[\w-]+$/);
    const nrRequests = value('queue/nr_requests', /^\d+$/);
    if (scheduler === '-' && nrRequests === '-') return null;
    const args = [QUEUE_RETRY_MARK, '$devpath', scheduler, nrRequests, QUEUE_RETRY_TRIES];
    const guard = scheduler !== '-' ? 'queue/scheduler' : 'queue/nr_requests';
    return ruleLine(rule.match, guard, `RUN+="/bin/sh -c '${QUEUE_RETRY_SCRIPT}' ${args.join(' ')}"`);
}

/**
 * One line per attribute, each with its own TEST guard: an attribute the device lacks skips only its
 * line. A disk's kept scheduler and nr_requests also get their retry (parsers of the file skip it: it
 * sets no ATTR).
 */
function renderRule(rule: UdevRule): string[] {
    const retry = queueRetryLine(rule);
    return [ruleComment(rule.match), ...rule.attributes.map(([attribute, value]) =>
        ruleLine(rule.match, attribute, `ATTR{${attribute}}="${value}"`)), ...retry ? [retry] : []];
}

export function renderUdevRules(rules: readonly UdevRule[]): string {
    return [...UDEV_HEADER, ...rules.flatMap(rule => ['', ...renderRule(rule)])].join('\n') + '\n';
}

const RULE_KEY = /([A-Z]+)(?:\{([^}]*)\})?\s*(==|!=|\+=|:=|=)\s*"([^"]*)"/g;

/** The rules of a udev file raidtune wrote (or an admin edited): lines that match an array or a disk and assign attributes. */
export function parseUdevRules(text: string): UdevRule[] {
    const rules: UdevRule[] = [];
    for (const raw of text.split('\n')) {
        const line = raw.trim();
        if (!line || line.startsWith('#')) continue;
        let match: RuleMatch | null = null;
        const attributes: [string, string][] = [];
        for (const [, key, arg, op, value] of line.matchAll(RULE_KEY)) {
            const stable = match?.by === 'uuid' || match?.by === 'wwid';
            if (key === 'ENV' && arg === 'MD_UUID' && op === '==' && MDADM_UUID.test(value)) match = { by: 'uuid', uuid: value };
            else if (key === 'ATTRS' && arg === 'wwid' && op === '==' && value) match = { by: 'wwid', wwid: value };
            else if (key === 'KERNEL' && op === '==' && /^[\w-]+$/.test(value) && !stable) {
                match = /^md/.test(value) ? { by: 'name', name: value } : { by: 'disk-name', name: value };
            } else if (key === 'ATTR' && arg && (op === '=' || op === ':=')) attributes.push([arg, value]);
        }
        if (!match || !attributes.length) continue;
        const known = rules.find(r => sameMatch(r.match, match));
        if (known) known.attributes.push(...attributes);
        else rules.push({ match, attributes });
    }
    return rules;
}

/** The persisted files as the gather script read them (absent files: undefined). */
export function parsePersisted(sysctlText: string | undefined, udevText: string | undefined, modulesLoadText?: string): PersistedSettings {
    return {
        sysctl: sysctlText === undefined ? null : { text: sysctlText, values: parseSysctl(sysctlText) },
        udev: udevText === undefined ? null : { text: udevText, rules: parseUdevRules(udevText) },
        modulesLoad: modulesLoadText === undefined ? null : { text: modulesLoadText },
    };
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
    return { kind: 'write-file', setting, path, content, previous };
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

/** Writes (or removes, when nothing differs from the kernel's boot values) the files; unchanged files are left alone. */
export function keepPlan(host: HostModel, dirs: PersistDirs): PlanResult<'persist'> {
    const sysctls = liveSysctls(host);
    if (sysctls === null) return { errors: { persist: msg(N_('The system rebuild speed limits are unknown, so they cannot be kept.')) } };
    const rules = wantedRules(host);
    const steps = [
        fileStep(msg(N_('md driver loaded at boot, so the kept limits apply')), modulesLoadPath(dirs),
            sysctls.size ? MODULES_LOAD_TEXT : null, host.persisted.modulesLoad?.text ?? null),
        fileStep(msg(N_('system rebuild speed limits kept for reboot')), sysctlPath(dirs),
            sysctls.size ? renderSysctl(sysctls) : null, host.persisted.sysctl?.text ?? null),
        fileStep(msg(N_('array and disk settings kept for reboot')), udevRulesPath(dirs),
            rules.length ? renderUdevRules(rules) : null, host.persisted.udev?.text ?? null),
    ].filter(s => s.content !== s.previous);
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
    const steps: WriteFileStep[] = [];
    if (modulesLoad) steps.push(fileStep(msg(N_('md driver loaded at boot, so the kept limits apply')), modulesLoadPath(dirs), null, modulesLoad.text));
    if (sysctl) steps.push(fileStep(msg(N_('system rebuild speed limits kept for reboot')), sysctlPath(dirs), null, sysctl.text));
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

function compare(setting: Message, live: string | null, keptValue: string | undefined, bootValue: string | null, unit: KeptUnit): KeptComparison | null {
    if (keptValue === undefined && (live === null || bootValue === null || live === bootValue)) return null;
    const atBoot = keptValue ?? bootValue!;
    const state: KeptState = keptValue === undefined ? 'not-kept' : live === keptValue ? 'kept' : 'differs';
    return { setting, live, atBoot, kept: keptValue !== undefined, state, unit };
}

function deviceComparisons<D>(host: HostModel, name: string, device: D, match: RuleMatch, settings: readonly DeviceSetting<D>[]): (KeptComparison | null)[] {
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
    const global = KEPT_SYSCTLS.map(s => compare(msg(s.label), numberValue(s.live(host)), sysctls?.get(s.sysctl), s.bootDefault, s.unit));
    const arrays = host.arrays.flatMap(a => keepingOf(host, a).comparisons);
    const disks = perTunedDisk(host, k => k.diskComparisons).flat();
    return [...global, ...arrays, ...disks].filter((c): c is KeptComparison => c !== null);
});
