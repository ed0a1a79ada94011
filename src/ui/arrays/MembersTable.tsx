// SPDX-License-Identifier: LGPL-2.1-or-later
import { memo } from 'react';
import { Label } from '../pf';
import { hasStoragePage } from '../../host/location';
import { _, fmt } from '../../host/i18n';
import type { ArrayModel, MemberModel } from '../../md/modelTypes';
import { CompactTable, type Column } from '../common/CompactTable';
import { memberRoleText } from '../common/labels';
import { useHostDisks } from '../common/HostContext';
import { LocateLed } from './LocateLed';
import { DiskInStorage, MemberDetails } from './MemberDetails';

/** A mark beside a member that may be failing: md corrected its read errors, or the sync waits for it. */
function MemberMarks({ member, slow }: { member: MemberModel; slow: boolean }) {
    const errors = member.role === 'active' && (member.errors ?? 0) > 0;
    return (
        <>
            {errors && <> <Label isCompact status="warning" className="raidtune-member-mark">{_('read errors')}</Label></>}
            {slow && <> <Label isCompact status="warning" className="raidtune-member-mark">{_('slow: the sync waits for it')}</Label></>}
        </>
    );
}

/** A member, or a slot no working disk fills. */
type Row = { member: MemberModel; rebuilt: number | null } | { slot: number };

/** `slow`: the members the running sync waits for, space-separated (the health alert says more). */
function MembersTableRows({ array, slow }: { array: ArrayModel; slow: string }) {
    const disks = useHostDisks();
    const storage = hasStoragePage();
    const rebuiltPercent = (sectors: number | null) => {
        const total = array.sync?.perDevice ? array.sync.totalKiB : null;
        return sectors === null || !total ? null : Math.min(100, (sectors / 2 / total) * 100);
    };
    const slowSet = new Set(slow.split(' '));
    const rows: Row[] = [
        ...array.members.map(member => ({
            member, rebuilt: member.role === 'rebuilding' ? rebuiltPercent(member.recoveryStartSectors) : null,
        })),
        ...array.missingSlots.filter(slot => !array.members.some(m => m.slot === slot && m.role === 'rebuilding')).map(slot => ({ slot })),
    ];
    const columns: Column<Row>[] = [
        {
            title: _('Device'),
            cell: row => ('slot' in row ? '—' : (
                <>
                    <MemberDetails member={row.member} disk={disks.get(row.member.disk)} storage={storage} />
                    <MemberMarks member={row.member} slow={slowSet.has(row.member.name)} />
                    {storage && <> <DiskInStorage disk={row.member.disk} short /></>}
                </>
            )),
        },
        {
            title: _('Role'),
            cell: row => ('slot' in row ? fmt(_('Slot $0 is empty: no working disk'), row.slot) : (
                <>
                    {memberRoleText(row.member)}
                    {row.rebuilt !== null && ` (${row.rebuilt.toFixed(1)}%)`}
                    {row.member.writeMostly && <> <Label isCompact>{_('write-mostly')}</Label></>}
                </>
            )),
        },
        { title: _('Kernel state'), cell: row => ('slot' in row ? _('missing') : row.member.states.join(', ') || '—') },
        { title: _('Errors'), cell: row => ('slot' in row ? '—' : row.member.errors ?? '—'), nowrap: true },
    ];
    // Where the disks sit in an enclosure (the ses driver says so): their slot and locate LED.
    const slotOf = (row: Row) => ('slot' in row ? null : disks.get(row.member.disk)?.enclosureSlot ?? null);
    if (rows.some(row => slotOf(row) !== null)) {
        columns.push({
            title: _('Location'),
            cell: row => {
                const slot = slotOf(row);
                return slot && !('slot' in row) ? <LocateLed disk={row.member.disk} slot={slot} /> : '—';
            },
        });
    }
    return (
        <CompactTable className="raidtune-members" label={fmt(_('Members of $0'), array.name)} columns={columns} rows={rows}
            rowKey={row => ('slot' in row ? `missing-${row.slot}` : row.member.name)}
            rowAttributes={row => ('slot' in row ? {} : { 'data-member': row.member.name })} />
    );
}

/**
 * A syncing array changes at every refresh, its members seldom (buildModel reuses unchanged ones as
 * the same objects): the table renders again only when what it shows changed (and when a disk
 * changed: its slot's LED, through useHostDisks). It shows the array's
 * name, members and missing slots, a rebuilding member's share of the sync's total, and which
 * members the sync waits for.
 */
export const MembersTable = memo(MembersTableRows, (previous, next) => previous.slow === next.slow &&
    sameMembersShown(previous.array, next.array));

function sameMembersShown(before: ArrayModel, after: ArrayModel): boolean {
    return before === after || (before.name === after.name && before.members === after.members &&
        before.missingSlots === after.missingSlots && before.sync?.perDevice === after.sync?.perDevice &&
        before.sync?.totalKiB === after.sync?.totalKiB);
}
