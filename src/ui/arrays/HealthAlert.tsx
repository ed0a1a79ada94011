// SPDX-License-Identifier: LGPL-2.1-or-later
// The alert at the top of an array's card when it lost disks or a disk is failing (as Cockpit's
// Storage page has one): what is missing or failed, named with the WWID and serial on the disk's
// label, and the next mdadm commands to copy. Removing a failed member runs as a previewed plan.

import { useMemo, useState } from 'react';
import { Alert, CardBody, Content, Stack } from '../pf';
import { Flex, FlexItem } from '../pfDetails';
import { _, fmt, ngettext } from '../../host/i18n';
import {
    healthAdvice, NEW_DEVICE_PLACEHOLDER, REPLACEMENT_PLACEHOLDER, removeFailedPlan, removeFailedTitle,
    type DiskIdentity, type HealthAdvice, type MemberTrouble,
} from '../../md/advice/health';
import type { ArrayModel } from '../../md/modelTypes';
import type { Replacing } from '../../md/replace/replaceDisk';
import { describeArgv } from '../../md/plan';
import { useHostDisks } from '../common/HostContext';
import { CopyableCommands } from '../common/CopyableCommands';
import { GuardedButton } from '../common/GuardedButton';
import { text } from '../common/message';
import { ChangeModal } from '../plan/lazyChangeModal';
import { ReplaceDiskDialog } from '../replace/lazyReplaceDisk';

export function identityText({ disk, wwid, serial, byPath, enclosureSlot }: DiskIdentity): string {
    const parts = [fmt(_('disk $0'), disk)];
    parts.push(wwid ? fmt(_('WWID $0'), wwid) : _('no WWID reported'));
    if (serial) parts.push(fmt(_('serial $0'), serial));
    if (byPath) parts.push(fmt(_('path $0'), byPath));
    if (enclosureSlot) parts.push(fmt(_('$0 of enclosure $1'), enclosureSlot.component, enclosureSlot.enclosure));
    return parts.join(', ');
}

function failedText(f: MemberTrouble): string {
    return fmt(_('$0 failed ($1).'), f.member, identityText(f.identity));
}

function failingText(f: MemberTrouble): string {
    const errors = f.errors ?? 0;
    return fmt(ngettext('$0 has $1 read error that md corrected ($2): the disk may be failing.',
        '$0 has $1 read errors that md corrected ($2): the disk may be failing.', errors), f.member, errors, identityText(f.identity));
}

// The figures change at every refresh: they are in the diagnosis below, which follows them.
function slowText(f: MemberTrouble): string {
    return fmt(_('$0 is far slower than the other members ($1): the sync waits for it, as "Why is it slow?" shows. A failing disk does this, and so does one that gets more of the other I/O than its peers: check its health.'),
        f.member, identityText(f.identity));
}

/** What losing the slow member would cost while slots are missing: said before what to do about it. */
function slowRiskText(array: ArrayModel, advice: HealthAdvice, f: MemberTrouble): string | null {
    if ((advice.situation !== 'degraded' && advice.situation !== 'rebuilding') || advice.failuresLeft === null) return null;
    if (advice.failuresLeft === 0) return fmt(_('If $0 fails before the rebuild ends, the data on $1 is lost.'), f.member, array.name);
    if (advice.failuresLeft === 1) return fmt(_('If $0 fails, $1 has no redundancy left.'), f.member, array.name);
    return null;
}

function titleText(array: ArrayModel, advice: HealthAdvice): string {
    switch (advice.situation) {
    case 'inactive':
        return fmt(_('$0 is not running: $1 of $2 devices are present'), array.name, advice.present, array.raidDisks ?? '?');
    case 'failed':
        return fmt(_('$0 has failed: only $1 of $2 devices work'), array.name, advice.present, array.raidDisks ?? '?');
    case 'degraded':
        return fmt(ngettext('$0 is degraded: slot $1 is empty', '$0 is degraded: slots $1 are empty', advice.emptySlots.length),
            array.name, advice.emptySlots.join(', '));
    case 'rebuilding':
        return fmt(_('$0 is degraded: a rebuild is under way'), array.name);
    case 'member-trouble':
        if (advice.failed.length > 0) return fmt(_('$0: a failed member is still part of the array'), array.name);
        return advice.failing.length > 0
            ? fmt(_('$0: a member has read errors'), array.name)
            : fmt(_('$0: a member is far slower than the others'), array.name);
    }
}

