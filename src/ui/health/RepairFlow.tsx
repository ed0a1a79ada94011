// SPDX-License-Identifier: LGPL-2.1-or-later
// The guided "repair, then check again" on an array's card (src/md/repairFlow.ts): which step it
// is at, the count it started from, and at the end the two counts compared. The step comes from
// the host's record and the kernel, so every browser shows the same one.

import { useState } from 'react';
import { Alert, CardBody, Content } from '../pf';
import { Flex, FlexItem } from '../pfDetails';
import { _, fmt } from '../../host/i18n';
import { formatKiB, formatRate } from '../../md/format';
import type { Message } from '../../md/message';
import type { Plan } from '../../md/plan';
import type { ArrayModel, HostModel } from '../../md/modelTypes';
import { checkAgainPlan, forgetRepairFlowPlan, repairFlowState, repairPlan, type RepairFlowState } from '../../md/repairFlow';
import type { RepairFlowRecord } from '../../md/repairFlowRecord';
import { comparisonText, outcomeText, repairDoes, repairDuration } from '../../md/repairTexts';
import { syncControlUnavailable } from '../../md/tuning/syncControl';
import { GuardedButton } from '../common/GuardedButton';
import { useHostConfig } from '../common/HostContext';
import { text } from '../common/message';
import { durationText } from '../common/syncTexts';
import { ChangeModal } from '../plan/lazyChangeModal';

/** A dialog as it opened: its plan is fixed then, as applying it moves the flow to its next step. */
interface Opened {
    title: string;
    plan: Plan;
    applyLabel: string;
    preview: React.ReactNode;
}

const reason = (message: Message | null) => message && text(message);
const startedText = (iso: string) => new Date(iso).toLocaleString();

/** How long a pass over the whole array takes at the current limits. */
function DurationText({ array, host }: { array: ArrayModel; host: HostModel }) {
    const duration = repairDuration(array, host);
    if (!duration) return null;
    return (
        <Content component="p" className="raidtune-repair-duration">
            {fmt(_('It reads the whole array and writes what differs: $0 on each disk. At the current maximum of $1 that takes at least $2; held at the minimum of $3 by other I/O, up to $4.'),
                formatKiB(duration.perDiskKiB), formatRate(duration.maxKiBs), durationText(duration.fastestSeconds),
                formatRate(duration.minKiBs), durationText(duration.slowestSeconds))}
        </Content>
    );
}

function RepairPreview({ array, host }: { array: ArrayModel; host: HostModel }) {
    return (
        <div className="raidtune-repair-preview">
            <Content component="p">{text(repairDoes(array.level))}</Content>
            <DurationText array={array} host={host} />
            <Content component="p">{_('When it ends, the card offers step 2: a check that counts what still differs, compared with the count before.')}</Content>
        </div>
    );
}

/** The step's title, its sentence, and whether it is good news, news to act on, or in progress. */
type StepWords = { title: string; body: string; variant: 'info' | 'success' | 'warning' };

