// SPDX-License-Identifier: LGPL-2.1-or-later
// The change as a script for other hosts, Cockpit's "automation script" idiom: the same plan as a
// POSIX shell script and as an Ansible playbook, each folded away until asked for, with a copy
// button. Both find the arrays by UUID, so they are made from the model's arrays; raidtune's own
// records of this host are not part of them (nothing at all for the automatic restore's arming).

import { useMemo, useState } from 'react';
import { Stack, StackItem } from '../pf';
import { ExpandableSection } from '../pfDetails';
import { _ } from '../../host/i18n';
import { arrayRefs, automationTexts, diskRefs, stepsForOtherHosts, takesHostDevice } from '../../md/automation';
import { msg } from '../../md/message';
import type { Step } from '../../md/plan';
import { CopyableCommands } from '../common/CopyableCommands';
import { useHost } from '../common/HostContext';

function Folded({ id, label, copyLabel, text }: { id: string; label: string; copyLabel: string; text: string }) {
    const [open, setOpen] = useState(false);
    return (
        <ExpandableSection toggleText={label} isExpanded={open} onToggle={(_event, o) => setOpen(o)} className={`raidtune-${id}`}>
            <CopyableCommands id={`raidtune-${id}`} commands={[text]} copyLabel={copyLabel} />
        </ExpandableSection>
    );
}

export function AutomationScript({ steps, title }: { steps: Step[]; title: string }) {
    const { model, config } = useHost();
    const texts = useMemo(() => {
        const portable = stepsForOtherHosts(steps, config.stateDir);
        if (!portable.length) return undefined;
        const plan = { title: msg(title), steps: portable };
        return automationTexts(plan, title, arrayRefs(model.arrays), diskRefs(model.disks.values()));
    }, [steps, title, model.arrays, model.disks, config.stateDir]);
    if (texts === undefined) return null;
    const newDisk = steps.some(takesHostDevice);
    if (!texts) {
        return (
            <StackItem className="raidtune-automation-none">
                {steps.some(takesHostDevice)
                    ? _('This change takes a disk that reports neither a WWID nor a serial number: a script could not tell it from the other disks of a host, so it is not written as one.')
                    : _('This change names a device without a UUID, so it cannot be written as a script for other hosts.')}
            </StackItem>
        );
    }
    return (
        <StackItem><Stack className="raidtune-automation">
            <StackItem>{newDisk
                ? _('Automation script: the same change as a script, which finds the arrays by UUID and the new disk by its WWID or serial number, refuses a host without that disk or where something uses it, and changes nothing when run again.')
                : _('Automation script: the same change for other hosts, which finds the arrays by UUID, checks them first and changes nothing when run again.')}</StackItem>
            <StackItem><Folded id="shell-script" label={_('Shell script')} copyLabel={_('Copy the shell script')} text={texts.shell} /></StackItem>
            <StackItem><Folded id="ansible-playbook" label={_('Ansible playbook')} copyLabel={_('Copy the playbook')} text={texts.playbook} /></StackItem>
        </Stack></StackItem>
    );
}