/**
 * Whether the data survives the next failure: what an admin weighs first (a rebuild under way
 * protects nothing until it ends). Said of arrays that still run with slots missing.
 */
function redundancyText(array: ArrayModel, advice: HealthAdvice): string | null {
    if ((advice.situation !== 'degraded' && advice.situation !== 'rebuilding') || advice.failuresLeft === null) return null;
    if (advice.failuresLeft === 0) {
        return fmt(_('No redundancy is left: one more failed disk loses the data on $0. Make sure a backup is current before anything else.'), array.name);
    }
    return fmt(ngettext('It survives $0 more failed disk.', 'It survives $0 more failed disks.', advice.failuresLeft), advice.failuresLeft);
}

/** What to do, in the order the commands come. */
function guidance(advice: HealthAdvice): string[] {
    const lines: string[] = [];
    const has = (purpose: string) => advice.commands.some(c => c.purpose === purpose);
    if (advice.situation === 'inactive') {
        lines.push(has('run')
            ? _('Enough of its devices are present to start it degraded: mdadm --run starts it without the missing ones, which can be added afterwards.')
            : _('Too few of its devices are present to start it. Connect the missing disks, see with mdadm --examine which devices belong to it, then stop it and assemble it again.'));
    }
    if (advice.situation === 'failed') {
        lines.push(_('More devices are missing than its level survives: its data cannot be read. If the failed disks work again (a loose cable, power), stop the array and assemble it with --force, which starts it from the members with the newest event counts; writes made after the failure may be lost.'));
    }
    for (const r of advice.rebuilding) {
        lines.push(fmt(_('Slot $0 is being rebuilt onto $1. The rebuild is under way: there is no disk to add for it.'), r.slot, r.member));
    }
    if (has('remove')) lines.push(_('md no longer uses a failed member but keeps it listed until it is removed; remove it before pulling its disk.'));
    if (advice.commands.some(c => c.purpose === 'add' && c.argv.includes(NEW_DEVICE_PLACEHOLDER))) {
        lines.push(fmt(_('Add a new disk or partition at least as large as the other members in place of $0: md rebuilds the empty slot onto it. Add a disk… lists the devices of this host that can take its place, and why the others cannot.'), NEW_DEVICE_PLACEHOLDER));
    }
    if (has('replace')) {
        lines.push(_('mdadm --replace copies a failing member onto a spare while the member still serves reads, so the array is never degraded on the way.'));
        if (advice.rebuilding.length > 0) lines.push(_('md makes that copy once the rebuild under way has ended.'));
        if (advice.commands.some(c => c.argv.includes(REPLACEMENT_PLACEHOLDER))) {
            lines.push(fmt(_('Put the new disk in place of $0.'), REPLACEMENT_PLACEHOLDER));
        }
    }
    return lines;
}

function RemoveFailed({ array, member, identity, onClose }: {
    array: ArrayModel; member: string; identity: DiskIdentity; onClose: () => void;
}) {
    const result = removeFailedPlan(array, member);
    return (
        <ChangeModal title={text(removeFailedTitle(array, member))} plan={result.plan ?? null} recordOriginals={false}
            applyLabel={_('Remove')} onClose={onClose}>
            <Content>
                <p>{fmt(_('$0 failed ($1).'), member, identityText(identity))}</p>
                <p>{_('mdadm marks it failed (it already is) and removes it from the array. Its disk can then be pulled and a new one added in its place. Adding the same disk back would rebuild onto a disk that failed.')}</p>
                {result.errors?.member && <p>{text(result.errors.member)}</p>}
            </Content>
        </ChangeModal>
    );
}

type OnRemove = (member: MemberTrouble) => void;
type OnReplace = (replacing: Replacing) => void;

interface ReplaceAction {
    label: string;
    replacing: Replacing;
}

/**
 * The disk replacements the alert offers: each failed member (removed, then its slot rebuilt), an
 * empty slot where no failed member is left, each member that still works but is failing or slow
 * (copied while it serves).
 */
