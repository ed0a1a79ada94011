// SPDX-License-Identifier: LGPL-2.1-or-later
// Queue settings of the disks under an array: device/queue_depth (NCQ), queue/nr_requests and
// queue/scheduler. One change covers all of the array's disks, as the admins' guides set them, in
// one loop over every member: md moves at the pace of its slowest member, so different settings per member are rarely
// what anyone wants. Each disk gets its own step, so the preview, the read-back, undo and restore
// work per disk. Disks without the attribute (NVMe and virtio have no queue_depth) are left alone.

import { msg, N_, type Message } from '../message';
import type { ArrayModel, DiskModel, HostModel } from '../modelTypes';
import type { WriteAttributeStep } from '../plan';
import { DISK_SETTINGS, NR_REQUESTS_MAX } from '../settings/registry';
import { deviceStep, parseSetting } from '../settings/steps';
import { fieldError, knownDevice, parseChoice, type Parsed } from '../validate';
import type { PlanResult } from './result';

export type DiskQueueSetting = 'queueDepth' | 'nrRequests' | 'scheduler';
export const DISK_QUEUE_SETTINGS: readonly DiskQueueSetting[] = ['queueDepth', 'nrRequests', 'scheduler'];

/**
 * The most nr_requests one disk takes: blk_mq_update_nr_requests() grows a scheduler's tags up to
 * MAX_SCHED_RQ and refuses more (EINVAL); without a scheduler it can only shrink the hardware
 * queue's tags, mq/0/nr_tags (EINVAL above: 256 on virtio-blk, checked on Linux 6.1 in test/vm).
 * null: no scheduler and the tags unknown.
 */
export function nrRequestsMax(disk: DiskModel): number | null {
    const scheduler = disk.scheduler?.current ?? 'none';
    return scheduler === 'none' ? disk.hwTags : NR_REQUESTS_MAX;
}

/** BLKDEV_DEFAULT_RQ: a scheduler's default nr_requests is twice the tags, at most twice this. */
const DEFAULT_SCHED_REQUESTS = 128;

/**
 * The nr_requests the kernel sets when the disk's scheduler becomes `scheduler`: the tags of the
 * hardware queue without one, else 2 x min(tags, BLKDEV_DEFAULT_RQ) (blk_mq_init_sched()); null
 * when the tags are unknown.
 */
export function nrRequestsAfterSwitch(disk: DiskModel, scheduler: string): number | null {
    if (disk.hwTags === null) return null;
    return scheduler === 'none' ? disk.hwTags : 2 * Math.min(disk.hwTags, DEFAULT_SCHED_REQUESTS);
}

/** Says how nr_requests follows a scheduler switch: per disk where the tags tell, else in general. */
function schedulerSwitchWarning(scheduler: string, disks: DiskModel[]): Message | null {
    const after = disks.map(d => ({ disk: d, to: nrRequestsAfterSwitch(d, scheduler) }));
    if (after.some(a => a.to === null)) {
        return msg(N_('Changing the scheduler also sets nr_requests back to the kernel\'s default for the new scheduler.'));
    }
    const changing = after.filter(a => a.disk.nrRequests !== a.to);
    if (!changing.length) return null;
    return msg(N_('The new scheduler also changes nr_requests: $0.'),
        changing.map(a => `${a.disk.name} ${a.disk.nrRequests ?? '?'} → ${a.to}`).join(', '));
}

/** What a change of each setting under an array is called. */
const TITLES: Record<DiskQueueSetting, string> = {
    queueDepth: N_('Change the queue depth of the disks under $0'),
    nrRequests: N_('Change nr_requests of the disks under $0'),
    scheduler: N_('Change the I/O scheduler of the disks under $0'),
};

const NAME_ORDER = new Intl.Collator(undefined, { numeric: true });

/**
 * The whole disks under the array's members, once each, as the host model knows them. Faulty
 * members are left out: they take no part in the array's I/O and a dying disk may refuse the write.
 */
export function memberDisks(host: HostModel, array: ArrayModel): DiskModel[] {
    const names = new Set(array.members.filter(m => m.role !== 'faulty').map(m => m.disk));
    const disks = [...names].flatMap(name => host.disks.get(name) ?? []);
    return disks.sort((a, b) => NAME_ORDER.compare(a.name, b.name));
}

/** The current value of a setting on one disk, as written to it; null when the disk lacks it. */
export function diskQueueValue(disk: DiskModel, setting: DiskQueueSetting): string | null {
    return DISK_SETTINGS[setting].live(disk);
}

function disksWith(disks: DiskModel[], setting: DiskQueueSetting): DiskModel[] {
    return disks.filter(d => diskQueueValue(d, setting) !== null);
}

/** Schedulers every disk offers, so one choice is valid for all (in the first disk's order). */
export function schedulerChoices(disks: DiskModel[]): string[] {
    const lists = disksWith(disks, 'scheduler').map(d => d.scheduler!.available.filter(Boolean));
    if (lists.length === 0) return [];
    return lists[0].filter(name => lists.every(list => list.includes(name)));
}

/** Why a setting cannot be changed for this array's disks, or null when it can. */
export function diskQueueUnavailable(host: HostModel, array: ArrayModel, setting: DiskQueueSetting): Message | null {
    const disks = memberDisks(host, array);
    if (disks.length === 0) return msg(N_('raidtune does not know the disks under $0.'), array.name);
    if (disksWith(disks, setting).length > 0) return null;
    switch (setting) {
    case 'queueDepth': return msg(N_('None of the disks under $0 has a queue depth: only SATA and SCSI disks have one.'), array.name);
    case 'nrRequests': return msg(N_('None of the disks under $0 offers nr_requests.'), array.name);
    case 'scheduler': return msg(N_('None of the disks under $0 offers an I/O scheduler.'), array.name);
    }
}

