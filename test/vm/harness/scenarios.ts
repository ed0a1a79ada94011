// SPDX-License-Identifier: LGPL-2.1-or-later
// md states made with the real mdadm in the guest, and waits on the guest kernel.
import type { Page } from 'playwright-core';
import { arrayCard, showArrayPage, waitUntil } from '../../browser/harness/raidtunePage';
import type { GuestControl } from '../../../tools/vm/vm';
import { parseMdstat, type MdstatArray } from './kernelFacts';
import { shownText } from './vmEnv';

/**
 * System limits that keep a sync visible for minutes on the tier's 256 MiB disks (~20 min per
 * disk at 200 KiB/s). Set BEFORE mdadm --create: the first seconds of a sync run faster anyway
 * (mdstat shows ~2 MB/s at first).
 */
export const SLOW_LIMITS = { min: 1, max: 200 };
const SLOW = `echo ${SLOW_LIMITS.min} > /proc/sys/dev/raid/speed_limit_min
echo ${SLOW_LIMITS.max} > /proc/sys/dev/raid/speed_limit_max`;

/** Runs mdadm (or any) commands in the guest after setting the slow limits; returns the output. */
export function createSlowly(guest: GuestControl, commands: string): Promise<string> {
    return guest.runOk(`set -e\n${SLOW}\n${commands}`);
}

/** `mdadm --create /dev/NAME --run --level=LEVEL -nN DEVICES... [EXTRA]` */
export function mdCreate(name: string, level: string, devices: string[], extra = ''): string {
    return `mdadm --create /dev/${name} --run --level=${level} --raid-devices=${devices.length} ${extra} ` +
        devices.map(d => (d === 'missing' ? d : `/dev/${d}`)).join(' ') + ' 2>&1';
}

/**
 * Two partitions on each disk: NAME1 of `firstMiB`, NAME2 the rest. An MBR (dos) table through
 * busybox fdisk, which cannot write GPT; a GPT one through util-linux sfdisk, by its full path, as the
 * control channel's sh prefers busybox's applets (test/vm/README.md, Pitfalls).
 */
export function partitionCommands(disks: string[], firstMiB: number, label: 'dos' | 'gpt' = 'dos'): string {
    const write = label === 'dos'
        ? (d: string) => `printf 'o\\nn\\np\\n1\\n\\n+${firstMiB}M\\nn\\np\\n2\\n\\n\\nw\\n' | fdisk /dev/${d} >/dev/null`
        : (d: string) => `printf 'label: gpt\\n,${firstMiB}M\\n,\\n' | /usr/sbin/sfdisk --quiet /dev/${d}`;
    return disks.map(d => `${write(d)}\n[ -b /dev/${d}1 ] && [ -b /dev/${d}2 ]`).join('\n');
}

export async function guestMdstat(guest: GuestControl, name: string): Promise<MdstatArray> {
    const text = await guest.runOk('cat /proc/mdstat');
    const array = parseMdstat(text).find(a => a.name === name);
    if (!array)
        throw new Error(`${name} is not in the guest's /proc/mdstat:\n${text}`);
    return array;
}

/** Waits until the guest's mdstat shows a progress line for `name` with done > `atLeastKiB`. */
export function waitForProgress(guest: GuestControl, name: string, atLeastKiB = 0,
    timeoutMs = 30000): Promise<MdstatArray> {
    return waitUntil(`${name}: progress past ${atLeastKiB} KiB in the guest's /proc/mdstat`, async () => {
        const array = await guestMdstat(guest, name);
        return array.progress && array.progress.done > atLeastKiB ? array : null;
    }, timeoutMs, 300);
}

/** The array's own page, its card, and (when `sync` is true) its sync section, rendered. */
export async function waitForCard(page: Page, name: string, sync: boolean): Promise<void> {
    const card = arrayCard(page, name);
    try {
        await showArrayPage(page, name, 60000);
    } catch (err) {
        // What the page shows instead (an error, an empty list, nothing at all) says where to look.
        (err as Error).message += `\nthe page shows: ${JSON.stringify(await shownText(page, 500))}`;
        throw err;
    }
    if (sync)
        await card.locator('.raidtune-sync').waitFor({ timeout: 30000 });
}
