// SPDX-License-Identifier: LGPL-2.1-or-later
import { _, fmt } from '../../host/i18n';
import type { AlignmentVerdict, MemberAlignment, PartitionAlignment, PartitionVerdict } from '../../md/advice/layout';
import type { Message } from '../../md/message';
import type { ArrayModel } from '../../md/modelTypes';
import { CompactTable, type Column } from '../common/CompactTable';
import { text } from '../common/message';

const SECTORS_PER_MIB = 2048;

/** "2048 (1 MiB)", "63 (31.5 KiB)": sectors as the partition tools print them, with the size they make. */
function sectorsText(sectors: number | null): string {
    if (sectors === null) return '—';
    if (sectors === 0) return '0';
    const size = sectors % SECTORS_PER_MIB === 0 ? `${sectors / SECTORS_PER_MIB} MiB` : `${sectors / 2} KiB`;
    return `${sectors} (${size})`;
}

function verdictText(alignment: MemberAlignment, chunked: boolean): string {
    const words: Record<AlignmentVerdict, () => string> = {
        aligned: () => (chunked ? _('Aligned (1 MiB and the chunk)') : _('Aligned (1 MiB)')),
        'not-1mib': () => _('4 KiB aligned, not on 1 MiB'),
        'not-chunk': () => _('Not on a chunk boundary'),
        'not-4kib': () => _('Misaligned (not on 4 KiB)'),
        unknown: () => _('Unknown'),
    };
    return words[alignment.verdict]();
}

const PARTITION_VERDICT: Record<PartitionVerdict, () => string> = {
    aligned: () => _('Aligned'),
    'not-stripe': () => _('On a chunk, not on a full stripe'),
    'not-chunk': () => _('Not on a chunk boundary'),
    'not-4kib': () => _('Misaligned (not on 4 KiB)'),
    unknown: () => _('Unknown'),
};

/** The verdict in a word or two, and why below it. */
function verdictCell(verdict: string, problem: Message | null): React.ReactNode {
    return (
        <>
            <div>{verdict}</div>
            {problem && <div className="pf-v6-u-font-size-sm">{text(problem)}</div>}
        </>
    );
}

/** Where each member's data begins on its disk (sectors of 512 bytes) and which boundaries that meets. */
export function LayoutMembers({ array, members, chunked }: {
    array: ArrayModel; members: MemberAlignment[]; chunked: boolean;
}) {
    const columns: Column<MemberAlignment>[] = [
        { title: _('Device'), cell: m => `/dev/${m.name}`, nowrap: true },
        { title: _('Starts at sector'), cell: m => sectorsText(m.startSectors), nowrap: true },
        { title: _('md data offset'), cell: m => sectorsText(m.dataOffsetSectors), nowrap: true },
        { title: _('Data starts at sector'), cell: m => sectorsText(m.dataStartSectors), nowrap: true },
        { title: _('Alignment'), cell: m => verdictCell(verdictText(m, chunked), m.problem) },
    ];
    return (
        <CompactTable className="raidtune-layout-members" label={fmt(_('Alignment of the members of $0'), array.name)}
            columns={columns} rows={members} rowKey={m => m.name}
            rowAttributes={m => ({ 'data-layout-member': m.name, 'data-verdict': m.verdict })} />
    );
}

/** Partitions made on the array itself, and whether they start on its chunks and stripes. */
export function LayoutPartitions({ array, partitions }: { array: ArrayModel; partitions: PartitionAlignment[] }) {
    const columns: Column<PartitionAlignment>[] = [
        { title: _('Partition'), cell: p => `/dev/${p.name}`, nowrap: true },
        { title: _('Starts at sector'), cell: p => sectorsText(p.startSectors), nowrap: true },
        { title: _('Alignment'), cell: p => verdictCell(PARTITION_VERDICT[p.verdict](), p.problem) },
    ];
    return (
        <CompactTable className="raidtune-layout-partitions" label={fmt(_('Partitions on $0'), array.name)}
            columns={columns} rows={partitions} rowKey={p => p.name}
            rowAttributes={p => ({ 'data-layout-partition': p.name, 'data-verdict': p.verdict })} />
    );
}
