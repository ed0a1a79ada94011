// SPDX-License-Identifier: LGPL-2.1-or-later
// The automation script view's one entry point: a plan as both texts, or null where a step cannot
// be said for another host (an array without a UUID, a path raidtune does not write).

import type { Plan, Step } from '../plan';
import { playbook } from './playbook';
import { shellScript } from './shellScript';
import { AutomationError, type ArrayRef } from './targets';
import type { DiskRef } from './newDisk';

export { arrayRefs, takesHostDevice, type ArrayRef } from './targets';
export { diskRefs, type DiskRef } from './newDisk';

export interface AutomationTexts {
    shell: string;
    playbook: string;
}

/**
 * The steps that mean something on another host: raidtune's own records of this host (the restore
 * journal, an armed automatic restore and its waiter, all under `stateDir`) are left out.
 */
export function stepsForOtherHosts(steps: readonly Step[], stateDir: string): Step[] {
    const own = (text: string) => text === stateDir || text.startsWith(`${stateDir}/`);
    return steps.filter(step => {
        switch (step.kind) {
        case 'write-file':
        case 'edit-file': return !own(step.path);
        case 'run': return !step.argv.some(own);
        case 'write-attribute': return true;
        }
    });
}

/** `disks`: this host's disks (`diskRefs`), by which a plan that puts a new disk in place finds it. */
export function automationTexts(plan: Plan, title: string, arrays: readonly ArrayRef[],
    disks: readonly DiskRef[] = []): AutomationTexts | null {
    try {
        return { shell: shellScript(plan, title, arrays, disks), playbook: playbook(plan, title, arrays, disks) };
    } catch (e) {
        if (e instanceof AutomationError) return null;
        throw e;
    }
}