function replaceActions(advice: HealthAdvice): ReplaceAction[] {
    if (advice.situation === 'inactive' || advice.situation === 'failed') return [];
    const failed = advice.failed.map(f => ({ label: fmt(_('Replace $0…'), f.member), replacing: { kind: 'failed', member: f.member } as const }));
    const emptySlot = advice.situation === 'degraded' && failed.length === 0 && advice.emptySlots.length > 0
        ? [{ label: _('Add a disk…'), replacing: { kind: 'empty-slot' } as const }] : [];
    const working = [...advice.failing, ...advice.slow]
        .map(f => ({ label: fmt(_('Replace $0…'), f.member), replacing: { kind: 'working', member: f.member } as const }));
    return [...failed, ...emptySlot, ...working];
}

function AdviceBody({ array, advice, onRemove, onReplace }: {
    array: ArrayModel; advice: HealthAdvice; onRemove: OnRemove; onReplace: OnReplace;
}) {
    const removable = advice.failed.filter(f => advice.commands.some(c => c.purpose === 'remove' && c.member === f.member));
    const replacements = replaceActions(advice);
    const redundancy = redundancyText(array, advice);
    return (
        <Stack hasGutter>
            <Content>
                {redundancy && <p className="raidtune-health-redundancy">{redundancy}</p>}
                {advice.failed.map(f => <p key={f.member} className="raidtune-health-failed">{failedText(f)}</p>)}
                {advice.failing.map(f => <p key={f.member} className="raidtune-health-failing">{failingText(f)}</p>)}
                {advice.slow.map(f => (
                    <p key={f.member} className="raidtune-health-slow">
                        {[slowText(f), slowRiskText(array, advice, f)].filter(Boolean).join(' ')}
                    </p>
                ))}
                {guidance(advice).map(line => <p key={line}>{line}</p>)}
            </Content>
            {advice.commands.length > 0 && (
                <CopyableCommands id={`${array.name}-health`} className="raidtune-health-commands"
                    commands={advice.commands.map(c => describeArgv(c.argv))} />
            )}
            {(replacements.length > 0 || removable.length > 0) && (
                <Flex>
                    {replacements.map((r, index) => (
                        <FlexItem key={`replace-${r.label}`}>
                            <GuardedButton variant={index === 0 ? 'primary' : 'secondary'} className="raidtune-replace-disk"
                                onClick={() => onReplace(r.replacing)}>{r.label}</GuardedButton>
                        </FlexItem>
                    ))}
                    {removable.map(f => (
                        <FlexItem key={f.member}>
                            <GuardedButton variant="secondary" onClick={() => onRemove(f)}>{fmt(_('Remove $0…'), f.member)}</GuardedButton>
                        </FlexItem>
                    ))}
                </Flex>
            )}
        </Stack>
    );
}

function TroubleAlert({ array, slow, onRemove, onReplace }: {
    array: ArrayModel; slow: string; onRemove: OnRemove; onReplace: OnReplace;
}) {
    const disks = useHostDisks();
    const advice = useMemo(() => healthAdvice(array, disks, slow ? slow.split(' ') : []), [array, disks, slow]);
    if (!advice) return null;
    return (
        <CardBody>
            <Alert isInline variant={advice.severity} className="raidtune-health-alert" title={titleText(array, advice)}>
                <AdviceBody array={array} advice={advice} onRemove={onRemove} onReplace={onReplace} />
            </Alert>
        </CardBody>
    );
}

/**
 * Most arrays are clean: only those with something to say read the disks (and follow their changes).
 * `slow`: the members the running sync waits for, space-separated (slowMemberNames).
 */
export function HealthAlert({ array, slow }: { array: ArrayModel; slow: string }) {
    // Here, not in the alert: the dialog stays open to show the outcome when the removal ends the alert.
    const [removing, setRemoving] = useState<MemberTrouble | null>(null);
    const [replacing, setReplacing] = useState<Replacing | null>(null);
    const troubled = array.health === 'degraded' || array.health === 'failed' || array.health === 'inactive' ||
        array.members.some(m => m.role === 'faulty' || (m.role === 'active' && (m.errors ?? 0) > 0)) || slow !== '';
    return (
        <>
            {troubled && <TroubleAlert array={array} slow={slow} onRemove={setRemoving} onReplace={setReplacing} />}
            {replacing && <ReplaceDiskDialog array={array} replacing={replacing} onClose={() => setReplacing(null)} />}
            {removing && (
                <RemoveFailed array={array} member={removing.member} identity={removing.identity}
                    onClose={() => setRemoving(null)} />
            )}
        </>
    );
}
