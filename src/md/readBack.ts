// After writing a kernel attribute raidtune reads it back: the kernel clamps some values
// (queue_depth above 128, nr_requests below 4) and may allocate a smaller stripe cache than asked.

/** Whether the value read back says the write took effect; sync_action changes by itself. */
export function readBackMatches(path: string, written: string, readBack: string): boolean {
    const value = readBack.trim();
    if (path.endsWith('/sync_action')) return true;
    if (/\/sync_speed_(min|max)$/.test(path)) {
        return written === 'system' ? value.endsWith('(system)') : value === `${written} (local)`;
    }
    if (path.endsWith('/queue/scheduler')) return schedulerInUse(value) === written;
    return value === written;
}

/**
 * The scheduler in use: the bracketed word of "none [mq-deadline] bfq", or the only word (bio-based
 * devices print just "none"; the simulated host shows the bare word written until its next tick).
 */
function schedulerInUse(value: string): string | null {
    const words = value.split(/\s+/);
    const bracketed = words.find(w => /^\[.+\]$/.test(w));
    if (bracketed) return bracketed.slice(1, -1);
    return words.length === 1 ? words[0] : null;
}
