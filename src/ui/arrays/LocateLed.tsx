// SPDX-License-Identifier: LGPL-2.1-or-later
// Where a member's disk sits in the rack (issue #34): its enclosure slot, the slot's locate LED as
// the enclosure says it is, and the change that blinks it or stops it (src/md/replace/locateLed.ts),
// previewed and read back as every change is.

import { useState } from 'react';
import { Label } from '../pf';
import { _, fmt } from '../../host/i18n';
import type { EnclosureSlot } from '../../md/modelTypes';
import { locatePlan } from '../../md/replace/locateLed';
import { GuardedButton } from '../common/GuardedButton';
import { text } from '../common/message';
import { ChangeModal } from '../plan/lazyChangeModal';

export function slotText(slot: EnclosureSlot): string {
    return fmt(_('$0, enclosure $1'), slot.component, slot.enclosure);
}

export function LocateLed({ disk, slot }: { disk: string; slot: EnclosureSlot }) {
    // The plan as the dialog opened: the LED's state then is what its undo puts back.
    const [opened, setOpened] = useState<ReturnType<typeof locatePlan> | null>(null);
    const on = slot.locate === true;
    return (
        <>
            <span className="raidtune-member-slot">{slotText(slot)}</span>
            {on && <> <Label isCompact status="info" className="raidtune-locate-on">{_('locate LED on')}</Label></>}
            {' '}
            <GuardedButton variant="link" isInline className="raidtune-locate"
                onClick={() => setOpened(locatePlan(disk, slot, !on))}>
                {on ? _('Stop blinking…') : _('Blink locate LED…')}
            </GuardedButton>
            {opened && (
                <ChangeModal title={text(opened.title)} plan={opened} recordOriginals={false}
                    onClose={() => setOpened(null)}>
                    {fmt(_('The enclosure lights the locate LED of $0 ($1) until it is turned off here, or by ledctl.'),
                        disk, slotText(slot))}
                </ChangeModal>
            )}
        </>
    );
}