/** What the form starts with: the first disk's value (usually all of them have the same). */
/**
 * What the form starts from: the disks' shared value, or nothing when they differ. A value left as
 * the form started is not written, so a value typed over disks that differ must count as a change,
 * even the one a disk already has.
 */
export function diskQueueInitial(host: HostModel, array: ArrayModel, setting: DiskQueueSetting): string {
    const values = new Set(disksWith(memberDisks(host, array), setting).map(d => diskQueueValue(d, setting)!));
    return values.size === 1 ? [...values][0] : '';
}

/** Disks that take fewer than `requests` (below MAX_SCHED_RQ: those without a scheduler, by their tags). */
function tooFewTags(disks: DiskModel[], requests: number): DiskModel[] {
    return disks.filter(d => requests > (nrRequestsMax(d) ?? Infinity));
}

function parseValue(disks: DiskModel[], setting: DiskQueueSetting, input: string): Parsed<string> {
    if (setting === 'scheduler') return parseChoice(input, schedulerChoices(disks));
    const parsed = parseSetting(DISK_SETTINGS[setting], input);
    if (parsed.error) return { error: parsed.error };
    const bounded = setting === 'nrRequests' ? tooFewTags(disks, parsed.value) : [];
    if (bounded.length) {
        return fieldError(N_('$0 use no I/O scheduler: there the kernel takes at most $1 requests, the tags of the hardware queue.'),
            list(bounded), Math.min(...bounded.map(d => nrRequestsMax(d)!)));
    }
    return { value: String(parsed.value) };
}

function step(disk: DiskModel, setting: DiskQueueSetting, to: string): WriteAttributeStep {
    return deviceStep(DISK_SETTINGS[setting], disk, to);
}

const list = (disks: DiskModel[]) => disks.map(d => d.name).join(', ');

/** Other arrays on the same disks: a disk's queue is shared by everything on it. */
function alsoOn(host: HostModel, array: ArrayModel, disks: DiskModel[]): string[] {
    const names = new Set(disks.map(d => d.name));
    return host.arrays.filter(other => other.name !== array.name && other.members.some(m => names.has(m.disk)))
        .map(a => a.name);
}

function settingWarnings(setting: DiskQueueSetting, value: string, disks: DiskModel[]): Message[] {
    const warnings: Message[] = [];
    if (setting === 'queueDepth' && value === '1') {
        warnings.push(msg(N_('Queue depth 1 turns NCQ off. That sped up some SATA RAID rebuilds a lot and did nothing for others; set it back after the rebuild.')));
        const ssds = disks.filter(d => d.rotational === false);
        if (ssds.length) warnings.push(msg(N_('Turning NCQ off slows SSDs down a lot, and these are SSDs: $0.'), list(ssds)));
    }
    if (setting === 'nrRequests') {
        // Where the tags are unknown, the current value is all raidtune knows of them.
        const bounded = disks.filter(d => d.scheduler?.current === 'none' && d.hwTags === null && d.nrRequests !== null && Number(value) > d.nrRequests);
        if (bounded.length) {
            warnings.push(msg(N_('$0 use no I/O scheduler: there the kernel refuses more requests than the hardware queue holds, and nothing after a refused write is changed.'), list(bounded)));
        }
    }
    if (setting === 'scheduler') {
        const nrRequests = schedulerSwitchWarning(value, disks);
        if (nrRequests) warnings.push(nrRequests);
    }
    return warnings;
}

/**
 * `input` null: the field still shows what the dialog opened with (the first disk's value), so
 * nothing is written, not even to a disk that has another value: the user did not ask for it.
 */
export function diskQueuePlan(host: HostModel, array: ArrayModel, setting: DiskQueueSetting, input: string | null): PlanResult<'value'> {
    const unavailable = diskQueueUnavailable(host, array, setting);
    if (unavailable) return { errors: { value: unavailable } };
    if (input === null) return { plan: { title: msg(TITLES[setting], array.name), steps: [] }, warnings: [] };
    const all = memberDisks(host, array);
    const disks = disksWith(all, setting);
    const value = parseValue(disks, setting, input);
    if (value.error) return { errors: { value: value.error } };
    // Disks that already have the value get no step: nothing to write, nothing to undo.
    const changed = disks.filter(d => diskQueueValue(d, setting) !== value.value);
    // Every path names a device the host reported, never anything else (checked again right here).
    const unknown = changed.map(d => knownDevice(d.name, host.disks.keys())).find(k => k.error);
    if (unknown?.error) return { errors: { value: unknown.error } };
    const plan = { title: msg(TITLES[setting], array.name), steps: changed.map(d => step(d, setting, value.value)) };
    const warnings = changed.length ? settingWarnings(setting, value.value, changed) : [];
    const lacking = all.filter(d => !disks.includes(d));
    if (lacking.length) warnings.push(msg(N_('Left alone, as they lack this setting: $0.'), list(lacking)));
    const shared = alsoOn(host, array, changed);
    if (shared.length) warnings.push(msg(N_('These disks also hold $0: the change applies there too.'), shared.join(', ')));
    return { plan, warnings };
}

/** The settings that can be changed for this array's disks (in the order the form lists them). */
export function diskQueueSettingsOffered(host: HostModel, array: ArrayModel): DiskQueueSetting[] {
    return DISK_QUEUE_SETTINGS.filter(s => diskQueueUnavailable(host, array, s) === null);
}