function stepWords(state: RepairFlowState, level: string | null): StepWords {
    const before = 'record' in state ? state.record.before : state.before;
    const from = fmt(_('It started from $0 mismatched sectors found by the last check.'), before);
    switch (state.step) {
    case 'offer':
        return {
            variant: 'info', title: _('Guided repair: repair, then check again'),
            body: fmt(_('The last check found $0 mismatched sectors. A repair rewrites them; a check after it tells whether they stay away.'), before),
        };
    case 'repair-pending':
        return { variant: 'info', title: _('Step 1 of 2: the repair was asked for and has not started yet'), body: from };
    case 'repairing':
        return { variant: 'info', title: _('Step 1 of 2: repairing'), body: `${from} ${fmt(_('Started $0.'), startedText(state.record.repairStartedAt))}` };
    case 'repaired':
        return {
            variant: 'info', title: _('Step 1 of 2 done: the repair ended'),
            body: `${fmt(_('It rewrote $0 sectors; the check before it found $1.'), state.rewritten ?? '—', before)} ${_('Step 2 of 2: check again.')}`,
        };
    case 'check-pending':
        return { variant: 'info', title: _('Step 2 of 2: the check was asked for and has not started yet'), body: from };
    case 'checking':
        return {
            variant: 'info', title: _('Step 2 of 2: checking again'),
            body: `${fmt(_('Before the repair: $0 mismatched sectors.'), before)} ${fmt(_('Started $0.'), startedText(state.record.checkStartedAt!))}`,
        };
    case 'compared': {
        const after = state.after ?? 0;
        return {
            variant: after === 0 ? 'success' : 'warning',
            title: after === 0 ? _('Repaired') : _('Mismatches again after the repair'),
            body: `${text(comparisonText(before, after))} ${text(outcomeText(level, after))}`,
        };
    }
    case 'stale':
        return { variant: 'warning', title: _('A guided repair was recorded for an earlier array of this name'), body: from };
    }
}

export function RepairFlow({ array, host, record }: {
    array: ArrayModel; host: HostModel; record: RepairFlowRecord | null;
}) {
    const config = useHostConfig();
    const [opened, setOpened] = useState<Opened | null>(null);
    const state = repairFlowState(array, record);
    if (!state && !opened) return null;
    const now = () => new Date().toISOString();
    const openRepair = (before: number) => setOpened({
        title: _('Repair'), plan: repairPlan(array, before, config.stateDir, now()), applyLabel: _('Start repair'),
        preview: <RepairPreview array={array} host={host} />,
    });
    const openCheck = (flow: RepairFlowRecord) => setOpened({
        title: _('Check again'), plan: checkAgainPlan(flow, config.stateDir, now()), applyLabel: _('Start check'),
        preview: <Content component="p">{_('The check reads the whole array again and counts what still differs, without writing.')}</Content>,
    });
    const openEnd = (flow: RepairFlowRecord) => setOpened({
        title: _('End the guided repair'), plan: forgetRepairFlowPlan(flow, config.stateDir), applyLabel: _('End'),
        preview: <Content component="p">{_('raidtune forgets the guided repair; the array is left as it is.')}</Content>,
    });
    const words = state && stepWords(state, array.level);
    const flow = state && 'record' in state ? state.record : null;
    return (
        <>
            {state && words && (<CardBody>
                <Alert isInline isPlain variant={words.variant} title={words.title}
                    className={`raidtune-repair-flow raidtune-repair-${state.step}`}>
                    <Content component="p" className="raidtune-repair-text">{words.body}</Content>
                    <Flex spaceItems={{ default: 'spaceItemsSm' }}>
                        {state.step === 'offer' && (
                            <FlexItem><GuardedButton variant="secondary" disabledReason={reason(syncControlUnavailable(array, 'repair'))}
                                onClick={() => openRepair(state.before)}>{_('Repair…')}</GuardedButton></FlexItem>
                        )}
                        {state.step === 'repaired' && (
                            <FlexItem><GuardedButton variant="secondary" disabledReason={reason(syncControlUnavailable(array, 'check'))}
                                onClick={() => openCheck(state.record)}>{_('Check again…')}</GuardedButton></FlexItem>
                        )}
                        {flow && state.step !== 'repairing' && state.step !== 'checking' && (
                            <FlexItem>
                                <GuardedButton variant="link" onClick={() => openEnd(flow)}>
                                    {state.step === 'compared' ? _('Done') : _('End guided repair…')}
                                </GuardedButton>
                            </FlexItem>
                        )}
                    </Flex>
                </Alert>
            </CardBody>)}
            {opened && (
                <ChangeModal title={opened.title} plan={opened.plan} recordOriginals={false}
                    applyLabel={opened.applyLabel} onClose={() => setOpened(null)}>
                    {opened.preview}
                </ChangeModal>
            )}
        </>
    );
}
