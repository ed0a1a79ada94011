// SPDX-License-Identifier: LGPL-2.1-or-later
// sfdisk's input script (sfdisk(8), "Input formats"): header lines ("label: gpt") and one line per
// partition, named fields ("start=2048, size=4096, type=R", optionally after "/dev/sda1 :") or the
// short positional form ("start,size,type"). Numbers without a unit are sectors; K, M, G, T (KiB,
// MiB...) are bytes.

export interface ScriptPartition {
    /** Sectors of the script's sector size; null: after the previous partition. */
    start: number | null;
    /** Sectors; null: up to the end of the free space. */
    size: number | null;
    /** In bytes when given with a unit (converted with the device's sector size). */
    startBytes: boolean;
    sizeBytes: boolean;
    type: string | undefined;
    uuid: string | undefined;
}

export interface Script {
    headers: { key: string; value: string }[];
    partitions: ScriptPartition[];
}

const HEADERS = new Set(['label', 'label-id', 'device', 'unit', 'first-lba', 'last-lba', 'table-length', 'grain', 'sector-size']);

const UNITS: Record<string, number> = { K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40, P: 2 ** 50 };

/** "2048" (sectors), "+1G" or "1GiB" (bytes); null for an empty field (the default). */
function parseAmount(text: string | undefined): { value: number | null; bytes: boolean } | undefined {
    const t = (text ?? '').trim().replace(/^\+/, '');
    if (t === '' || t === '-') return { value: null, bytes: false };
    const m = /^(\d+)(?:([KMGTP])(?:iB)?)?$/.exec(t);
    if (!m) return undefined;
    return m[2] ? { value: Number(m[1]) * UNITS[m[2]], bytes: true } : { value: Number(m[1]), bytes: false };
}

function partitionFrom(fields: Record<string, string | undefined>, line: number): ScriptPartition | string {
    const start = parseAmount(fields.start);
    const size = parseAmount(fields.size);
    if (!start || !size) return `line ${line}: unsupported start or size`;
    return {
        start: start.value, startBytes: start.bytes, size: size.value, sizeBytes: size.bytes,
        type: fields.type || undefined, uuid: fields.uuid || undefined,
    };
}

/** The script, or the first line sfdisk would not take (in the simulation's words). */
export function parseScript(text: string): Script | string {
    const script: Script = { headers: [], partitions: [] };
    for (const [index, raw] of text.split('\n').entries()) {
        const line = raw.trim();
        if (line === '' || line.startsWith('#')) continue;
        const header = /^([a-z-]+):\s*(.*)$/.exec(line);
        if (header && HEADERS.has(header[1])) {
            script.headers.push({ key: header[1], value: header[2].trim() });
            continue;
        }
        const body = line.replace(/^\/dev\/\S+\s*:\s*/, '');
        let partition: ScriptPartition | string;
        if (body.includes('=')) {
            const fields: Record<string, string> = {};
            for (const part of body.split(',').map(p => p.trim()).filter(Boolean)) {
                const [key, ...rest] = part.split('=');
                fields[key.trim()] = rest.join('=').trim().replace(/^"(.*)"$/, '$1');
            }
            partition = partitionFrom(fields, index + 1);
        } else {
            const [start, size, type] = body.split(',');
            partition = partitionFrom({ start, size, type: type?.trim() }, index + 1);
        }
        if (typeof partition === 'string') return partition;
        script.partitions.push(partition);
    }
    return script;
}

export function header(script: Script, key: string): string | undefined {
    return script.headers.find(h => h.key === key)?.value;
}
