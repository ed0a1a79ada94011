// SPDX-License-Identifier: LGPL-2.1-or-later
import { locatePlan } from '../../../../src/md/replace/locateLed';
import { describePlan, invertSteps } from '../../../../src/md/plan';

const slot = { enclosure: '6:0:16:0', component: 'Slot 01', slot: 1, locate: false };

test('turning the LED on writes 1 to the slot\'s locate attribute, quoted for the space in its name', () => {
    const plan = locatePlan('sdb', slot, true);
    expect(describePlan(plan)).toBe("echo 1 > '/sys/class/enclosure/6:0:16:0/Slot 01/locate'");
    // Its undo turns it off again.
    expect(describePlan(invertSteps(plan.title, plan.steps))).toBe("echo 0 > '/sys/class/enclosure/6:0:16:0/Slot 01/locate'");
});

test('nothing to write where the LED already is so; an unknown state is written anyway', () => {
    expect(locatePlan('sdb', slot, false).steps).toEqual([]);
    expect(locatePlan('sdb', { ...slot, locate: true }, true).steps).toEqual([]);
    expect(locatePlan('sdb', { ...slot, locate: null }, false).steps).toHaveLength(1);
});

test('where ledctl is installed it sets the LED, read back from the slot\'s locate attribute; its undo is locate_off', () => {
    const plan = locatePlan('sdb', slot, true, 'ledctl');
    expect(describePlan(plan)).toBe('ledctl locate=/dev/sdb');
    expect(plan.steps[0]).toMatchObject({ verify: { attributeReads: { path: '/sys/class/enclosure/6:0:16:0/Slot 01/locate', value: '1' } } });
    expect(describePlan(invertSteps(plan.title, plan.steps))).toBe('ledctl locate_off=/dev/sdb');
    expect(describePlan(locatePlan('sdb', { ...slot, locate: true }, false, 'ledctl'))).toBe('ledctl locate_off=/dev/sdb');
});
