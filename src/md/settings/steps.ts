// SPDX-License-Identifier: LGPL-2.1-or-later
// Steps and validation built from the settings registry: a tunable's path, name, live value and
// bounds come from its entry, so every plan that writes it says the same.

import { msg, type Message } from '../message';
import type { ArrayModel, DiskModel, HostModel } from '../modelTypes';
import { attributeStep, type WriteAttributeStep } from '../plan';
import { parseWholeNumber, type Parsed } from '../validate';
import {
    ARRAY_SETTINGS, DISK_SETTINGS, GLOBAL_SETTINGS, settingPath, type Bounds, type DeviceSetting, type GlobalSetting,
} from './registry';

/** "system minimum rebuild speed", "stripe cache size of md0". */
export function settingName(setting: { label: string }, device?: string): Message {
    return device === undefined ? msg(setting.label) : msg(setting.label, device);
}

/** A write of a dev.raid sysctl, from its live value. */
export function globalStep(setting: GlobalSetting, host: HostModel, to: string | number): WriteAttributeStep {
    return attributeStep(settingName(setting), setting.path, to, setting.live(host));
}

/** A write of an array's or a disk's attribute, from its live value. */
export function deviceStep<D extends { name: string }>(setting: DeviceSetting<D>, device: D,
    to: string | number): WriteAttributeStep {
    const path = settingPath(setting, device.name);
    return attributeStep(settingName(setting, device.name), path, to, setting.live(device));
}

/** A whole number within the setting's bounds, as typed. */
export function parseSetting(setting: { bounds: Bounds }, input: string): Parsed<number> {
    return parseWholeNumber(input, setting.bounds.min, setting.bounds.max);
}

/** The device setting of `settings` written at `path` of `device`, with the device. */
function deviceSettingAt<D extends { name: string }>(settings: Record<string, DeviceSetting<D>>, device: D | undefined,
    path: string): string | null | undefined {
    const setting = device && Object.values(settings).find(s => settingPath(s, device.name) === path);
    return setting ? setting.live(device) : undefined;
}

/**
 * A setting's value on the host as this model read it, in the form a step's `from` has it (what a
 * record of originals keeps); undefined when the path is none of the registry's or its device is gone.
 */
export function liveValueAt(host: HostModel, path: string): string | null | undefined {
    const global = Object.values(GLOBAL_SETTINGS).find(s => s.path === path);
    if (global) return numberOrNull(global.live(host));
    const name = /^\/sys\/block\/([^/]+)\//.exec(path)?.[1];
    if (name === undefined) return undefined;
    return deviceSettingAt<ArrayModel>(ARRAY_SETTINGS, host.arrays.find(a => a.name === name), path) ??
        deviceSettingAt<DiskModel>(DISK_SETTINGS, host.disks.get(name), path);
}

function numberOrNull(value: number | null): string | null {
    return value === null ? null : String(value);
}
