// "Keep after reboot": md settings live in the kernel and are gone at the next boot. raidtune keeps
// them the way admins do by hand: the global limits in a sysctl.d file (systemd-sysctl applies it
// at boot), the per-array attributes in a udev rule that writes them when the array starts. Both
// files are rendered here from the live model and parsed back (render -> parse round-trips), so the
// page can say whether the live value is the one kept for reboot.

import { msg, N_, type Message } from '../message';
import { KERNEL_DEFAULT_SPEED_MAX, KERNEL_DEFAULT_SPEED_MIN, type ArrayModel, type HostModel } from '../model';
import type { Plan, WriteFileStep } from '../plan';
import type { PlanResult } from './result';
import { STRIPE_CACHE_DEFAULT } from './stripeCache';

export const SYSCTL_FILE = '90-raidtune.conf';
/**
 * udev applies rules files in lexical order and starts every event with only the kernel's
 * properties: MD_UUID exists once mdadm's 63-md-raid-arrays.rules has imported `mdadm --detail
 * --export`. A name sorting after it (64-) is what makes the ENV{MD_UUID} match work.
 */
export const UDEV_RULES_FILE = '64-raidtune.rules';

/** Where the gather script puts the two files in a snapshot (its `raidtune-sysctl` and `raidtune-udev` roots). */
export const SYSCTL_SNAPSHOT_PATH = `/raidtune-sysctl/${SYSCTL_FILE}`;
export const UDEV_SNAPSHOT_PATH = `/raidtune-udev/${UDEV_RULES_FILE}`;

export interface PersistDirs {
    sysctlDir: string;
    udevRulesDir: string;
}

export const SYSCTL_MIN = 'dev.raid.speed_limit_min';
export const SYSCTL_MAX = 'dev.raid.speed_limit_max';

/** How a rule finds its array at boot: by UUID (stable), or by kernel name where the UUID is unusable. */
export type ArrayMatch = { by: 'uuid'; uuid: string } | { by: 'name'; name: string };

export interface ArrayRule {
    match: ArrayMatch;
    /** Attribute (relative to /sys/block/mdX/) and value, in file order: ["md/stripe_cache_size", "8192"]. */
    attributes: [string, string][];
}

