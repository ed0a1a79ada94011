// SPDX-License-Identifier: LGPL-2.1-or-later
// Where a member's disk is (issue #34): its serial number, WWID, by-path address and enclosure slot
// together, opened from the member's device in the members table, which stays as narrow as it was.
// From there the slot's locate LED and the disk's place on Cockpit's Storage page are one click away.

import { useState } from 'react';
import { Button } from '../pf';
import { DescriptionList, Popover } from '../pfDetails';
import { openStoragePage } from '../../host/location';
import { _, fmt } from '../../host/i18n';
import { diskIdentity } from '../../md/advice/health';
import type { DiskModel, EnclosureSlot, MemberModel } from '../../md/modelTypes';
import { Fact } from '../common/Fact';
import { LocateChange, LocateControl } from './LocateLed';

/**
 * The member's disk on Cockpit's Storage page: its SMART data, model and serial, its partitions. In
 * the table a short "Storage", its name saying the rest; in the details, said in full.
 */
export function DiskInStorage({ disk, short }: { disk: string; short: boolean }) {
    const name = fmt(_('Open disk $0 in the Storage page'), disk);
    return (
        <Button variant="link" isInline className="raidtune-member-storage" onClick={() => openStoragePage(disk)}
            aria-label={short ? name : undefined}>
            {short ? _('Storage') : name}
        </Button>
    );
}

function ByPath({ name }: { name: string | null }) {
    return name ? <>/dev/disk/by-path/<span className="raidtune-by-path-name">{name}</span></> : _('not reported');
}

/**
 * `onLocate`: the LED's button was pressed, to turn it on or off. A slot appears only where an
 * enclosure says the disk is in one, which most disks are not: there is nothing missing to report.
 */
function DiskFacts({ disk, model, onLocate }: {
    disk: string; model: DiskModel | undefined; onLocate: (on: boolean) => void;
}) {
    const identity = diskIdentity(disk, model);
    return (
        <DescriptionList isCompact isHorizontal className="raidtune-disk-facts">
            <Fact term={_('Disk')}>{`/dev/${disk}`}</Fact>
            <Fact term={_('Serial number')}>{identity.serial ?? _('not reported')}</Fact>
            <Fact term={_('WWID')}>{identity.wwid ?? _('not reported')}</Fact>
            <Fact term={_('Path')}><ByPath name={identity.byPath} /></Fact>
            {identity.enclosureSlot && (
                <Fact term={_('Enclosure slot')}><LocateControl slot={identity.enclosureSlot} onChoose={onLocate} /></Fact>
            )}
        </DescriptionList>
    );
}

/**
 * The member's device, which opens its disk's details. The locate LED's dialog is kept here, not in
 * the popover: the popover closes as the dialog opens (any click outside it would close it), and its
 * content, with a dialog in it, would go too.
 */
export function MemberDetails({ member, disk, storage }: {
    member: MemberModel; disk: DiskModel | undefined; storage: boolean;
}) {
    const [locate, setLocate] = useState<{ slot: EnclosureSlot; on: boolean } | null>(null);
    const device = `/dev/${member.name}`;
    return (
        <>
            <Popover className="raidtune-disk-details" position="right" headerContent={device} closeBtnAriaLabel={_('Close')}
                bodyContent={hide => (
                    <DiskFacts disk={member.disk} model={disk} onLocate={on => {
                        hide();
                        if (disk?.enclosureSlot) setLocate({ slot: disk.enclosureSlot, on });
                    }} />
                )}
                footerContent={storage ? <DiskInStorage disk={member.disk} short={false} /> : null}>
                <Button variant="link" isInline className="raidtune-member-device" aria-haspopup="dialog">{device}</Button>
            </Popover>
            {locate && (
                <LocateChange disk={member.disk} slot={locate.slot} on={locate.on} onClose={() => setLocate(null)} />
            )}
        </>
    );
}
