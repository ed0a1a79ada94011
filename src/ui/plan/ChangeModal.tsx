// SPDX-License-Identifier: LGPL-2.1-or-later
// The one way raidtune changes anything: a form (children) whose current plan is shown as the
// exact commands, applied only when the user confirms, then the outcome: what the kernel kept,
// or which step failed and why, with an offer to undo what was already done. Before writing, the
// values the plan replaces are read again: when one changed since the dialog opened (another tab,
// a shell), nothing is written until the user has seen it and confirmed. A limit an open check
// window holds gets a word on what the window's end will do with the value written.

import { useState } from 'react';
import { Alert, Button, Stack, StackItem } from '../pf';
import { CodeBlock, CodeBlockCode } from '../pfDetails';
import { Modal, ModalBody, ModalFooter, ModalHeader } from '../pfForms';
import { _, fmt, ngettext } from '../../host/i18n';
import { changedOnHost, undoableSteps, undoApplied, writePlan } from '../../host/applyPlan';
import type { ApplyResult } from '../../host/executor';
import { formatRateWithRaw } from '../../md/format';
import type { Message } from '../../md/message';
import { rebasedOnCurrent, type ChangedSinceOpened } from '../../md/openedValues';
import { describeStep, type Plan, type Step } from '../../md/plan';
import { windowEndNotes } from '../../md/alerts/ownWindow';
import { useHost } from '../common/HostContext';
import { useStoppedArray } from '../common/arrayDialog';
import { AutomationScript } from './AutomationScript';
import { text } from '../common/message';

export interface ChangeModalProps {
    title: string;
    /**
     * The plan the form currently describes; null while the form has errors. Its `from` values are
     * those the dialog showed when it opened (useHostAsOpened), so that a change made elsewhere
     * meanwhile is caught at Apply.
     */
    plan: Plan | null;
    warnings?: Message[];
    /** Record the values being replaced first (false for the restore itself). */
    recordOriginals?: boolean;
    /** Steps to apply instead of the plan's own (e.g. the restore with its journal removal). */
    steps?: Step[];
    applyLabel?: string;
    /** What to do about a failure, from the command's or kernel's words (e.g. mdadm's). */
    failureHint?: (reason: string) => string | null;
    onClose: () => void;
    /** Told of every apply's outcome (a card that reads its own state re-reads it, and may offer an undo). */
    onApplied?: (result: ApplyResult) => void;
    children?: React.ReactNode;
}

type Phase =
    | { name: 'review' } | { name: 'applying' }
    | { name: 'changed'; changes: ChangedSinceOpened[] }
    | { name: 'done'; result: ApplyResult; undone?: ApplyResult };

function Commands({ steps, className = 'raidtune-commands' }: { steps: Step[]; className?: string }) {
    return (
        <CodeBlock className={className}>
            <CodeBlockCode>{steps.map(describeStep).join('\n')}</CodeBlockCode>
        </CodeBlock>
    );
}

/** A replaced value as the user reads it: speeds in MiB/s with the kernel's KiB/s, others as written. */
function valueText(path: string, value: string | null): string {
    if (value === null) return _('unknown');
    if (value === 'system') return _('the system limit');
    return /\/(speed_limit_|sync_speed_)(min|max)$/.test(path) && /^\d+$/.test(value) ? formatRateWithRaw(Number(value)) : value;
}

function ChangedValues({ changes }: { changes: ChangedSinceOpened[] }) {
    return (
        <Alert isInline variant="warning" className="raidtune-changed-since-opened" title={_('Changed on the host since this dialog opened')}>
            <ul>
                {changes.map(c => (
                    <li key={c.step.path}>
                        {c.step.kind === 'edit-file' && fmt(
                            _('$0: the file changed since the dialog opened. “Apply anyway” changes only this dialog\'s lines in it, as it is now.'),
                            text(c.step.setting))}
                        {c.step.kind === 'write-file' && fmt(
                            _('$0: the file changed since the dialog opened. “Apply anyway” replaces it with the text of this dialog.'),
                            text(c.step.setting))}
                        {c.step.kind === 'write-attribute' && fmt(_('$0: was $1 when the dialog opened, is $2 now.'),
                            text(c.step.setting), valueText(c.step.path, c.was), valueText(c.step.path, c.now))}
                    </li>
                ))}
            </ul>
            <p>{_('Nothing was written. “Apply anyway” writes the values of this dialog over them.')}</p>
        </Alert>
    );
}

/** Only kernel values are read back from the kernel; files and commands are not read back. */
function doneText(result: ApplyResult): string {
    return result.done.some(o => o.step.kind === 'write-attribute')
        ? _('Done. The values were read back from the kernel.')
        : _('Done.');
}

/**
 * A plan of several steps stopped part way (a partition table copied, the add refused): what ran
 * before the failure and what did not run, as the commands, so the admin knows where the host is.
 * Steps run in order and stop at the first failure.
 */
function CutShort({ result, planned }: { result: ApplyResult; planned: Step[] }) {
    const left = planned.slice(result.done.length + 1);
    if (!result.failed || planned.length < 2) return null;
    return (
        <Stack hasGutter className="raidtune-cut-short">
            {result.done.length > 0 && (
                <>
                    <p>{_('Done before the failure:')}</p>
                    <Commands steps={result.done.map(o => o.step)} className="raidtune-cut-short-done" />
                </>
            )}
            {left.length > 0 && (
                <>
                    <p>{_('Not run:')}</p>
                    <Commands steps={left} className="raidtune-cut-short-left" />
                </>
            )}
        </Stack>
    );
}