/** What the files kept for reboot say; null when a file does not exist. */
export interface PersistedSettings {
    sysctl: { text: string; values: Map<string, string> } | null;
    udev: { text: string; rules: ArrayRule[] } | null;
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
export function arrayMatch(array: ArrayModel): ArrayMatch {
    const uuid = mdadmUuid(array.uuid, array.metadata);
    return uuid ? { by: 'uuid', uuid } : { by: 'name', name: array.name };
}

function sameMatch(a: ArrayMatch, b: ArrayMatch): boolean {
    return a.by === 'uuid' ? b.by === 'uuid' && a.uuid === b.uuid : b.by === 'name' && a.name === b.name;
}

/** The live array a rule is for, or null when it is not assembled now. */
export function arrayForRule(host: HostModel, rule: ArrayRule): ArrayModel | null {
    return host.arrays.find(a => sameMatch(arrayMatch(a), rule.match)) ?? null;
}

// ---- what the kernel starts with, and what is live ----

/** Per-array attributes raidtune keeps, with the value the kernel gives them at boot. */
const ARRAY_SETTINGS: { attribute: string; bootValue: string; live: (a: ArrayModel) => string | null; setting: string }[] = [
    { attribute: 'md/sync_speed_min', bootValue: 'system', live: a => limitValue(a.speedMin), setting: N_('minimum sync speed of $0') },
    { attribute: 'md/sync_speed_max', bootValue: 'system', live: a => limitValue(a.speedMax), setting: N_('maximum sync speed of $0') },
    { attribute: 'md/stripe_cache_size', bootValue: String(STRIPE_CACHE_DEFAULT), live: a => numberValue(a.stripeCache?.size), setting: N_('stripe cache size of $0') },
    { attribute: 'md/group_thread_cnt', bootValue: '0', live: a => numberValue(a.groupThreadCount), setting: N_('worker threads of $0') },
];

/** The sysctls raidtune keeps. A function: model.ts imports this module, so its constants are not there yet at load time. */
function globalSettings(): { key: string; bootValue: string; live: (h: HostModel) => string | null; setting: string }[] {
    return [
        { key: SYSCTL_MIN, bootValue: String(KERNEL_DEFAULT_SPEED_MIN), live: h => numberValue(h.global.speedMinKiBs), setting: N_('system minimum rebuild speed') },
        { key: SYSCTL_MAX, bootValue: String(KERNEL_DEFAULT_SPEED_MAX), live: h => numberValue(h.global.speedMaxKiBs), setting: N_('system maximum rebuild speed') },
    ];
}

function limitValue(limit: ArrayModel['speedMin']): string | null {
    return limit === null ? null : limit.source === 'system' ? 'system' : String(limit.kiBs);
}

function numberValue(n: number | null | undefined): string | null {
    return n === null || n === undefined ? null : String(n);
}

/** The rule that would give this array its live settings after a reboot; null when it needs none. */
export function liveArrayRule(array: ArrayModel): ArrayRule | null {
    const attributes = ARRAY_SETTINGS.flatMap(({ attribute, bootValue, live }): [string, string][] => {
        const value = live(array);
        return value === null || value === bootValue ? [] : [[attribute, value]];
    });
    return attributes.length ? { match: arrayMatch(array), attributes } : null;
}

/**
 * The sysctls that would give the live global limits after a reboot: both lines when either
 * differs from the kernel default (the file then says the whole setting), none when both are.
 */
export function liveSysctls(host: HostModel): Map<string, string> | null {
    const settings = globalSettings();
    const values = settings.map(s => [s.key, s.live(host)] as const);
    if (values.some(([, v]) => v === null)) return null;
    if (settings.every((s, i) => values[i][1] === s.bootValue)) return new Map();
    return new Map(values as [string, string][]);
}

// ---- the files ----

const SYSCTL_HEADER = [
    '# Written by raidtune (Cockpit, RAID tuning): md rebuild speed limits, in KiB/s per member',
    '# disk, applied by systemd-sysctl at boot. Remove it in raidtune ("Stop keeping") or delete it.',
];

const UDEV_HEADER = [
    '# Written by raidtune (Cockpit, RAID tuning): md array settings, written when an array starts',
    '# ("change" event). MD_UUID comes from mdadm\'s 63-md-raid-arrays.rules, hence the 64- name.',
    '# Remove it in raidtune ("Stop keeping") or delete it.',
];

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

function matchKeys(match: ArrayMatch): string {
    return match.by === 'uuid'
        ? `KERNEL=="md*", ENV{MD_UUID}=="${match.uuid}"`
        : `KERNEL=="${match.name}"`;
}

/** One line per attribute, each with its own TEST guard: an attribute the level lacks skips only its line. */
function renderRule(rule: ArrayRule): string[] {
    const comment = rule.match.by === 'uuid' ? `# md array ${rule.match.uuid}` : `# ${rule.match.name} (matched by name: its UUID is not usable by udev)`;
    return [comment, ...rule.attributes.map(([attribute, value]) =>
        `SUBSYSTEM=="block", ACTION=="add|change", ${matchKeys(rule.match)}, TEST=="${attribute}", ATTR{${attribute}}="${value}"`)];
}

export function renderUdevRules(rules: readonly ArrayRule[]): string {
    return [...UDEV_HEADER, ...rules.flatMap(rule => ['', ...renderRule(rule)])].join('\n') + '\n';
}

const RULE_KEY = /([A-Z]+)(?:\{([^}]*)\})?\s*(==|!=|\+=|:=|=)\s*"([^"]*)"/g;

/** The rules of a udev file raidtune wrote (or an admin edited): lines that match an md array and assign attributes. */
export function parseUdevRules(text: string): ArrayRule[] {
    const rules: ArrayRule[] = [];
    for (const raw of text.split('\n')) {
        const line = raw.trim();
        if (!line || line.startsWith('#')) continue;
        let match: ArrayMatch | null = null;
        const attributes: [string, string][] = [];
        for (const [, key, arg, op, value] of line.matchAll(RULE_KEY)) {
            if (key === 'ENV' && arg === 'MD_UUID' && op === '==' && MDADM_UUID.test(value)) match = { by: 'uuid', uuid: value };
            else if (key === 'KERNEL' && op === '==' && /^md[\w]+$/.test(value) && match?.by !== 'uuid') match = { by: 'name', name: value };
            else if (key === 'ATTR' && arg && (op === '=' || op === ':=')) attributes.push([arg, value]);
        }
        if (!match || !attributes.length) continue;
        const known = rules.find(r => sameMatch(r.match, match));
        if (known) known.attributes.push(...attributes);
        else rules.push({ match, attributes });
    }
    return rules;
}

/** The persisted files as the gather script read them (absent files: undefined). */
export function parsePersisted(sysctlText: string | undefined, udevText: string | undefined): PersistedSettings {
    return {
        sysctl: sysctlText === undefined ? null : { text: sysctlText, values: parseSysctl(sysctlText) },
        udev: udevText === undefined ? null : { text: udevText, rules: parseUdevRules(udevText) },
    };
}

// ---- plans ----

export function sysctlPath(dirs: PersistDirs): string {
    return `${dirs.sysctlDir}/${SYSCTL_FILE}`;
}

