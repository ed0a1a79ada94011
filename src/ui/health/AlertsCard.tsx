// SPDX-License-Identifier: LGPL-2.1-or-later
// Whether anyone is told when a disk fails: what mdadm --monitor reads (MAILADDR, MAILFROM,
// PROGRAM), the service that runs it, a warning when nobody would be told, the change dialog with
// an undo of the last change, and "Send a test alert". Read from the host when the page opens and
// after each change, not at every refresh: none of it moves by itself.

import { useState } from 'react';
import { Alert, Content, Stack, StackItem } from '../pf';
import { SettingLine } from '../common/SettingLine';
import {
    DescriptionList, DescriptionListDescription, DescriptionListGroup, DescriptionListTerm, Flex, FlexItem,
} from '../pfDetails';
import { CopyableCommands } from '../common/CopyableCommands';
import { GuardedButton } from '../common/GuardedButton';
import { useHost } from '../common/HostContext';
import { lazyModule } from '../common/lazyPart';
import { ChangeModal } from '../plan/lazyChangeModal';

// The alerts' dialog, fetched when it first opens (or once the first view is up: App.tsx).
const alertsChange = lazyModule(() => import('../../later').then(later => later.alertsChange));
const AlertsChange = alertsChange.part('AlertsChange');
const TestAlertConfirm = alertsChange.part('TestAlertConfirm');
export const preloadAlertsChange = alertsChange.preload;
import { _, fmt } from '../../host/i18n';
import type { ApplyResult } from '../../host/executor';
import { reopenedPlan } from '../../host/applyPlan';
import { isExecutableOnHost, readMonitorState, sendTestAlert } from '../../host/monitorAlerts';
import { text } from '../common/message';
import { alertsPlanTitle, testAlertHanded, testAlertProblem } from '../../md/alerts/alertsPlan';
import { alertProblem, monitorUnit, MONITOR_UNITS, type MonitorState } from '../../md/alerts/monitor';
import { invertSteps, type Plan } from '../../md/plan';

/** A test alert's end: mdadm's words, and when it went through, whom it handed what. */
type TestOutcome = { ok: true; words: string; handed: string[] } | { ok: false; words: string } | null;

function serviceText(state: MonitorState): string {
    if (state.units === null) return _('unknown (the host has no systemctl)');
    const unit = monitorUnit(state);
    if (!unit) return fmt(_('none ($0 not installed)'), MONITOR_UNITS.join(', '));
    return fmt(_('$0: $1 ($2)'), unit.id, unit.activeState, unit.unitFileState || '-');
}

function Problem({ state }: { state: MonitorState }) {
    const { config } = useHost();
    const problem = alertProblem(state);
    if (!problem) return null;
    const unit = monitorUnit(state);
    if (problem === 'no-mta') {
        // Nobody learns of a failed disk by mail: as grave as the failure it hides.
        return (
            <Alert isInline variant="danger" className="raidtune-alerts-problem" component="h4"
                title={_('Alert mails cannot leave this host')}>
                <p>{fmt(_('mdadm --monitor hands its mail for $0 to $1, and this host has none: no mail is sent when a disk fails. Install a mail transfer agent (such as postfix) and send a test alert, or set a PROGRAM that tells someone another way.'),
                    state.conf.mailAddr ?? '', config.sendmail)}</p>
            </Alert>
        );
    }
    return (
        <Alert isInline variant="warning" className="raidtune-alerts-problem" component="h4"
            title={_('Nobody is told when a disk fails')}>
            {problem === 'no-recipient'
                ? <p>{fmt(_('mdadm --monitor tells only the e-mail address (MAILADDR) or the program (PROGRAM) that $0 names, and it names neither: the monitor does not even start. Set one with “Change…”.'), state.confPath)}</p>
                : (
                    <>
                        <p>{unit
                            ? fmt(_('The service that runs mdadm --monitor, $0, is $1: the address and program are not used.'), unit.id, unit.activeState)
                            : _('No service runs mdadm --monitor on this host: the address and program are not used.')}</p>
                        <CopyableCommands id="alerts-start-monitor" commands={[`systemctl enable --now ${unit?.id ?? MONITOR_UNITS[0]}`]} />
                    </>
                )}
        </Alert>
    );
}

/** Who is told, and by which service: "Mail to root, by mdmonitor.service (active)". */
function summaryText(state: MonitorState): string {
    const { mailAddr, program } = state.conf;
    const who = mailAddr && program ? fmt(_('Mail to $0 and the program $1'), mailAddr, program)
        : mailAddr ? fmt(_('Mail to $0'), mailAddr)
            : program ? fmt(_('The program $0'), program) : _('Nobody: no address and no program');
    const unit = monitorUnit(state);
    const service = state.units === null ? _('the monitor service is unknown (no systemctl)')
        : unit ? fmt(_('by $0 ($1)'), unit.id, unit.activeState) : _('no monitor service installed');
    return fmt(_('$0, $1'), who, service);
}

function Facts({ state }: { state: MonitorState }) {
    const none = _('none');
    const rows: [string, string, string][] = [
        ['alerts-fact-conf', _('Configuration file'), state.confFiles.length ? state.confPath : fmt(_('none ($0 would be created)'), state.confPath)],
        ['alerts-fact-mailaddr', _('E-mail address (MAILADDR)'), state.conf.mailAddr ?? none],
        ['alerts-fact-mailfrom', _('Sender (MAILFROM)'), state.conf.mailFrom ?? none],
        ['alerts-fact-program', _('Program (PROGRAM)'), state.conf.program ?? none],
        ['alerts-fact-service', _('Monitor service'), serviceText(state)],
    ];
    return (
        <DescriptionList isHorizontal isCompact horizontalTermWidthModifier={{ default: "14rem" }}>
            {rows.map(([id, term, value]) => (
                <DescriptionListGroup key={id}>
                    <DescriptionListTerm>{term}</DescriptionListTerm>
                    <DescriptionListDescription id={id}>{value}</DescriptionListDescription>
                </DescriptionListGroup>
            ))}
        </DescriptionList>
    );
}

