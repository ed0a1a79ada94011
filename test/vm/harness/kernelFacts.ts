// Tiny, deliberately independent readers of what the guest kernel and mdadm say, so the tests
// compare the page against the kernel and not against raidtune's own parsers (src/md/).
// They understand just the lines the tests need.

export interface MdstatArray {
    name: string;
    /** "raid1", "raid5", ... (null for an inactive array). */
    level: string | null;
    /** Member names without the [n] descriptor and flags: ["vda", "vdb"]. */
    members: string[];
    /** The progress line, when there is one: "resync = 12.6% (123/456)". */
    progress: { action: string; percent: number; done: number; total: number } | null;
}

export function parseMdstat(text: string): MdstatArray[] {
    const arrays: MdstatArray[] = [];
    let current: MdstatArray | undefined;
    for (const line of text.split('\n')) {
        const header = line.match(/^(md\S+) : (\S+)(?: \(auto-read-only\))?(?: (raid\d+|linear))? (.*)$/);
        if (header) {
            current = {
                name: header[1],
                level: header[3] ?? null,
                members: header[4].trim().split(/\s+/).map(m => m.replace(/\[\d+\].*$/, '')),
                progress: null,
            };
            arrays.push(current);
            continue;
        }
        const progress = line.match(/\b(resync|recovery|reshape|check|repair)\s*=\s*([\d.]+)%\s*\((\d+)\/(\d+)\)/);
        if (progress && current) {
            current.progress = { action: progress[1], percent: Number(progress[2]), done: Number(progress[3]), total: Number(progress[4]) };
        }
    }
    return arrays;
}

export interface MdadmDetail {
    /** "raid1" */
    level: string;
    raidDevices: number;
    activeDevices: number;
    /** Array Size in KiB. */
    arraySizeKiB: number;
    /** "clean, resyncing" */
    state: string;
    /** Member devices from the table at the end: ["/dev/vda", "/dev/vdb"]. */
    devices: string[];
}

export function parseDetail(text: string): MdadmDetail {
    const field = (name: string) => {
        const m = text.match(new RegExp(`^\\s*${name} : (.*)$`, 'm'));
        if (!m)
            throw new Error(`mdadm --detail has no "${name}":\n${text}`);
        return m[1].trim();
    };
    const devices = [...text.matchAll(/^\s+(?:\d+|-)\s+\d+\s+\d+\s+(?:\d+|-)\s+.*?(\/dev\/\S+)\s*$/gm)].map(m => m[1]);
    return {
        level: field('Raid Level'),
        raidDevices: Number(field('Raid Devices')),
        activeDevices: Number(field('Active Devices')),
        arraySizeKiB: Number(field('Array Size').split(' ')[0]),
        state: field('State'),
        devices,
    };
}
