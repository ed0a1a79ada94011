// SPDX-License-Identifier: LGPL-2.1-or-later
// Human-readable numbers, all in one binary family: sizes like mdadm and Cockpit's Storage page,
// speeds in MiB/s, so that "1.53 TiB of 1.82 TiB at 3.91 MiB/s" can be worked out in one's head and
// a round figure typed (50 MiB/s) is a round kernel value (51200 KiB/s). The kernel's KiB/s is
// shown beside a value where exactness matters.

const BINARY_UNITS = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

export function formatKiB(kib: number | null): string {
    if (kib === null || !Number.isFinite(kib)) return '—';
    let value = kib;
    let unit = 0;
    while (value >= 1024 && unit < BINARY_UNITS.length - 1) {
        value /= 1024;
        unit++;
    }
    const digits = value >= 100 || unit === 0 ? 0 : value >= 10 ? 1 : 2;
    return `${value.toFixed(digits)} ${BINARY_UNITS[unit]}`;
}

export const KIB_PER_MIB = 1024;

/**
 * KiB/s as the number of MiB/s shown, the same on the page and in a dialog's field: three
 * significant digits or more ("3.91", "195"). A value those digits hold exactly drops its trailing
 * zeros ("50", "0.5"), so "10.0" still says it is not quite 10.
 */
export function formatMiBs(kiBs: number): string {
    const miBs = kiBs / KIB_PER_MIB;
    const text = miBs.toFixed(miBs >= 100 ? 0 : miBs >= 10 ? 1 : 2);
    return Number(text) === miBs ? String(miBs) : text;
}

/** KiB/s as MiB/s: "3.91 MiB/s". */
export function formatRate(kiBs: number | null): string {
    if (kiBs === null || !Number.isFinite(kiBs)) return '—';
    return `${formatMiBs(kiBs)} MiB/s`;
}

/** KiB/s with the raw kernel value: "3.91 MiB/s (4000 KiB/s)". */
export function formatRateWithRaw(kiBs: number | null): string {
    return kiBs === null ? '—' : `${formatRate(kiBs)} (${kiBs} KiB/s)`;
}

/** How a duration is written: two units at most, the largest first. The UI passes translated ones. */
export interface DurationWords {
    daysHours(days: number, hours: number): string;
    hoursMinutes(hours: number, minutes: number): string;
    minutesSeconds(minutes: number, seconds: number): string;
    seconds(seconds: number): string;
}

export const ENGLISH_DURATION: DurationWords = {
    daysHours: (d, h) => `${d} d ${h} h`,
    hoursMinutes: (h, m) => `${h} h ${m} min`,
    minutesSeconds: (m, s) => `${m} min ${s} s`,
    seconds: s => `${s} s`,
};

/** Seconds as "22 h 5 min", "3 min 20 s", "45 s". */
export function formatDuration(seconds: number | null, words: DurationWords = ENGLISH_DURATION): string {
    if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return '—';
    const s = Math.round(seconds);
    const days = Math.floor(s / 86400);
    const hours = Math.floor((s % 86400) / 3600);
    const minutes = Math.floor((s % 3600) / 60);
    if (days > 0) return words.daysHours(days, hours);
    if (hours > 0) return words.hoursMinutes(hours, minutes);
    if (minutes > 0) return words.minutesSeconds(minutes, s % 60);
    return words.seconds(s);
}

/** A share of time (0..1) in whole percent, as the diagnosis says how busy a disk is. */
export function formatShare(share: number): string {
    return `${Math.round(share * 100)}%`;
}

/** Milliseconds with one decimal below 100 ms, where a tenth still tells disks apart. */
export function formatMs(value: number): string {
    return value.toFixed(value >= 100 ? 0 : 1);
}

export function formatPercent(percent: number | null): string {
    return percent === null ? '—' : `${percent.toFixed(1)}%`;
}
