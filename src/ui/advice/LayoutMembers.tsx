import { _, fmt } from '../../host/i18n';
import type { AlignmentVerdict, MemberAlignment } from '../../md/advice/layout';
import type { ArrayModel } from '../../md/model';
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

/** Where each member's data begins on its disk (sectors of 512 bytes) and which boundaries that meets. */
export function LayoutMembers({ array, members, chunked }: { array: ArrayModel; members: MemberAlignment[]; chunked: boolean }) {
    const columns: Column<MemberAlignment>[] = [
        { title: _('Device'), cell: m => `/dev/${m.name}`, nowrap: true },
        { title: _('Starts at sector'), cell: m => sectorsText(m.startSectors), nowrap: true },
        { title: _('md data offset'), cell: m => sectorsText(m.dataOffsetSectors), nowrap: true },
        { title: _('Data starts at sector'), cell: m => sectorsText(m.dataStartSectors), nowrap: true },
        {
            title: _('Alignment'),
            cell: m => (
                <>
                    <div>{verdictText(m, chunked)}</div>
                    {m.problem && <div className="pf-v6-u-font-size-sm">{text(m.problem)}</div>}
                </>
            ),
        },
    ];
    return (
        <CompactTable className="raidtune-layout-members" label={fmt(_('Alignment of the members of $0'), array.name)}
            columns={columns} rows={members} rowKey={m => m.name}
            rowAttributes={m => ({ 'data-layout-member': m.name, 'data-verdict': m.verdict })} />
    );
}
