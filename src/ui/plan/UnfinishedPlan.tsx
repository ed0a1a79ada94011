// SPDX-License-Identifier: LGPL-2.1-or-later
// A plan cut short (the tab closed, the page reloaded, the connection lost while applying) leaves
// its record on the host (src/md/planRecord.ts). This says so, with what took effect, and offers
// to finish it or undo it, each previewed in the usual change dialog.

import { useEffect, useState } from 'react';
import { Alert, AlertActionLink, Content, StackItem } from '../pf';
import { _, fmt } from '../../host/i18n';
import { readStepTargets, recordState } from '../../host/executor';
import { finishPlan, forgetPlan, planProgress, undoPlan, type PlanProgress, type PlanRecord } from '../../md/planRecord';
import type { Plan } from '../../md/plan';
import { useHost } from '../common/HostContext';
import { text } from '../common/message';
import { ChangeModal } from './lazyChangeModal';

interface Offer {
    title: string;
    plan: Plan;
    applyLabel: string;
    recordOriginals: boolean;
}

/** What the host holds of the record's steps, read once per record. */
function useProgress(record: PlanRecord | null): PlanProgress | null {
    const { config } = useHost();
    const [progress, setProgress] = useState<{ id: string; progress: PlanProgress } | null>(null);
    useEffect(() => {
        if (!record) return;
        let current = true;
        void readStepTargets(config, record.steps).then(values => {
            if (current) setProgress({ id: record.id, progress: planProgress(record, values) });
        });
        return () => { current = false; };
    }, [config, record]);
    return record && progress?.id === record.id ? progress.progress : null;
}

/** Another page applies a plan now: nothing to finish or undo (yet), only said. */
function ApplyingElsewhere({ record }: { record: PlanRecord }) {
    return (
        <StackItem>
            <Alert isInline variant="info" className="raidtune-applying-elsewhere"
                title={fmt(_('A change is being applied in another session: $0'), text(record.title))}>
                <p>{fmt(_('It started at $0. If it does not finish, this page offers to finish or undo it.'),
                    new Date(record.startedAt).toLocaleString())}</p>
            </Alert>
        </StackItem>
    );
}

/** A StackItem of the page while a record is shown; its dialogs outlive the record. */
export function UnfinishedPlan() {
    const { model, config, admin } = useHost();
    // Checked again at every refresh: another page's record turns unfinished once it falls silent.
    const state = model.planRecord ? recordState(model.planRecord) : null;
    const record = state === 'unfinished' ? model.planRecord : null;
    const elsewhere = state === 'applying' ? model.planRecord : null;
    const progress = useProgress(record);
    // Fixed when its dialog opens: the dialog stays to say how it went after the record is gone.
    const [offer, setOffer] = useState<Offer | null>(null);
    const title = record && text(record.title);
    const links = record && progress && admin ? [
        progress.remaining.length > 0 && (
            <AlertActionLink key="finish" onClick={() => setOffer({
                title: fmt(_('Finish: $0'), title!), plan: finishPlan(record, progress), applyLabel: _('Finish'), recordOriginals: true,
            })}>{_('Finish')}</AlertActionLink>
        ),
        progress.applied.length > 0 && (
            <AlertActionLink key="undo" onClick={() => setOffer({
                title: fmt(_('Undo: $0'), title!), plan: undoPlan(record, progress), applyLabel: _('Undo'), recordOriginals: false,
            })}>{_('Undo')}</AlertActionLink>
        ),
        <AlertActionLink key="forget" onClick={() => setOffer({
            title: _('Forget the unfinished change'), plan: forgetPlan(config.stateDir), applyLabel: _('Forget'), recordOriginals: false,
        })}>{_('Leave as it is')}</AlertActionLink>,
    ].filter(Boolean) : undefined;
    return (
        <>
            {elsewhere && <ApplyingElsewhere record={elsewhere} />}
            {record && (
                <StackItem>
                    <Alert isInline variant="warning" className="raidtune-unfinished" title={fmt(_('A change did not finish: $0'), title!)}
                        actionLinks={links}>
                        <p>{_('It was cut short (the page closed or reloaded, or the connection was lost) before all of its steps ran.')}</p>
                        {progress && (
                            <Content component="ul">
                                {progress.applied.map((step, i) => (
                                    <Content component="li" key={`a${i}`} className="raidtune-unfinished-applied">{fmt(_('Took effect: $0'), text(step.setting))}</Content>
                                ))}
                                {progress.remaining.map((step, i) => (
                                    <Content component="li" key={`r${i}`} className="raidtune-unfinished-remaining">{fmt(_('Not done: $0'), text(step.setting))}</Content>
                                ))}
                            </Content>
                        )}
                    </Alert>
                </StackItem>
            )}
            {offer && (
                <ChangeModal title={offer.title} plan={offer.plan} applyLabel={offer.applyLabel}
                    recordOriginals={offer.recordOriginals}
                    onClose={() => setOffer(null)} />
            )}
        </>
    );
}