function Outcome({ result, planned, failureHint }: {
    result: ApplyResult; planned: Step[]; failureHint?: (reason: string) => string | null;
}) {
    const kept = result.done.filter(o => o.differs);
    return (
        <Stack hasGutter>
            {result.failed
                ? (
                    <Alert isInline variant="danger" title={fmt(_('Changing the $0 failed: $1'), text(result.failed.step.setting), result.failed.reason)}>
                        {result.failed && failureHint?.(result.failed.reason) && (
                            <p>{failureHint(result.failed.reason)}</p>
                        )}
                        {_('Nothing after this step was changed.')}
                    </Alert>
                )
                : <Alert isInline variant="success" title={doneText(result)} />}
            <CutShort result={result} planned={planned} />
            {kept.map(o => (
                <Alert key={describeStep(o.step)} isInline variant="warning"
                    title={fmt(_('The kernel kept $0 for the $1 (asked for $2).'), o.readBack ?? '?', text(o.step.setting),
                        o.step.kind === 'write-attribute' ? o.step.to : '')} />
            ))}
        </Stack>
    );
}

export function ChangeModal({
    title, plan, warnings = [], recordOriginals = true, steps, applyLabel, failureHint, onClose, onApplied, children,
}: ChangeModalProps) {
    const { config, refreshNow, admin, model } = useHost();
    // The array this dialog changes stopped while it was open: nothing more is written to it.
    const stopped = useStoppedArray();
    const [phase, setPhase] = useState<Phase>({ name: 'review' });
    const toApply = steps ?? plan?.steps ?? [];

    const request = { config, plan, recordOriginals, steps, armed: model.autoRestore };

    const write = async (writing: Step[]) => {
        setPhase({ name: 'applying' });
        const result = await writePlan(request, writing);
        setPhase({ name: 'done', result });
        onApplied?.(result);
        refreshNow();
    };

    const apply = async () => {
        setPhase({ name: 'applying' });
        const changes = await changedOnHost(config, toApply);
        if (changes.length) setPhase({ name: 'changed', changes });
        else await write(toApply);
    };

    const undo = async (result: ApplyResult) => {
        setPhase({ name: 'applying' });
        setPhase({ name: 'done', result, undone: await undoApplied(config, plan, result) });
        refreshNow();
    };

    const done = phase.name === 'done' ? phase : null;
    const changed = phase.name === 'changed' ? phase.changes : null;
    const undoable = done && !done.undone ? undoableSteps(done.result) : [];

    return (
        <Modal isOpen variant="medium" onClose={onClose} aria-labelledby="change-modal-title">
            <ModalHeader title={title} labelId="change-modal-title" />
            <ModalBody>
                <Stack hasGutter>
                    {stopped && !done && (
                        <StackItem>
                            <Alert isInline variant="danger" className="raidtune-array-stopped"
                                title={fmt(_('$0 stopped while this dialog was open: it no longer runs, so nothing can be changed on it. Nothing was written.'), stopped)} />
                        </StackItem>
                    )}
                    {!done && !changed && children && <StackItem>{children}</StackItem>}
                    {changed && <StackItem><ChangedValues changes={changed} /></StackItem>}
                    {!done && toApply.length > 0 && warnings.map(w => (
                        <StackItem key={w.message}><Alert isInline variant="warning" title={text(w)} /></StackItem>
                    ))}
                    {!done && windowEndNotes(model.windowLimitsInForce, toApply).map(note => (
                        <StackItem key={text(note)}>
                            <Alert isInline isPlain variant="info" className="raidtune-window-end-note" title={text(note)} />
                        </StackItem>
                    ))}
                    {!done && toApply.length > 0 && (
                        <StackItem>
                            <p>{_('These commands will run on the host:')}</p>
                            <Commands steps={toApply} />
                        </StackItem>
                    )}
                    {!done && !changed && toApply.length > 0 && <AutomationScript steps={toApply} title={title} />}
                    {!done && plan && toApply.length === 0 && <StackItem>{_('Nothing to change: the values are already set.')}</StackItem>}
                    {done && (
                        <StackItem>
                            <Outcome result={done.result} planned={toApply} failureHint={failureHint} />
                        </StackItem>
                    )}
                    {done?.undone && (
                        <StackItem>
                            {done.undone.failed
                                ? <Alert isInline variant="danger" title={fmt(_('Undo failed at the $0: $1'), text(done.undone.failed.step.setting), done.undone.failed.reason)} />
                                : <Alert isInline variant="info" title={_('The changes made before the failure were undone.')} />}
                        </StackItem>
                    )}
                </Stack>
            </ModalBody>
            <ModalFooter>
                {changed && (
                    <Button variant="primary" onClick={() => write(rebasedOnCurrent(toApply, changed))}
                        isDisabled={stopped !== null}>{_('Apply anyway')}</Button>
                )}
                {!done && !changed && (
                    <Button variant="primary" onClick={apply} isLoading={phase.name === 'applying'}
                        isDisabled={!admin || phase.name === 'applying' || toApply.length === 0 || stopped !== null}>
                        {applyLabel ?? _('Apply')}
                    </Button>
                )}
                {undoable.length > 0 && (
                    <Button variant="secondary" onClick={() => undo(done!.result)}>
                        {fmt(ngettext('Undo the $0 change already made', 'Undo the $0 changes already made', undoable.length), undoable.length)}
                    </Button>
                )}
                <Button variant="link" onClick={onClose}>{done ? _('Close') : _('Cancel')}</Button>
            </ModalFooter>
        </Modal>
    );
}
