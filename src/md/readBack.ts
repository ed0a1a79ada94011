// After writing a kernel attribute raidtune reads it back: the kernel clamps some values
// (queue_depth above 128, nr_requests below 4) and may allocate a smaller stripe cache than asked.

/** Whether the value read back says the write took effect; sync_action changes by itself. */
export function readBackMatches(path: string, written: string, readBack: string): boolean {
    const value = readBack.trim();
    if (path.endsWith('/sync_action')) return true;
    if (/\/sync_speed_(min|max)$/.test(path)) {
        return written === 'system' ? value.endsWith('(system)') : value === `${written} (local)`;
    }
    if (path.endsWith('/queue/scheduler')) return value.split(/\s+/).includes(`[${written}]`);
    return value === written;
}
