// SPDX-License-Identifier: LGPL-2.1-or-later
// Human-readable numbers. Sizes use binary units like mdadm and Cockpit's Storage page; speed limits
// are KiB/s in the kernel, shown as MB/s (what people quote) with the raw value beside.

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

/** KiB/s as decimal MB/s: "4.1 MB/s". */
export function formatRate(kiBs: number | null): string {
    if (kiBs === null || !Number.isFinite(kiBs)) return '—';
    const mbs = (kiBs * 1024) / 1e6;
    return `${mbs >= 100 ? mbs.toFixed(0) : mbs >= 10 ? mbs.toFixed(1) : mbs.toFixed(2)} MB/s`;
}

/** KiB/s with the raw kernel value: "4.1 MB/s (4000 KiB/s)". */
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

export function formatPercent(percent: number | null): string {
    return percent === null ? '—' : `${percent.toFixed(1)}%`;
}
