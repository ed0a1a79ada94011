// SPDX-License-Identifier: LGPL-2.1-or-later
// The files "Keep after reboot" writes, as text: where they go, how a udev rule matches an array or
// a disk after a reboot, rendering the sysctl.d file, the udev rule (with its queue retry) and the
// modules-load.d entry, and parsing them back (render -> parse round-trips). persist.ts decides
// what they hold, from the live model and the settings registry.

import type { ArrayModel, DiskModel, PersistedSettings, RuleMatch, UdevRule } from '../modelTypes';
import { DISK_SETTINGS } from '../settings/registry';

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

export function sameMatch(a: RuleMatch, b: RuleMatch): boolean {
    switch (a.by) {
    case 'uuid': return b.by === 'uuid' && a.uuid === b.uuid;
    case 'wwid': return b.by === 'wwid' && a.wwid === b.wwid;
    default: return b.by === a.by && a.name === b.name;
    }
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

export const MODULES_LOAD_TEXT = [
    '# Written by raidtune (Cockpit, RAID tuning): load the md driver at boot, before systemd-sysctl',
    `# applies ${SYSCTL_FILE} (dev.raid.* exists only once md is loaded). Removed with that file.`,
    'md_mod',
].join('\n') + '\n';

export function sysctlLine(key: string, value: string): string {
    return `${key} = ${value}`;
}

export function renderSysctl(values: ReadonlyMap<string, string>): string {
    return [...SYSCTL_HEADER, ...[...values].map(([key, value]) => sysctlLine(key, value))].join('\n') + '\n';
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
    const scheduler = value(DISK_SETTINGS.scheduler.attribute, /^[\w-]+$/);
    const nrRequests = value(DISK_SETTINGS.nrRequests.attribute, /^\d+$/);
    if (scheduler === '-' && nrRequests === '-') return null;
    const args = [QUEUE_RETRY_MARK, '$devpath', scheduler, nrRequests, QUEUE_RETRY_TRIES];
    const guard = (scheduler !== '-' ? DISK_SETTINGS.scheduler : DISK_SETTINGS.nrRequests).attribute;
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

/**
 * The rules of a udev file raidtune wrote (or an admin edited): lines that match an array or a disk
 * and assign attributes.
 */
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
export function parsePersisted(sysctlText: string | undefined, udevText: string | undefined,
    modulesLoadText?: string): PersistedSettings {
    return {
        sysctl: sysctlText === undefined ? null : { text: sysctlText, values: parseSysctl(sysctlText) },
        udev: udevText === undefined ? null : { text: udevText, rules: parseUdevRules(udevText) },
        modulesLoad: modulesLoadText === undefined ? null : { text: modulesLoadText },
    };
}
