// SPDX-License-Identifier: LGPL-2.1-or-later
// Finding a disk in the rack (issue #34): the locate LED of the enclosure slot it sits in. Where
// ledmon's ledctl is installed it sets the LED (`ledctl locate=/dev/sdX`; ledmon, if it runs, then
// knows and does not turn it off at its next scan); elsewhere the page writes the kernel's ses
// attribute itself (/sys/class/enclosure/ENCLOSURE/COMPONENT/locate, what ledctl writes for an SES
// enclosure). Either way the attribute is read back, and the opposite undoes it.

import { msg, N_, type Message } from '../message';
import type { EnclosureSlot } from '../modelTypes';
import { attributePlan, attributeStep, type Plan } from '../plan';

/** The slot's locate attribute, as a canonical host path. */
export function locatePath(slot: EnclosureSlot): string {
    return `/sys/class/enclosure/${slot.enclosure}/${slot.component}/locate`;
}

/** How the LED is set: through ledctl where it is installed, else the ses attribute. */
export type LocateWay = 'ledctl' | 'sysfs';

function ledctlArgv(disk: string, on: boolean): string[] {
    return ['ledctl', `${on ? 'locate' : 'locate_off'}=/dev/${disk}`];
}

/** What the dialog that turns the LED on or off is called. */
export function locateTitle(disk: string, on: boolean): Message {
    return on ? msg(N_('Blink the locate LED of $0'), disk) : msg(N_('Stop the locate LED of $0'), disk);
}

/** Turns the LED of `disk`'s slot on or off; the sysfs way writes nothing where it already is so. */
export function locatePlan(disk: string, slot: EnclosureSlot, on: boolean, way: LocateWay = 'sysfs'): Plan {
    const title = locateTitle(disk, on);
    const setting = msg(N_('locate LED of $0 ($1)'), disk, slot.component);
    if (way === 'ledctl') {
        return {
            title,
            steps: [{
                kind: 'run', setting, argv: ledctlArgv(disk, on), undoArgv: ledctlArgv(disk, !on),
                verify: { attributeReads: { path: locatePath(slot), value: on ? '1' : '0' } },
            }],
        };
    }
    const from = slot.locate === null ? null : slot.locate ? 1 : 0;
    return attributePlan(title, attributeStep(setting, locatePath(slot), on ? 1 : 0, from));
}
