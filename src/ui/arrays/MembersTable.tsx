import { memo } from 'react';
import { Label } from '../pf';
import { _, fmt } from '../../host/i18n';
import type { ArrayModel } from '../../md/modelTypes';
import { memberRoleText } from '../common/labels';

function MembersTableRows({ array }: { array: ArrayModel }) {
    const rebuiltPercent = (sectors: number | null) => {
        const total = array.sync?.perDevice ? array.sync.totalKiB : null;
        return sectors === null || !total ? null : Math.min(100, (sectors / 2 / total) * 100);
    };
    return (
        <table className="pf-v6-c-table pf-m-compact pf-m-grid-md raidtune-members" aria-label={fmt(_('Members of $0'), array.name)}>
            <thead className="pf-v6-c-table__thead">
                <tr className="pf-v6-c-table__tr">
                    <th className="pf-v6-c-table__th" scope="col">{_('Device')}</th>
                    <th className="pf-v6-c-table__th" scope="col">{_('Role')}</th>
                    <th className="pf-v6-c-table__th" scope="col">{_('Kernel state')}</th>
                    <th className="pf-v6-c-table__th" scope="col">{_('Errors')}</th>
                </tr>
            </thead>
            <tbody className="pf-v6-c-table__tbody">
                {array.members.map(member => {
                    const rebuilt = member.role === 'rebuilding' ? rebuiltPercent(member.recoveryStartSectors) : null;
                    return (
                        <tr className="pf-v6-c-table__tr" key={member.name} data-member={member.name}>
                            <td className="pf-v6-c-table__td" data-label={_('Device')}>/dev/{member.name}</td>
                            <td className="pf-v6-c-table__td" data-label={_('Role')}>
                                {memberRoleText(member)}
                                {rebuilt !== null && ` (${rebuilt.toFixed(1)}%)`}
                                {member.writeMostly && <> <Label isCompact>{_('write-mostly')}</Label></>}
                            </td>
                            <td className="pf-v6-c-table__td" data-label={_('Kernel state')}>{member.states.join(', ') || '—'}</td>
                            <td className="pf-v6-c-table__td" data-label={_('Errors')}>{member.errors ?? '—'}</td>
                        </tr>
                    );
                })}
                {array.missingSlots.filter(slot => !array.members.some(m => m.slot === slot && m.role === 'rebuilding')).map(slot => (
                    <tr className="pf-v6-c-table__tr" key={`missing-${slot}`}>
                        <td className="pf-v6-c-table__td" data-label={_('Device')}>—</td>
                        <td className="pf-v6-c-table__td" data-label={_('Role')}>{fmt(_('Slot $0 is empty: no working disk'), slot)}</td>
                        <td className="pf-v6-c-table__td" data-label={_('Kernel state')}>{_('missing')}</td>
                        <td className="pf-v6-c-table__td" data-label={_('Errors')}>—</td>
                    </tr>
                ))}
            </tbody>
        </table>
    );
}

/**
 * A syncing array changes at every refresh, its members seldom (buildModel keeps unchanged ones the
 * same objects): the table renders again only when what it shows changed. It shows the array's
 * name, members and missing slots, and a rebuilding member's share of the sync's total.
 */
export const MembersTable = memo(MembersTableRows, ({ array: before }, { array: after }) =>
    before === after || (before.name === after.name && before.members === after.members &&
        before.missingSlots === after.missingSlots && before.sync?.perDevice === after.sync?.perDevice &&
        before.sync?.totalKiB === after.sync?.totalKiB));