export function udevRulesPath(dirs: PersistDirs): string {
    return `${dirs.udevRulesDir}/${UDEV_RULES_FILE}`;
}

function fileStep(setting: Message, path: string, content: string | null, previous: string | null): WriteFileStep {
    return { kind: 'write-file', setting, path, content, previous };
}

/**
 * The rules that give every array its live settings at boot. Rules for arrays not assembled now
 * are kept as they are: a stopped array has not lost its settings.
 */
export function wantedRules(host: HostModel): ArrayRule[] {
    const live = host.arrays.map(liveArrayRule).filter((r): r is ArrayRule => r !== null);
    const absent = (host.persisted.udev?.rules ?? []).filter(r => arrayForRule(host, r) === null);
    return [...live, ...absent];
}

/** Writes (or removes, when nothing differs from the kernel's boot values) both files; unchanged files are left alone. */
export function keepPlan(host: HostModel, dirs: PersistDirs): PlanResult<'persist'> {
    const sysctls = liveSysctls(host);
    if (sysctls === null) return { errors: { persist: msg(N_('The system rebuild speed limits are unknown, so they cannot be kept.')) } };
    const rules = wantedRules(host);
    const steps = [
        fileStep(msg(N_('system rebuild speed limits kept for reboot')), sysctlPath(dirs),
            sysctls.size ? renderSysctl(sysctls) : null, host.persisted.sysctl?.text ?? null),
        fileStep(msg(N_('array settings kept for reboot')), udevRulesPath(dirs),
            rules.length ? renderUdevRules(rules) : null, host.persisted.udev?.text ?? null),
    ].filter(s => s.content !== s.previous);
    return { plan: { title: msg(N_('Keep the current settings after a reboot')), steps }, warnings: absentArrayNotes(host) };
}

function absentArrayNotes(host: HostModel): Message[] {
    return (host.persisted.udev?.rules ?? []).filter(r => arrayForRule(host, r) === null).map(r =>
        msg(N_('The kept settings of $0 stay: that array is not assembled now.'), matchLabel(r.match)));
}

export function matchLabel(match: ArrayMatch): string {
    return match.by === 'uuid' ? match.uuid : match.name;
}

/** Removes both files: at the next boot the kernel starts with its defaults again. */
export function forgetPlan(host: HostModel, dirs: PersistDirs): Plan {
    const steps: WriteFileStep[] = [];
    if (host.persisted.sysctl) steps.push(fileStep(msg(N_('system rebuild speed limits kept for reboot')), sysctlPath(dirs), null, host.persisted.sysctl.text));
    if (host.persisted.udev) steps.push(fileStep(msg(N_('array settings kept for reboot')), udevRulesPath(dirs), null, host.persisted.udev.text));
    return { title: msg(N_('Stop keeping settings after a reboot')), steps };
}

// ---- live against kept ----

export type KeptState = 'kept' | 'differs' | 'not-kept';

export interface KeptComparison {
    setting: Message;
    /** Live value as the kernel file says it ("50000", "system"); null when unknown. */
    live: string | null;
    /** The value it gets at boot: the kept one, else the kernel's default. */
    atBoot: string;
    /** Whether a file keeps it. */
    kept: boolean;
    state: KeptState;
    /** Speeds are KiB/s; the rest plain numbers (for display). */
    unit: 'kibs' | 'count';
}

function compare(setting: Message, live: string | null, keptValue: string | undefined, bootValue: string, unit: KeptComparison['unit']): KeptComparison | null {
    if (keptValue === undefined && (live === null || live === bootValue)) return null;
    const atBoot = keptValue ?? bootValue;
    const state: KeptState = keptValue === undefined ? 'not-kept' : live === keptValue ? 'kept' : 'differs';
    return { setting, live, atBoot, kept: keptValue !== undefined, state, unit };
}

/**
 * Every setting that is kept for reboot or differs from what the kernel starts with: whether the
 * live value is the kept one. Settings at their boot value and not kept are left out.
 */
export function keptComparisons(host: HostModel): KeptComparison[] {
    const sysctls = host.persisted.sysctl?.values;
    const global = globalSettings().map(s => compare(msg(s.setting), s.live(host), sysctls?.get(s.key), s.bootValue, 'kibs'));
    const rules = host.persisted.udev?.rules ?? [];
    const arrays = host.arrays.flatMap(array => {
        const rule = rules.find(r => sameMatch(r.match, arrayMatch(array)));
        const kept = new Map(rule?.attributes);
        return ARRAY_SETTINGS.map(s => compare(msg(s.setting, array.name), s.live(array), kept.get(s.attribute), s.bootValue,
            s.attribute.startsWith('md/sync_speed') ? 'kibs' : 'count'));
    });
    return [...global, ...arrays].filter((c): c is KeptComparison => c !== null);
}
