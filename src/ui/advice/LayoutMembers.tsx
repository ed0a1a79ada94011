import { _, fmt } from '../../host/i18n';
import type { AlignmentVerdict, MemberAlignment } from '../../md/advice/layout';
import type { ArrayModel } from '../../md/model';
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
    // Numbers stay on one line; the verdict column takes the wrapping.
    const cell = 'pf-v6-c-table__td pf-m-nowrap';
    return (
        <table className="pf-v6-c-table pf-m-compact pf-m-grid-md raidtune-layout-members"
            aria-label={fmt(_('Alignment of the members of $0'), array.name)}>
            <thead className="pf-v6-c-table__thead">
                <tr className="pf-v6-c-table__tr">
                    <th className="pf-v6-c-table__th pf-m-nowrap" scope="col">{_('Device')}</th>
                    <th className="pf-v6-c-table__th pf-m-nowrap" scope="col">{_('Starts at sector')}</th>
                    <th className="pf-v6-c-table__th pf-m-nowrap" scope="col">{_('md data offset')}</th>
                    <th className="pf-v6-c-table__th pf-m-nowrap" scope="col">{_('Data starts at sector')}</th>
                    <th className="pf-v6-c-table__th" scope="col">{_('Alignment')}</th>
                </tr>
            </thead>
            <tbody className="pf-v6-c-table__tbody">
                {members.map(m => (
                    <tr className="pf-v6-c-table__tr" key={m.name} data-layout-member={m.name} data-verdict={m.verdict}>
                        <td className={cell} data-label={_('Device')}>/dev/{m.name}</td>
                        <td className={cell} data-label={_('Starts at sector')}>{sectorsText(m.startSectors)}</td>
                        <td className={cell} data-label={_('md data offset')}>{sectorsText(m.dataOffsetSectors)}</td>
                        <td className={cell} data-label={_('Data starts at sector')}>{sectorsText(m.dataStartSectors)}</td>
                        <td className="pf-v6-c-table__td" data-label={_('Alignment')}>
                            <div>{verdictText(m, chunked)}</div>
                            {m.problem && <div className="pf-v6-u-font-size-sm">{text(m.problem)}</div>}
                        </td>
                    </tr>
                ))}
            </tbody>
        </table>
    );
}