function TestResult({ outcome }: { outcome: TestOutcome }) {
    if (!outcome) return null;
    return outcome.ok
        ? <Alert isInline variant="success" className="raidtune-test-alert-result" title={_('Test alert sent')}>
            {outcome.handed.map(line => <p key={line} className="raidtune-test-alert-handed">{line}</p>)}
            {outcome.words && <pre>{outcome.words}</pre>}
        </Alert>
        : <Alert isInline variant="danger" className="raidtune-test-alert-result" title={fmt(_('The test alert failed: $0'), outcome.words)} />;
}

/** `arrays`: how many arrays the page shows, each of which gets a test mail. */
export function AlertsCard({ state, error, reread, arrays }: {
    state: MonitorState | null; error: string | null; reread: () => void; arrays: number;
}) {
    const { config } = useHost();
    // The dialogs decide on mdadm.conf as it is when they open, not as the page read it earlier.
    const [changing, setChanging] = useState<MonitorState | null>(null);
    const [undoing, setUndoing] = useState<Plan | null>(null);
    const [lastChange, setLastChange] = useState<Plan | null>(null);
    const [testing, setTesting] = useState(false);
    const [confirming, setConfirming] = useState<MonitorState | null>(null);
    const [test, setTest] = useState<TestOutcome>(null);

    // The file's old text is the undo of a change (and an undone change's, a redo).
    const applied = (result: ApplyResult) => {
        if (!result.failed) setLastChange(invertSteps(alertsPlanTitle(), result.done.map(o => o.step)));
        reread();
    };
    const sendTest = (current: MonitorState) => {
        setTesting(true);
        setTest(null);
        // mdadm ignores a PROGRAM it cannot run: whether the host can run it is asked beside.
        const program = current.conf.program;
        Promise.all([sendTestAlert(config, current), program === null ? null : isExecutableOnHost(program)])
            .then(([words, executable]) => {
                const problem = testAlertProblem(current, executable, config.sendmail);
                setTest(problem ? { ok: false, words: `${text(problem)} ${words.trim()}`.trim() }
                    : { ok: true, words: words.trim(), handed: testAlertHanded(current, config.sendmail).map(text) });
            }, (e: Error) => setTest({ ok: false, words: e.message })).finally(() => setTesting(false));
    };
    const noRecipient = state && alertProblem(state) === 'no-recipient'
        ? _('mdadm.conf names no address and no program: set one first.') : null;

    const openChange = (shown: MonitorState) => {
        readMonitorState(config).then(setChanging, () => setChanging(shown));
    };
    const openUndo = (plan: Plan) => reopenedPlan(plan).then(setUndoing, () => setUndoing(plan));

    const actions = state && (
        <Flex spaceItems={{ default: 'spaceItemsSm' }} flexWrap={{ default: 'nowrap' }}>
            <FlexItem><GuardedButton variant="secondary" id="alerts-change" onClick={() => openChange(state)}>{_('Change…')}</GuardedButton></FlexItem>
            <FlexItem>
                <GuardedButton variant="secondary" id="alerts-test" isLoading={testing} disabledReason={noRecipient}
                    onClick={() => (state.conf.mailAddr && arrays > 1 ? setConfirming(state) : sendTest(state))}>
                    {_('Send a test alert')}
                </GuardedButton>
            </FlexItem>
            {lastChange && lastChange.steps.length > 0 && (
                <FlexItem><GuardedButton variant="link" id="alerts-undo" onClick={() => openUndo(lastChange)}>{_('Undo the last change…')}</GuardedButton></FlexItem>
            )}
        </Flex>
    );
    return (
        <SettingLine id="monitor-alerts" title={_('Alerts when a disk fails')} actions={actions}
            summary={<Content component="p" id="alerts-summary">{state ? summaryText(state) : error ? _('unknown') : _('Reading…')}</Content>}
            notes={(error || (state && alertProblem(state)) || test) && (
                <Stack hasGutter>
                    {error && <StackItem><Alert isInline variant="danger" title={error} /></StackItem>}
                    {state && <StackItem><Problem state={state} /></StackItem>}
                    <StackItem><TestResult outcome={test} /></StackItem>
                </Stack>
            )}
            details={state && (
                <Stack hasGutter>
                    <StackItem><Facts state={state} /></StackItem>
                    {state.confFiles.length > 1 && (
                        <StackItem><Alert isInline variant="info" title={fmt(_('$0 exists too; mdadm reads the first file it finds, which depends on how it was built. raidtune shows and edits $1.'), state.confFiles[1].path, state.confPath)} /></StackItem>
                    )}
                </Stack>
            )}>
            {confirming && (
                <TestAlertConfirm arrays={arrays} mailAddr={confirming.conf.mailAddr ?? ''} onSend={() => sendTest(confirming)}
                    onClose={() => setConfirming(null)} />
            )}
            {changing && (
                <AlertsChange state={changing} onClose={() => setChanging(null)}
                    onApplied={applied} />
            )}
            {undoing && (
                <ChangeModal title={_('Undo the last change of the alerts')} plan={undoing} recordOriginals={false}
                    onClose={() => setUndoing(null)} onApplied={applied} />
            )}
        </SettingLine>
    );
}
