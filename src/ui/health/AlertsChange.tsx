// SPDX-License-Identifier: LGPL-2.1-or-later
// The dialog that changes MAILADDR, MAILFROM and PROGRAM: the core checks them and builds the plan; the host
// says whether the program path is one it can run (asked again whenever the path changes).

import { useEffect, useState } from 'react';
import { Form, HelperTextItem, Modal, ModalBody, ModalFooter, ModalHeader } from '../pfForms';
import { Button } from '../pf';
import { NumberField } from '../common/NumberField';
import { useHost } from '../common/HostContext';
import { ChangeModal } from '../plan/ChangeModal';
import { _, fmt, ngettext } from '../../host/i18n';
import { isExecutableOnHost } from '../../host/monitorAlerts';
import type { ApplyResult } from '../../host/executor';
import { alertsPlan, keptProgramWarning, parseProgram } from '../../md/alerts/alertsPlan';
import { text } from '../common/message';
import type { MonitorState } from '../../md/alerts/monitor';

/** Whether the host can run the program typed, once the path itself is well formed. */
function useExecutable(input: string): boolean | null {
    const [answer, setAnswer] = useState<{ path: string; executable: boolean } | null>(null);
    const parsed = parseProgram(input, null).value ?? null;
    useEffect(() => {
        if (parsed === null) return;
        let current = true;
        isExecutableOnHost(parsed).then(executable => current && setAnswer({ path: parsed, executable }));
        return () => { current = false; };
    }, [parsed]);
    return answer && answer.path === parsed ? answer.executable : null;
}

export function AlertsChange({ state, onClose, onApplied }: {
    state: MonitorState; onClose: () => void; onApplied: (result: ApplyResult) => void;
}) {
    const { config } = useHost();
    const [mailAddr, setMailAddr] = useState(state.conf.mailAddr ?? '');
    const [mailFrom, setMailFrom] = useState(state.conf.mailFrom ?? '');
    const [program, setProgram] = useState(state.conf.program ?? '');
    const executable = useExecutable(program);
    const result = alertsPlan(state, { mailAddr, mailFrom, program, systemctl: config.systemctl }, executable);
    const programWarning = keptProgramWarning(state, program, executable);
    return (
        <ChangeModal title={_('Alerts when a disk fails')} plan={result.plan ?? null} warnings={result.warnings}
            recordOriginals={false} onClose={onClose} onApplied={onApplied}>
            <Form onSubmit={e => e.preventDefault()}>
                <NumberField id="alerts-mailaddr" label={_('E-mail address (MAILADDR)')} inputMode="email"
                    value={mailAddr} onChange={setMailAddr} error={result.errors?.mailAddr}>
                    <HelperTextItem>{_('One address or local user; empty removes the line. The host must be able to send mail.')}</HelperTextItem>
                </NumberField>
                <NumberField id="alerts-mailfrom" label={_('Sender (MAILFROM)')} inputMode="email"
                    value={mailFrom} onChange={setMailFrom} error={result.errors?.mailFrom}>
                    <HelperTextItem>{_('The From of the alert mails, for filters and replies; empty removes the line (mdadm then writes its own).')}</HelperTextItem>
                </NumberField>
                <NumberField id="alerts-program" label={_('Program (PROGRAM)')} inputMode="text"
                    value={program} onChange={setProgram} error={result.errors?.program}>
                    {programWarning && (
                        <HelperTextItem variant="warning" className="raidtune-program-missing">{text(programWarning)}</HelperTextItem>
                    )}
                    <HelperTextItem>
                        {_('Run as root at every event with the event, the md device and the member disk as arguments; empty removes the line.')}
                    </HelperTextItem>
                </NumberField>
            </Form>
        </ChangeModal>
    );
}

/**
 * mdadm mails a test alert once per array: on a host with many arrays the address gets as many
 * mails, so the page asks first, saying how many and to whom.
 */
export function TestAlertConfirm({ arrays, mailAddr, onSend, onClose }: {
    arrays: number; mailAddr: string; onSend: () => void; onClose: () => void;
}) {
    return (
        <Modal isOpen variant="small" onClose={onClose} aria-labelledby="test-alert-confirm-title" id="test-alert-confirm">
            <ModalHeader title={_('Send a test alert')} labelId="test-alert-confirm-title" />
            <ModalBody>
                {fmt(ngettext('mdadm --monitor sends one mail per array: $0 mail to $1.', 'mdadm --monitor sends one mail per array: $0 mails to $1.', arrays),
                    arrays, mailAddr)}
            </ModalBody>
            <ModalFooter>
                <Button variant="primary" onClick={() => { onClose(); onSend(); }}>
                    {fmt(ngettext('Send $0 mail', 'Send $0 mails', arrays), arrays)}
                </Button>
                <Button variant="link" onClick={onClose}>{_('Cancel')}</Button>
            </ModalFooter>
        </Modal>
    );
}
