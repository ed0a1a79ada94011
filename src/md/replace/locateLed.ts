// SPDX-License-Identifier: LGPL-2.1-or-later
// Finding a disk in the rack (issue #34): the locate LED of the enclosure slot it sits in, turned on
// or off through the kernel's ses driver (/sys/class/enclosure/ENCLOSURE/COMPONENT/locate, what
// ledctl writes for an SES enclosure), read back as every attribute write is, and undone by the
// opposite write.

import { msg, N_ } from '../message';
import type { EnclosureSlot } from '../modelTypes';
import { attributePlan, attributeStep, type Plan } from '../plan';

/** The slot's locate attribute, as a canonical host path. */
export function locatePath(slot: EnclosureSlot): string {
    return `/sys/class/enclosure/${slot.enclosure}/${slot.component}/locate`;
}

/** Turns the LED of `disk`'s slot on or off; no step where it already is so. */
export function locatePlan(disk: string, slot: EnclosureSlot, on: boolean): Plan {
    const title = on ? msg(N_('Blink the locate LED of $0'), disk) : msg(N_('Stop the locate LED of $0'), disk);
    const from = slot.locate === null ? null : slot.locate ? 1 : 0;
    return attributePlan(title, attributeStep(msg(N_('locate LED of $0 ($1)'), disk, slot.component), locatePath(slot),
        on ? 1 : 0, from));
}
