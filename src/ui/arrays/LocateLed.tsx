// SPDX-License-Identifier: LGPL-2.1-or-later
// Where a member's disk sits in the rack (issue #34): its enclosure slot, the slot's locate LED as
// the enclosure says it is, and the change that blinks it or stops it (src/md/replace/locateLed.ts),
// through ledctl where the host has it, previewed and read back as every change is.

import { useEffect, useState } from 'react';
import { Label } from '../pf';
import { _, fmt } from '../../host/i18n';
import { isInstalledOnHost } from '../../host/programs';
import type { EnclosureSlot } from '../../md/modelTypes';
import { locatePlan, locateTitle, type LocateWay } from '../../md/replace/locateLed';
import { GuardedButton } from '../common/GuardedButton';
import { useHostConfig } from '../common/HostContext';
import { text } from '../common/message';
import { ChangeModal } from '../plan/lazyChangeModal';

export function slotText(slot: EnclosureSlot): string {
    return fmt(_('$0, enclosure $1'), slot.component, slot.enclosure);
}

/** ledctl where the host has it, else the ses attribute; null until the host has answered. */
function useLocateWay(): LocateWay | null {
    const { ledctl } = useHostConfig();
    const [way, setWay] = useState<LocateWay | null>(null);
    useEffect(() => {
        let current = true;
        isInstalledOnHost(ledctl).then(installed => current && setWay(installed ? 'ledctl' : 'sysfs'));
        return () => { current = false; };
    }, [ledctl]);
    return way;
}

export function LocateChange({ disk, slot, on, onClose }: {
    disk: string; slot: EnclosureSlot; on: boolean; onClose: () => void;
}) {
    // The slot as the dialog opened: the LED's state then is what its undo puts back.
    const [opened] = useState(slot);
    const way = useLocateWay();
    const plan = way && locatePlan(disk, opened, on, way);
    return (
        <ChangeModal title={text(locateTitle(disk, on))} plan={plan} recordOriginals={false} onClose={onClose}>
            {way === 'ledctl'
                ? fmt(_('ledctl (ledmon) lights the locate LED of $0 ($1) until it is turned off here, or by ledctl.'), disk, slotText(slot))
                : fmt(_('The enclosure lights the locate LED of $0 ($1) until it is turned off here, or by ledctl.'), disk, slotText(slot))}
        </ChangeModal>
    );
}

/**
 * The slot, its LED as the enclosure says, and the button that asks to turn it on or off: `onChoose`
 * opens the change dialog, which its owner keeps where a closing popover does not take it along.
 */
export function LocateControl({ slot, onChoose }: { slot: EnclosureSlot; onChoose: (on: boolean) => void }) {
    const on = slot.locate === true;
    return (
        <>
            <span className="raidtune-member-slot">{slotText(slot)}</span>
            {on && <> <Label isCompact status="info" className="raidtune-locate-on">{_('locate LED on')}</Label></>}
            {' '}
            <GuardedButton variant="link" isInline className="raidtune-locate" onClick={() => onChoose(!on)}>
                {on ? _('Stop blinking…') : _('Blink locate LED…')}
            </GuardedButton>
        </>
    );
}

export function LocateLed({ disk, slot }: { disk: string; slot: EnclosureSlot }) {
    // What the dialog was opened to do: turn the LED on, or off.
    const [opened, setOpened] = useState<boolean | null>(null);
    return (
        <>
            <LocateControl slot={slot} onChoose={setOpened} />
            {opened !== null && <LocateChange disk={disk} slot={slot} on={opened} onClose={() => setOpened(null)} />}
        </>
    );
}
