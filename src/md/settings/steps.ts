// SPDX-License-Identifier: LGPL-2.1-or-later
// Steps and validation built from the settings registry: a tunable's path, name, live value and
// bounds come from its entry, so every plan that writes it says the same.

import { msg, type Message } from '../message';
import type { HostModel } from '../modelTypes';
import { attributeStep, type WriteAttributeStep } from '../plan';
import { parseWholeNumber, type Parsed } from '../validate';
import { settingPath, type Bounds, type DeviceSetting, type GlobalSetting } from './registry';

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
